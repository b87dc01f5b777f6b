-- Part numbers are compared normalised by case and separators only (docs/catalog.md): ASCII letters upper-cased
-- (COLLATE "C": the same on every database, whatever its locale), spaces, tabs, no-break spaces, hyphens, dots,
-- slashes and underscores removed; every other character is kept as written. common/src/partNumbers.ts says the
-- same in TypeScript, and api/test/catalog/normalisation.test.ts checks that the two agree.
CREATE FUNCTION part_number_normalised(number text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT upper(translate(number, E' \t\u00a0-./_', '') COLLATE "C") $$;--> statement-breakpoint
CREATE SEQUENCE "public"."parts_sku_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "brands" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	CONSTRAINT "brands_name_check" CHECK (length(trim("brands"."name")) > 0)
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"parent_id" uuid,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	CONSTRAINT "categories_name_check" CHECK (length(trim("categories"."name")) > 0),
	CONSTRAINT "categories_not_own_parent_check" CHECK ("categories"."parent_id" <> "categories"."id")
);
--> statement-breakpoint
CREATE TABLE "makes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "models" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"make_id" uuid NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vehicles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"model_id" uuid NOT NULL,
	"year" smallint NOT NULL,
	"variant" text DEFAULT '' NOT NULL,
	CONSTRAINT "vehicles_year_check" CHECK ("vehicles"."year" between 1885 and 2100)
);
--> statement-breakpoint
CREATE TABLE "fitments" (
	"vehicle_id" uuid NOT NULL,
	"part_id" uuid NOT NULL,
	"position" text DEFAULT '' NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"category_id" uuid,
	CONSTRAINT "fitments_pkey" PRIMARY KEY("vehicle_id","part_id","position"),
	CONSTRAINT "fitments_quantity_check" CHECK ("fitments"."quantity" >= 1)
);
--> statement-breakpoint
CREATE TABLE "part_numbers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"part_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"brand_id" uuid,
	"raw" text NOT NULL,
	"normalised" text COLLATE "C" GENERATED ALWAYS AS (part_number_normalised(raw)) STORED NOT NULL,
	CONSTRAINT "part_numbers_kind_check" CHECK ("part_numbers"."kind" in ('manufacturer', 'oem', 'interchange', 'ean')),
	CONSTRAINT "part_numbers_raw_check" CHECK (length("part_numbers"."raw") <= 100 and "part_numbers"."normalised" <> '')
);
--> statement-breakpoint
-- Every part of before gets its SKU in the order the parts were added (PY-000001...); the sequence goes on from there.
ALTER TABLE "parts" ADD COLUMN "sku" text;--> statement-breakpoint
UPDATE "parts" SET "sku" = 'PY-' || lpad(numbered.n::text, 6, '0')
  FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS n FROM "parts") AS numbered
  WHERE numbered."id" = "parts"."id";--> statement-breakpoint
SELECT setval('parts_sku_seq', greatest((SELECT count(*) FROM "parts"), 1), (SELECT count(*) FROM "parts") > 0);--> statement-breakpoint
ALTER TABLE "parts" ALTER COLUMN "sku" SET DEFAULT ('PY-' || lpad(nextval('parts_sku_seq')::text, 6, '0'));--> statement-breakpoint
ALTER TABLE "parts" ALTER COLUMN "sku" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "parts" ADD COLUMN "sku_normalised" text COLLATE "C" GENERATED ALWAYS AS (part_number_normalised(sku)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "parts" ADD COLUMN "brand_id" uuid;--> statement-breakpoint
ALTER TABLE "parts" ADD COLUMN "category_id" uuid;--> statement-breakpoint
ALTER TABLE "parts" ADD COLUMN "universal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "parts" ADD COLUMN "replaced_by_id" uuid;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_id_categories_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "models" ADD CONSTRAINT "models_make_id_makes_id_fk" FOREIGN KEY ("make_id") REFERENCES "public"."makes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fitments" ADD CONSTRAINT "fitments_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fitments" ADD CONSTRAINT "fitments_part_id_parts_id_fk" FOREIGN KEY ("part_id") REFERENCES "public"."parts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fitments" ADD CONSTRAINT "fitments_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "part_numbers" ADD CONSTRAINT "part_numbers_part_id_parts_id_fk" FOREIGN KEY ("part_id") REFERENCES "public"."parts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "part_numbers" ADD CONSTRAINT "part_numbers_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "brands_name_key" ON "brands" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "brands_slug_key" ON "brands" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "categories_slug_key" ON "categories" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "categories_parent_idx" ON "categories" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "makes_slug_key" ON "makes" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "models_make_slug_key" ON "models" USING btree ("make_id","slug");--> statement-breakpoint
CREATE UNIQUE INDEX "vehicles_model_year_variant_key" ON "vehicles" USING btree ("model_id","year","variant");--> statement-breakpoint
CREATE INDEX "fitments_part_vehicle_idx" ON "fitments" USING btree ("part_id","vehicle_id");--> statement-breakpoint
CREATE INDEX "fitments_vehicle_category_idx" ON "fitments" USING btree ("vehicle_id","category_id","part_id");--> statement-breakpoint
CREATE INDEX "fitments_category_idx" ON "fitments" USING btree ("category_id");--> statement-breakpoint
CREATE UNIQUE INDEX "part_numbers_part_kind_number_key" ON "part_numbers" USING btree ("part_id","kind","normalised");--> statement-breakpoint
CREATE INDEX "part_numbers_normalised_idx" ON "part_numbers" USING btree ("normalised");--> statement-breakpoint
CREATE INDEX "part_numbers_brand_idx" ON "part_numbers" USING btree ("brand_id");--> statement-breakpoint
ALTER TABLE "parts" ADD CONSTRAINT "parts_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parts" ADD CONSTRAINT "parts_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parts" ADD CONSTRAINT "parts_replaced_by_id_parts_id_fk" FOREIGN KEY ("replaced_by_id") REFERENCES "public"."parts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "parts_sku_key" ON "parts" USING btree ("sku_normalised");--> statement-breakpoint
CREATE INDEX "parts_brand_idx" ON "parts" USING btree ("brand_id");--> statement-breakpoint
CREATE INDEX "parts_category_idx" ON "parts" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "parts_replaced_by_idx" ON "parts" USING btree ("replaced_by_id");--> statement-breakpoint
ALTER TABLE "parts" ADD CONSTRAINT "parts_not_replaced_by_itself_check" CHECK ("parts"."replaced_by_id" <> "parts"."id");--> statement-breakpoint
ALTER TABLE "parts" ADD CONSTRAINT "parts_sku_check" CHECK (length("parts"."sku") <= 100 and "parts"."sku_normalised" <> '');--> statement-breakpoint
-- A fitment carries its part's category (the catalog for a bike by category reads fitments alone): copied when
-- the fitment is written, and again whenever the part's category changes.
CREATE FUNCTION fitments_category_from_part() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT "category_id" INTO NEW."category_id" FROM "parts" WHERE "id" = NEW."part_id";
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER fitments_category_from_part BEFORE INSERT OR UPDATE OF "part_id", "category_id" ON "fitments"
  FOR EACH ROW EXECUTE FUNCTION fitments_category_from_part();--> statement-breakpoint
CREATE FUNCTION parts_category_to_fitments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "fitments" SET "category_id" = NEW."category_id" WHERE "part_id" = NEW."id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER parts_category_to_fitments AFTER UPDATE OF "category_id" ON "parts"
  FOR EACH ROW WHEN (OLD."category_id" IS DISTINCT FROM NEW."category_id")
  EXECUTE FUNCTION parts_category_to_fitments();