ALTER TABLE "orders" DROP CONSTRAINT "orders_status_check";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_paid_has_transaction_check";--> statement-breakpoint
DROP INDEX "orders_unpaid_expires_idx";--> statement-breakpoint
DROP INDEX "orders_unpaid_user_idx";--> statement-breakpoint
DROP INDEX "orders_unpaid_part_idx";--> statement-breakpoint
ALTER TABLE "company_members" ADD COLUMN "order_limit_cents" bigint;--> statement-breakpoint
CREATE INDEX "orders_unpaid_expires_idx" ON "orders" USING btree ("expires_at") WHERE "orders"."status" in ('unpaid', 'awaiting_approval');--> statement-breakpoint
CREATE INDEX "orders_unpaid_user_idx" ON "orders" USING btree ("user_id","expires_at") WHERE "orders"."status" in ('unpaid', 'awaiting_approval');--> statement-breakpoint
CREATE INDEX "orders_unpaid_part_idx" ON "orders" USING btree ("part_id","expires_at") WHERE "orders"."status" in ('unpaid', 'awaiting_approval');--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('unpaid', 'paid', 'shipped', 'expired', 'awaiting_approval', 'declined'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_paid_has_transaction_check" CHECK (("orders"."status" in ('unpaid', 'expired', 'awaiting_approval', 'declined')) = ("orders"."transaction_id" is null));--> statement-breakpoint
ALTER TABLE "company_members" ADD CONSTRAINT "company_members_order_limit_check" CHECK ("company_members"."order_limit_cents" > 0);