CREATE TABLE "order_counts" (
	"status" text NOT NULL,
	"slot" integer NOT NULL,
	"orders" bigint NOT NULL,
	CONSTRAINT "order_counts_pkey" PRIMARY KEY("status","slot")
);
--> statement-breakpoint
-- Kept by statement triggers (one row per status and slot written by each statement, whatever its size). Each
-- writing backend adds to its own slot (its pid modulo 64), in status order, so that concurrent transactions
-- neither queue on one row nor lock two rows in opposite orders.
CREATE FUNCTION "order_counts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "order_counts" ("status", "slot", "orders")
    SELECT "status", pg_backend_pid() % 64, count(*) FROM "new_rows" GROUP BY "status" ORDER BY "status"
  ON CONFLICT ("status", "slot") DO UPDATE SET "orders" = "order_counts"."orders" + excluded."orders";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "order_counts_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "order_counts" ("status", "slot", "orders")
    SELECT "status", pg_backend_pid() % 64, sum("change")
    FROM (SELECT "status", -1 AS "change" FROM "old_rows" UNION ALL SELECT "status", 1 FROM "new_rows") AS "changes"
    GROUP BY "status" HAVING sum("change") <> 0 ORDER BY "status"
  ON CONFLICT ("status", "slot") DO UPDATE SET "orders" = "order_counts"."orders" + excluded."orders";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "order_counts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "order_counts" ("status", "slot", "orders")
    SELECT "status", pg_backend_pid() % 64, -count(*) FROM "old_rows" GROUP BY "status" ORDER BY "status"
  ON CONFLICT ("status", "slot") DO UPDATE SET "orders" = "order_counts"."orders" + excluded."orders";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "order_counts_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "order_counts";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "orders_counted_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "order_counts_inserted"();
--> statement-breakpoint
CREATE TRIGGER "orders_counted_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "order_counts_updated"();
--> statement-breakpoint
CREATE TRIGGER "orders_counted_delete" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "order_counts_deleted"();
--> statement-breakpoint
CREATE TRIGGER "orders_counted_truncate" AFTER TRUNCATE ON "orders"
  FOR EACH STATEMENT EXECUTE FUNCTION "order_counts_truncated"();
--> statement-breakpoint
INSERT INTO "order_counts" ("status", "slot", "orders") SELECT "status", 0, count(*) FROM "orders" GROUP BY "status";
