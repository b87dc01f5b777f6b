-- The catalog search (lower(name) like '%text%') is served by a trigram index; drizzle-kit does not manage
-- extensions, so this line was added by hand (PGlite loads pg_trgm in api/src/db/database.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "parts_name_lower_idx";--> statement-breakpoint
CREATE INDEX "parts_name_trgm_idx" ON "parts" USING gin (lower("name") gin_trgm_ops);
