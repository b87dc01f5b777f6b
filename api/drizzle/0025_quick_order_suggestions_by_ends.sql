DROP INDEX "parts_sku_trgm_idx";--> statement-breakpoint
DROP INDEX "part_numbers_normalised_trgm_idx";--> statement-breakpoint
CREATE INDEX "parts_sku_reversed_idx" ON "parts" USING btree (reverse("sku_normalised"));--> statement-breakpoint
CREATE INDEX "part_numbers_normalised_reversed_idx" ON "part_numbers" USING btree (reverse("normalised"));