CREATE TABLE "cart_lines" (
	"user_id" uuid NOT NULL,
	"part_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"seen_unit_price_cents" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cart_lines_pkey" PRIMARY KEY("user_id","part_id"),
	CONSTRAINT "cart_lines_amount_check" CHECK ("cart_lines"."amount" > 0)
);
--> statement-breakpoint
DROP INDEX "orders_transaction_id_key";--> statement-breakpoint
DROP INDEX "payments_transaction_id_key";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "checkout_id" uuid;--> statement-breakpoint
ALTER TABLE "parts" ADD COLUMN "price_tiers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "parts" ADD COLUMN "pack_size" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "checkout_id" uuid;--> statement-breakpoint
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_part_id_parts_id_fk" FOREIGN KEY ("part_id") REFERENCES "public"."parts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cart_lines_part_idx" ON "cart_lines" USING btree ("part_id");--> statement-breakpoint
CREATE INDEX "orders_transaction_id_idx" ON "orders" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "orders_checkout_idx" ON "orders" USING btree ("checkout_id") WHERE "orders"."checkout_id" is not null;--> statement-breakpoint
CREATE INDEX "payments_transaction_id_idx" ON "payments" USING btree ("transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_transaction_id_key" ON "orders" USING btree ("transaction_id") WHERE "orders"."checkout_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_transaction_id_key" ON "payments" USING btree ("transaction_id") WHERE "payments"."checkout_id" is null;--> statement-breakpoint
ALTER TABLE "parts" ADD CONSTRAINT "parts_pack_size_check" CHECK ("parts"."pack_size" >= 1);