DROP INDEX "orders_email_idx";--> statement-breakpoint
DROP INDEX "payments_email_idx";--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "admin_source" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_admin_source_check" CHECK ("users"."admin_source" is null or ("users"."role" = 'admin' and "users"."admin_source" in ('admin_emails', 'granted')));--> statement-breakpoint
-- Picture and profile addresses the shared rules no longer accept (javascript:, data:, relative paths...) are dropped.
UPDATE "users" SET "avatar" = '' WHERE "avatar" <> '' AND "avatar" !~* '^(https?://[^[:space:]]+|/images/[A-Za-z0-9_./-]+)$';--> statement-breakpoint
UPDATE "users" SET "linked_in" = '' WHERE "linked_in" <> '' AND "linked_in" !~* '^https?://[^[:space:]]+$';--> statement-breakpoint
UPDATE "reviews" SET "avatar" = '' WHERE "avatar" <> '' AND "avatar" !~* '^(https?://[^[:space:]]+|/images/[A-Za-z0-9_./-]+)$';--> statement-breakpoint
UPDATE "parts" SET "image" = '' WHERE "image" <> '' AND "image" !~* '^(https?://[^[:space:]]+|/images/[A-Za-z0-9_./-]+)$';--> statement-breakpoint
-- What deleted customers left on the books no longer carries their details (shipped orders: nothing is left to do).
UPDATE "orders" SET "email" = '' WHERE "user_id" IS NULL;--> statement-breakpoint
UPDATE "orders" SET "name" = '', "phone" = '', "address" = '' WHERE "user_id" IS NULL AND "status" = 'shipped';--> statement-breakpoint
UPDATE "payments" SET "email" = '' WHERE "user_id" IS NULL;--> statement-breakpoint
UPDATE "reviews" SET "email" = '', "avatar" = '' WHERE "user_id" IS NULL;
