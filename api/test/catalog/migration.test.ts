import { sql } from 'drizzle-orm';
import { migrationsBefore, upgrade } from '../support/migrationsBefore';

/** Migration 0017 (issue 33) on a shop that already sells parts: each part gets its own SKU, in the order added. */
describe('migration 0017 on a database with parts', () => {
  const before = migrationsBefore('0017_catalog_part_numbers_fitment');

  it('gives every existing part a unique PY- SKU, and a part added after it the next one', async () => {
    await upgrade(
      before,
      async (db) => {
        for (let i = 1; i <= 3; i++) {
          await db.execute(sql`insert into parts (name, description, price_cents, min_order, available, created_at)
            values (${`Part ${i}`}, 'd', 100, 1, 5, now() - make_interval(days => ${10 - i}))`);
        }
      },
      async (db) => {
        const { rows } = await db.execute<{ name: string; sku: string }>(
          sql`select name, sku from parts order by created_at`,
        );
        expect(rows).toEqual([
          { name: 'Part 1', sku: 'PY-000001' },
          { name: 'Part 2', sku: 'PY-000002' },
          { name: 'Part 3', sku: 'PY-000003' },
        ]);
        const added = await db.execute<{ sku: string }>(
          sql`insert into parts (name, description, price_cents, min_order, available)
            values ('New', 'd', 100, 1, 5) returning sku`,
        );
        expect(added.rows[0].sku).toBe('PY-000004');
        // Unique once normalised: "py 000004" is the same SKU.
        await expect(
          db.execute(sql`insert into parts (name, description, price_cents, min_order, available, sku)
            values ('Copy', 'd', 100, 1, 5, 'py 000004')`),
        ).rejects.toThrow();
      },
    );
  });
});
