-- The import's speed (issue 33 points 5 and 8, docs/imports.md). A fitment takes its part's category from a
-- per-row trigger (0017); the fitment import writes a million rows whose category it already read from the part
-- in the same statement (joined), so that trigger's look-up is skipped while the import's transaction says so
-- (`set local partsyard.fitments_category_given = 'on'`, importApply.ts). Every other writer is as before.
DROP TRIGGER fitments_category_from_part ON "fitments";--> statement-breakpoint
CREATE TRIGGER fitments_category_from_part BEFORE INSERT OR UPDATE OF "part_id", "category_id" ON "fitments"
  FOR EACH ROW WHEN (current_setting('partsyard.fitments_category_given', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION fitments_category_from_part();
