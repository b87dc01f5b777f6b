-- Issue 32: the ledger of payment intents names their owner (who may confirm one whose order is gone, or be
-- handed it again); orders carry what the gateway refunded of their payment and a dispute's state; the refund and
-- dispute events applied are kept by id, so a delivery repeated is applied once.
CREATE TABLE "gateway_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"payment_intent_id" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gateway_intents" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "dispute_status" text;--> statement-breakpoint
ALTER TABLE "gateway_intents" ADD CONSTRAINT "gateway_intents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gateway_intents_user_idx" ON "gateway_intents" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refunded_check" CHECK ("orders"."refunded_cents" between 0 and "orders"."total_cents");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_dispute_check" CHECK ("orders"."dispute_status" in ('open', 'won', 'lost'));
--> statement-breakpoint
-- The intents noted before their owners were: owned by the owner of the order or checkout they pay, while it exists.
UPDATE "gateway_intents" AS gi SET "user_id" = o."user_id"
  FROM "orders" AS o
  WHERE gi."user_id" IS NULL AND (o."id" = gi."order_id" OR o."checkout_id" = gi."order_id");
