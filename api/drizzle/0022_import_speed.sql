-- The import's speed (issue 33 points 5 and 8, docs/imports.md). The staging table's rows lose their foreign key
-- to the job (importSchema.ts says why: a per-row check that bought nothing). A fitment takes its part's category
-- from a per-row trigger (0017); the fitment import writes rows whose category it read from the part in the same
-- statement (joined), so that trigger's look-up is skipped while the import's transaction says so (`set_config(
-- 'partsyard.fitments_category_given', 'on', true)`, importApply.ts). Every other writer is as before. These
-- comments and the trigger's lines were added by hand (drizzle-kit does not write triggers).
ALTER TABLE "import_rows" DROP CONSTRAINT "import_rows_job_id_import_jobs_id_fk";--> statement-breakpoint
DROP TRIGGER fitments_category_from_part ON "fitments";--> statement-breakpoint
CREATE TRIGGER fitments_category_from_part BEFORE INSERT OR UPDATE OF "part_id", "category_id" ON "fitments"
  FOR EACH ROW WHEN (current_setting('partsyard.fitments_category_given', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION fitments_category_from_part();
