import { sql } from 'drizzle-orm';
import type { PriceTier } from '@partsyard/common';
import { bigint, check, index, integer, jsonb, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { parts } from '../db/schema';
import { companies } from './companiesSchema';

/*
 * Company prices (issue 35 point 3, docs/companies.md): a company's price list is a percentage off the list price
 * and/or fixed unit prices for some parts with their own quantity breaks. The one rule that prices a line with it
 * is common/src/pricing.ts's `buyerPrice`: the lower of the list price and the company's at that quantity.
 * `version` moves on every change of the list (its percentage or any of its parts' prices), so a price list read
 * and kept (companyPrices.ts) is known to be current by comparing one number.
 */

export const companyPriceLists = pgTable(
  'company_price_lists',
  {
    companyId: uuid('company_id')
      .primaryKey()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** Off the list price, in basis points (1,250 = 12.5 %); null: none. */
    percentOffBasisPoints: integer('percent_off_bp'),
    version: bigint('version', { mode: 'number' }).notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [check('company_price_lists_percent_check', sql`${t.percentOffBasisPoints} between 1 and 9000`)],
);

/** A part's fixed unit price for a company, with its own quantity breaks (validated as a part's are). */
export const companyPartPrices = pgTable(
  'company_part_prices',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companyPriceLists.companyId, { onDelete: 'cascade' }),
    partId: uuid('part_id')
      .notNull()
      .references(() => parts.id, { onDelete: 'cascade' }),
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    priceTiers: jsonb('price_tiers').$type<PriceTier[]>().notNull().default([]),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.partId] }),
    index('company_part_prices_part_idx').on(t.partId),
    check('company_part_prices_price_check', sql`${t.priceCents} >= 1`),
  ],
);

export type CompanyPriceListRow = typeof companyPriceLists.$inferSelect;
export type CompanyPartPriceRow = typeof companyPartPrices.$inferSelect;
