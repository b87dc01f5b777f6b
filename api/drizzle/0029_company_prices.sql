CREATE TABLE "company_part_prices" (
	"company_id" uuid NOT NULL,
	"part_id" uuid NOT NULL,
	"price_cents" bigint NOT NULL,
	"price_tiers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_part_prices_company_id_part_id_pk" PRIMARY KEY("company_id","part_id"),
	CONSTRAINT "company_part_prices_price_check" CHECK ("company_part_prices"."price_cents" >= 1)
);
--> statement-breakpoint
CREATE TABLE "company_price_lists" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"percent_off_bp" integer,
	"version" bigint DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_price_lists_percent_check" CHECK ("company_price_lists"."percent_off_bp" between 1 and 9000)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "company_priced" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD COLUMN "company_priced" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "company_part_prices" ADD CONSTRAINT "company_part_prices_company_id_company_price_lists_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company_price_lists"("company_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_part_prices" ADD CONSTRAINT "company_part_prices_part_id_parts_id_fk" FOREIGN KEY ("part_id") REFERENCES "public"."parts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_price_lists" ADD CONSTRAINT "company_price_lists_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "company_part_prices_part_idx" ON "company_part_prices" USING btree ("part_id");