import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, primaryKey, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { vehicles } from '../catalog/catalogSchema';
import { users } from '../db/schema';

/**
 * My garage (issue 33 point 3): a signed-in customer's bikes, each once, at most `maxGarageBikes`
 * (garageService.ts), with at most one of them current (the one the catalog filters by). A visitor's garage lives
 * in the browser and is merged in at sign-in (`garage_merges`). Keyed by the account (users.id, which the access
 * token names together with the Firebase uid), never by email.
 */
export const garageVehicles = pgTable(
  'garage_vehicles',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    vehicleId: uuid('vehicle_id')
      .notNull()
      .references(() => vehicles.id, { onDelete: 'cascade' }),
    /** The bike the shopper is buying for now; one per garage at most (the partial unique index). */
    current: boolean('current').notNull().default(false),
    addedAt: timestamp('added_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'garage_vehicles_pkey', columns: [t.userId, t.vehicleId] }),
    uniqueIndex('garage_vehicles_one_current_key')
      .on(t.userId)
      .where(sql`${t.current}`),
    // A vehicle deleted from the catalog leaves every garage (the cascade finds its rows by this index).
    index('garage_vehicles_vehicle_idx').on(t.vehicleId),
  ],
);

/**
 * Visitor garages merged at sign-in, by the id the browser chose when it started the merge (as `cart_merges`): a
 * merge sent again (a reload while its answer was on its way) is answered with the first one's notes and changes
 * nothing twice (a bike removed since stays removed). Kept 30 days (pruned by the user's next merge).
 */
export const garageMerges = pgTable(
  'garage_merges',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mergeId: uuid('merge_id').notNull(),
    /** What the merge told the customer (GarageMergeNote): a repeat answers the same. */
    notes: jsonb('notes').$type<{ vehicleId: string; message: string }[]>().notNull(),
    mergedAt: timestamp('merged_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'garage_merges_pkey', columns: [t.userId, t.mergeId] })],
);

export type GarageVehicleRow = typeof garageVehicles.$inferSelect;
