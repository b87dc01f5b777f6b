import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { parts, users } from '../db/schema';

/**
 * Saved lists (issue 34 point 3): a customer's named lists of parts with quantities ("Workshop consumables"), put
 * into the cart in one step. Private to their owner (users.id, the account the access token names); an account
 * deleted takes its lists with it.
 */
export const savedLists = pgTable(
  'saved_lists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // One list of a name per customer, whatever its case.
    uniqueIndex('saved_lists_user_name_key').on(t.userId, sql`lower(${t.name})`),
    check('saved_lists_name_check', sql`length(${t.name}) between 1 and 100`),
  ],
);

/**
 * A list's lines: a part and a quantity, each part once per list. A part deleted from the catalog leaves its line
 * (part_id null, its SKU and name as they were kept) so the list can say it is gone.
 */
export const savedListLines = pgTable(
  'saved_list_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    listId: uuid('list_id')
      .notNull()
      .references(() => savedLists.id, { onDelete: 'cascade' }),
    partId: uuid('part_id').references(() => parts.id, { onDelete: 'set null' }),
    /** The part's SKU and name when the line was written: what the list shows once the part is gone. */
    sku: text('sku').notNull(),
    partName: text('part_name').notNull(),
    quantity: integer('quantity').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('saved_list_lines_list_part_key').on(t.listId, t.partId),
    index('saved_list_lines_list_added_idx').on(t.listId, t.addedAt),
    // A part deleted from the catalog sets its lines' part_id null (the cascade finds them by this index).
    index('saved_list_lines_part_idx').on(t.partId),
    check('saved_list_lines_quantity_check', sql`${t.quantity} >= 1`),
  ],
);

export type SavedListRow = typeof savedLists.$inferSelect;
export type SavedListLineRow = typeof savedListLines.$inferSelect;
