CREATE TABLE "garage_merges" (
	"user_id" uuid NOT NULL,
	"merge_id" uuid NOT NULL,
	"notes" jsonb NOT NULL,
	"merged_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "garage_merges_pkey" PRIMARY KEY("user_id","merge_id")
);
--> statement-breakpoint
CREATE TABLE "garage_vehicles" (
	"user_id" uuid NOT NULL,
	"vehicle_id" uuid NOT NULL,
	"current" boolean DEFAULT false NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "garage_vehicles_pkey" PRIMARY KEY("user_id","vehicle_id")
);
--> statement-breakpoint
ALTER TABLE "garage_merges" ADD CONSTRAINT "garage_merges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "garage_vehicles" ADD CONSTRAINT "garage_vehicles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "garage_vehicles" ADD CONSTRAINT "garage_vehicles_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "garage_vehicles_one_current_key" ON "garage_vehicles" USING btree ("user_id") WHERE "garage_vehicles"."current";--> statement-breakpoint
CREATE INDEX "garage_vehicles_vehicle_idx" ON "garage_vehicles" USING btree ("vehicle_id");