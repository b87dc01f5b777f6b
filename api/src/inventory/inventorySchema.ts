import { stockReasons } from '@partsyard/common';
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { parts, users } from '../db/schema';

/**
 * The stock history (issue 33 point 5): every adjustment an admin makes to a part's stock, with who, when, why,
 * and the stock before and after it (docs/catalog.md, "Editing parts and stock"). Orders take and give back stock
 * without a row here: an order is its own record (orders.part_id, order_amount, created_at), so the difference
 * between one adjustment's `after` and the next one's `before` is what orders took and gave back in between.
 */
export const stockMovements = pgTable(
  'stock_movements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    partId: uuid('part_id')
      .notNull()
      .references(() => parts.id, { onDelete: 'cascade' }),
    reason: text('reason', { enum: stockReasons }).notNull(),
    /** after - before: what the adjustment added (above 0) or took off (below 0). */
    delta: integer('delta').notNull(),
    before: integer('before').notNull(),
    after: integer('after').notNull(),
    note: text('note').notNull().default(''),
    /** The admin who made it; null once their account is deleted (the row stays, without them). */
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // A part's history, newest first (stockHistory's page).
    index('stock_movements_part_created_idx').on(t.partId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('stock_movements_actor_idx').on(t.actorId),
    check('stock_movements_reason_check', sql`${t.reason} in ('received', 'counted', 'damaged', 'returned', 'other')`),
    check(
      'stock_movements_counts_check',
      sql`${t.before} >= 0 and ${t.after} >= 0 and ${t.after} = ${t.before} + ${t.delta}`,
    ),
  ],
);

export type StockMovementRow = typeof stockMovements.$inferSelect;
