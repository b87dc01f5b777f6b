CREATE TABLE "saved_list_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"list_id" uuid NOT NULL,
	"part_id" uuid,
	"sku" text NOT NULL,
	"part_name" text NOT NULL,
	"quantity" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_list_lines_quantity_check" CHECK ("saved_list_lines"."quantity" >= 1)
);
--> statement-breakpoint
CREATE TABLE "saved_lists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_lists_name_check" CHECK (length("saved_lists"."name") between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "saved_list_lines" ADD CONSTRAINT "saved_list_lines_list_id_saved_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."saved_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_list_lines" ADD CONSTRAINT "saved_list_lines_part_id_parts_id_fk" FOREIGN KEY ("part_id") REFERENCES "public"."parts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_lists" ADD CONSTRAINT "saved_lists_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "saved_list_lines_list_part_key" ON "saved_list_lines" USING btree ("list_id","part_id");--> statement-breakpoint
CREATE INDEX "saved_list_lines_list_added_idx" ON "saved_list_lines" USING btree ("list_id","added_at");--> statement-breakpoint
CREATE INDEX "saved_list_lines_part_idx" ON "saved_list_lines" USING btree ("part_id");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_lists_user_name_key" ON "saved_lists" USING btree ("user_id",lower("name"));--> statement-breakpoint
CREATE INDEX "parts_sku_trgm_idx" ON "parts" USING gin ("sku_normalised" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "part_numbers_normalised_trgm_idx" ON "part_numbers" USING gin ("normalised" gin_trgm_ops);