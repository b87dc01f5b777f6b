-- The catalog's search and browsing (issue 33, docs/catalog.md). pg_trgm came with 0002; it is asked for again so
-- that this migration stands on its own (drizzle-kit does not write extensions: this line was added by hand; PGlite
-- loads pg_trgm in api/src/db/database.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "parts_search_trgm_idx" ON "parts" USING gin (lower("name" || ' ' || "description") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "parts_name_idx" ON "parts" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "parts_universal_idx" ON "parts" USING btree ("category_id") WHERE "parts"."universal";