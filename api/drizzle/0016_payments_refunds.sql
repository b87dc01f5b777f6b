-- Issue 32: the ledger of payment intents names their owner (who may confirm one whose order is gone, or be
-- handed it again).
ALTER TABLE "gateway_intents" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "gateway_intents" ADD CONSTRAINT "gateway_intents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gateway_intents_user_idx" ON "gateway_intents" USING btree ("user_id");--> statement-breakpoint
-- The intents noted before their owners were (issue 32): owned by the owner of the order or checkout they pay,
-- while it exists.
UPDATE "gateway_intents" AS gi SET "user_id" = o."user_id"
  FROM "orders" AS o
  WHERE gi."user_id" IS NULL AND (o."id" = gi."order_id" OR o."checkout_id" = gi."order_id");
