CREATE TABLE "catalog_counts" (
	"vehicle_id" uuid NOT NULL,
	"category_id" uuid NOT NULL,
	"parts" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "catalog_counts_pkey" PRIMARY KEY("vehicle_id","category_id")
);
--> statement-breakpoint
-- The catalog's precomputed counts (issue 33 point 8, docs/catalog.md "Precomputed counts"): for each vehicle and
-- category, the listed parts it fits by fitment; for no vehicle (the zero uuid), each category's listed universal
-- parts; the zero uuid as a category counts the parts without one. drizzle-kit wrote the table above; the rule, the
-- functions that count by it, the triggers and the backfill below were added by hand (drizzle-kit writes none).
--
-- The rule, in one place: a part counts for a vehicle by its fitment rows when it is not universal and is listed
-- (a replaced part out of stock is left out of the lists: catalogQuery.ts's inPartSet says the same); a universal
-- part counts for its category when listed. Distinct parts: a part fitting a bike at two positions counts once.
CREATE FUNCTION catalog_part_listed(replaced_by_id uuid, available integer) RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT replaced_by_id IS NULL OR available > 0 $$;--> statement-breakpoint
-- Counts the given keys again (vehicle_ids[i], category_ids[i]: a few, those a change touched). Writers of one key
-- queue on its row: made if missing, then held (in one order), and only then counted, by a statement that sees
-- what the writers before it committed. A shared advisory lock lets `catalog_counts_refresh` (an import's) wait
-- for the recounts in flight and hold new ones back until its transaction ends.
CREATE FUNCTION catalog_counts_recount(vehicle_ids uuid[], category_ids uuid[]) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtext('catalog_counts'));
  INSERT INTO catalog_counts (vehicle_id, category_id)
    SELECT DISTINCT v, c FROM unnest(vehicle_ids, category_ids) AS k(v, c) ORDER BY v, c
    ON CONFLICT (vehicle_id, category_id) DO NOTHING;
  PERFORM 1 FROM catalog_counts cc
    WHERE (cc.vehicle_id, cc.category_id) IN (SELECT v, c FROM unnest(vehicle_ids, category_ids) AS k(v, c))
    ORDER BY cc.vehicle_id, cc.category_id FOR UPDATE;
  UPDATE catalog_counts cc SET parts = fresh.n
    FROM (
      SELECT k.v, k.c, (CASE
        WHEN k.v = '00000000-0000-0000-0000-000000000000' AND k.c = '00000000-0000-0000-0000-000000000000' THEN
          (SELECT count(*) FROM parts p WHERE p.universal AND p.category_id IS NULL
              AND catalog_part_listed(p.replaced_by_id, p.available))
        WHEN k.v = '00000000-0000-0000-0000-000000000000' THEN
          (SELECT count(*) FROM parts p WHERE p.universal AND p.category_id = k.c
              AND catalog_part_listed(p.replaced_by_id, p.available))
        WHEN k.c = '00000000-0000-0000-0000-000000000000' THEN
          (SELECT count(DISTINCT f.part_id) FROM fitments f JOIN parts p ON p.id = f.part_id
            WHERE f.vehicle_id = k.v AND f.category_id IS NULL AND NOT p.universal
              AND catalog_part_listed(p.replaced_by_id, p.available))
        ELSE
          (SELECT count(DISTINCT f.part_id) FROM fitments f JOIN parts p ON p.id = f.part_id
            WHERE f.vehicle_id = k.v AND f.category_id = k.c AND NOT p.universal
              AND catalog_part_listed(p.replaced_by_id, p.available))
        END)::integer AS n
      FROM (SELECT DISTINCT v, c FROM unnest(vehicle_ids, category_ids) AS k(v, c)) k
    ) fresh
    WHERE cc.vehicle_id = fresh.v AND cc.category_id = fresh.c AND cc.parts <> fresh.n;
END $$;--> statement-breakpoint
-- Counts every key of the given vehicles again in one pass (null: every key, the universal parts' too): what an
-- import runs once at its end, the triggers deferred while it writes (`partsyard.catalog_counts_deferred`), and
-- the backfill below. It waits for the recounts in flight and holds new ones back until its transaction ends.
CREATE FUNCTION catalog_counts_refresh(vehicle_ids uuid[] DEFAULT NULL) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('catalog_counts'));
  CREATE TEMPORARY TABLE catalog_counts_fresh (v uuid, c uuid, n integer, PRIMARY KEY (v, c)) ON COMMIT DROP;
  IF vehicle_ids IS NULL THEN
    INSERT INTO catalog_counts_fresh
      SELECT f.vehicle_id, coalesce(f.category_id, '00000000-0000-0000-0000-000000000000'), count(DISTINCT f.part_id)
        FROM fitments f JOIN parts p ON p.id = f.part_id
       WHERE NOT p.universal AND catalog_part_listed(p.replaced_by_id, p.available)
       GROUP BY 1, 2;
    INSERT INTO catalog_counts_fresh
      SELECT '00000000-0000-0000-0000-000000000000', coalesce(p.category_id, '00000000-0000-0000-0000-000000000000'),
             count(*)
        FROM parts p WHERE p.universal AND catalog_part_listed(p.replaced_by_id, p.available)
       GROUP BY 2;
    UPDATE catalog_counts cc SET parts = 0
     WHERE cc.parts <> 0 AND NOT EXISTS (SELECT 1 FROM catalog_counts_fresh x WHERE x.v = cc.vehicle_id AND x.c = cc.category_id);
  ELSE
    INSERT INTO catalog_counts_fresh
      SELECT f.vehicle_id, coalesce(f.category_id, '00000000-0000-0000-0000-000000000000'), count(DISTINCT f.part_id)
        FROM fitments f JOIN parts p ON p.id = f.part_id
       WHERE f.vehicle_id = ANY (vehicle_ids) AND NOT p.universal AND catalog_part_listed(p.replaced_by_id, p.available)
       GROUP BY 1, 2;
    UPDATE catalog_counts cc SET parts = 0
     WHERE cc.vehicle_id = ANY (vehicle_ids) AND cc.parts <> 0
       AND NOT EXISTS (SELECT 1 FROM catalog_counts_fresh x WHERE x.v = cc.vehicle_id AND x.c = cc.category_id);
  END IF;
  INSERT INTO catalog_counts (vehicle_id, category_id, parts) SELECT v, c, n FROM catalog_counts_fresh
    ON CONFLICT (vehicle_id, category_id) DO UPDATE SET parts = excluded.parts
    WHERE catalog_counts.parts <> excluded.parts;
  DROP TABLE catalog_counts_fresh;
END $$;--> statement-breakpoint
-- Fitment rows written, changed or removed (one statement's rows at once): their keys counted again, before and
-- after a change. Deferred while an import says so (it refreshes its vehicles at its end).
CREATE FUNCTION fitments_counts_recount() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  vs uuid[];
  cs uuid[];
BEGIN
  IF current_setting('partsyard.catalog_counts_deferred', true) = 'on' THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(vehicle_id), array_agg(coalesce(category_id, '00000000-0000-0000-0000-000000000000'))
      INTO vs, cs FROM (SELECT DISTINCT vehicle_id, category_id FROM new_rows) k;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(vehicle_id), array_agg(coalesce(category_id, '00000000-0000-0000-0000-000000000000'))
      INTO vs, cs FROM (SELECT DISTINCT vehicle_id, category_id FROM old_rows) k;
  ELSE
    SELECT array_agg(vehicle_id), array_agg(coalesce(category_id, '00000000-0000-0000-0000-000000000000'))
      INTO vs, cs
      FROM (SELECT vehicle_id, category_id FROM new_rows UNION SELECT vehicle_id, category_id FROM old_rows) k;
  END IF;
  IF vs IS NOT NULL THEN PERFORM catalog_counts_recount(vs, cs); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER fitments_counts_insert AFTER INSERT ON fitments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION fitments_counts_recount();--> statement-breakpoint
CREATE TRIGGER fitments_counts_update AFTER UPDATE ON fitments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION fitments_counts_recount();--> statement-breakpoint
CREATE TRIGGER fitments_counts_delete AFTER DELETE ON fitments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION fitments_counts_recount();--> statement-breakpoint
-- A part that starts or stops counting (universal or not, listed or not: a replaced part selling out or restocked),
-- or a universal part moving category, added or removed: the keys of its fitment rows and of its universal
-- categories counted again. A row trigger whose condition PostgreSQL checks itself, so that an order taking stock
-- runs no function unless it sells a replaced part out. (A part's category change reaches its fitment rows by
-- parts_category_to_fitments, whose update the fitments' trigger counts.) Deferred while an import says so.
CREATE FUNCTION parts_counts_recount() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  vs uuid[] := '{}';
  cs uuid[] := '{}';
BEGIN
  IF current_setting('partsyard.catalog_counts_deferred', true) = 'on' THEN RETURN NULL; END IF;
  IF TG_OP = 'UPDATE' THEN
    SELECT coalesce(array_agg(vehicle_id), '{}'),
           coalesce(array_agg(coalesce(category_id, '00000000-0000-0000-0000-000000000000')), '{}')
      INTO vs, cs FROM (SELECT DISTINCT vehicle_id, category_id FROM fitments WHERE fitments.part_id = NEW.id) k;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD.universal THEN
    vs := vs || '00000000-0000-0000-0000-000000000000'::uuid;
    cs := cs || coalesce(OLD.category_id, '00000000-0000-0000-0000-000000000000');
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.universal THEN
    vs := vs || '00000000-0000-0000-0000-000000000000'::uuid;
    cs := cs || coalesce(NEW.category_id, '00000000-0000-0000-0000-000000000000');
  END IF;
  IF cardinality(vs) > 0 THEN PERFORM catalog_counts_recount(vs, cs); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER parts_counts_update AFTER UPDATE OF universal, category_id, replaced_by_id, available ON parts
  FOR EACH ROW WHEN (
    OLD.universal IS DISTINCT FROM NEW.universal
    OR catalog_part_listed(OLD.replaced_by_id, OLD.available) IS DISTINCT FROM catalog_part_listed(NEW.replaced_by_id, NEW.available)
    OR (NEW.universal AND OLD.category_id IS DISTINCT FROM NEW.category_id))
  EXECUTE FUNCTION parts_counts_recount();--> statement-breakpoint
CREATE TRIGGER parts_counts_insert AFTER INSERT ON parts
  FOR EACH ROW WHEN (NEW.universal) EXECUTE FUNCTION parts_counts_recount();--> statement-breakpoint
CREATE TRIGGER parts_counts_delete AFTER DELETE ON parts
  FOR EACH ROW WHEN (OLD.universal) EXECUTE FUNCTION parts_counts_recount();--> statement-breakpoint
-- The counts of the catalog as it is.
SELECT catalog_counts_refresh();
