-- Issue 10: a stored picture path of ours must stay under /images/ (common/src/rules.ts imageUrl): one with a
-- segment such as '..' is cleared, as migration 0005 cleared pictures that were no address at all.
UPDATE "users" SET "avatar" = '' WHERE "avatar" <> '' AND "avatar" !~* '^(https?://[^[:space:]]+|/images/([A-Za-z0-9_-][A-Za-z0-9_.-]*/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*)$';--> statement-breakpoint
UPDATE "reviews" SET "avatar" = '' WHERE "avatar" <> '' AND "avatar" !~* '^(https?://[^[:space:]]+|/images/([A-Za-z0-9_-][A-Za-z0-9_.-]*/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*)$';--> statement-breakpoint
UPDATE "parts" SET "image" = '' WHERE "image" <> '' AND "image" !~* '^(https?://[^[:space:]]+|/images/([A-Za-z0-9_-][A-Za-z0-9_.-]*/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*)$';
