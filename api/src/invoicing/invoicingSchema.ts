import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { orders, users } from '../db/schema';
import { companies } from '../companies/companiesSchema';

/*
 * Pay on account (issue 35 point 4, docs/companies.md): a company a shop admin granted terms (net 15/30/60 days)
 * and a credit limit pays its unpaid checkouts with an invoice instead of a card. The terms live on the company
 * (`company_terms`, one row per company that has them); an invoice is numbered from the one-row
 * `invoice_counter`, updated in the transaction that issues it, so the numbers have no gaps: a rolled-back
 * issue rolls its number back.
 */

const cents = (name: string) => bigint(name, { mode: 'number' });

/** A company's terms: how many days it has to pay an invoice, and how much it may owe at once. */
export const companyTerms = pgTable(
  'company_terms',
  {
    companyId: uuid('company_id')
      .primaryKey()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** Net 15, 30 or 60 days. */
    termsDays: integer('terms_days').notNull(),
    /** What its open invoices may come to together, in cents. */
    creditLimitCents: cents('credit_limit_cents').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('company_terms_days_check', sql`${t.termsDays} in (15, 30, 60)`),
    check('company_terms_limit_check', sql`${t.creditLimitCents} between 0 and 100000000000`),
  ],
);

/** The next invoice number: one row, taken with `UPDATE ... SET next = next + 1 RETURNING` (gapless). */
export const invoiceCounter = pgTable(
  'invoice_counter',
  {
    id: integer('id').primaryKey().default(1),
    next: integer('next').notNull().default(1),
  },
  (t) => [check('invoice_counter_one_row_check', sql`${t.id} = 1`)],
);

/** An invoice: the orders of one checkout (or one order) a company member paid on account. */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** 1, 2, 3 ... with no gap (shown as INV-000001). */
    number: integer('number').notNull(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    /** The member who paid on account (null once their account is deleted). */
    buyerId: uuid('buyer_id').references(() => users.id, { onDelete: 'set null' }),
    /** The company's name and tax number, and the buyer's, as they were when it was issued. */
    companyName: text('company_name').notNull(),
    companyTaxId: text('company_tax_id').notNull(),
    buyerName: text('buyer_name').notNull(),
    buyerEmail: text('buyer_email').notNull(),
    address: text('address').notNull().default(''),
    /** The checkout it pays (or the single order's id). */
    payableKey: uuid('payable_key').notNull(),
    termsDays: integer('terms_days').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }).notNull(),
    totalCents: cents('total_cents').notNull(),
    paidCents: cents('paid_cents').notNull().default(0),
    /** When the payments recorded reached the total. */
    paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date' }),
    /** When the overdue reminder was queued (once per invoice). */
    remindedAt: timestamp('reminded_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('invoices_number_key').on(t.number),
    uniqueIndex('invoices_payable_key').on(t.payableKey),
    index('invoices_company_idx').on(t.companyId, sql`${t.number} desc`),
    index('invoices_buyer_idx').on(t.buyerId, sql`${t.number} desc`),
    // The open invoices (balance, overdue, the reminder sweep).
    index('invoices_open_idx')
      .on(t.dueAt)
      .where(sql`${t.paidAt} is null`),
    check('invoices_number_check', sql`${t.number} > 0`),
    check('invoices_total_check', sql`${t.totalCents} > 0`),
    check('invoices_paid_check', sql`${t.paidCents} between 0 and ${t.totalCents}`),
    check('invoices_paid_at_check', sql`(${t.paidAt} is not null) = (${t.paidCents} = ${t.totalCents})`),
    check('invoices_terms_check', sql`${t.termsDays} in (15, 30, 60)`),
  ],
);

/** A line of an invoice: one order it pays, as it was then (part, amount, unit price, the break applied). */
export const invoiceLines = pgTable(
  'invoice_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** The order (null once it is deleted; the line keeps what it said). */
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    partName: text('part_name').notNull(),
    sku: text('sku').notNull().default(''),
    orderAmount: integer('order_amount').notNull(),
    unitPriceCents: cents('unit_price_cents').notNull(),
    /** The part's list (base) unit price then, and the quantity break the unit price came from (null: none). */
    listUnitPriceCents: cents('list_unit_price_cents').notNull(),
    breakMinUnits: integer('break_min_units'),
    /** Priced by the company's price list, below the list price at that amount (issue 35 point 3). */
    companyPriced: boolean('company_priced').notNull().default(false),
    totalCents: cents('total_cents').notNull(),
  },
  (t) => [
    uniqueIndex('invoice_lines_position_key').on(t.invoiceId, t.position),
    index('invoice_lines_order_idx').on(t.orderId),
    check('invoice_lines_total_check', sql`${t.totalCents} = ${t.unitPriceCents} * ${t.orderAmount}`),
  ],
);

/** A payment an admin recorded against an invoice (a bank transfer, say): part payments add up. */
export const invoicePayments = pgTable(
  'invoice_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    amountCents: cents('amount_cents').notNull(),
    /** The day the money arrived, as the admin gives it. */
    receivedOn: text('received_on').notNull(),
    note: text('note').notNull().default(''),
    recordedBy: uuid('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('invoice_payments_invoice_idx').on(t.invoiceId, t.createdAt),
    check('invoice_payments_amount_check', sql`${t.amountCents} > 0`),
    check('invoice_payments_note_check', sql`length(${t.note}) <= 500`),
    check('invoice_payments_received_on_check', sql`${t.receivedOn} ~ '^\\d{4}-\\d{2}-\\d{2}$'`),
  ],
);

export type CompanyTermsRow = typeof companyTerms.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export type InvoiceLineRow = typeof invoiceLines.$inferSelect;
export type InvoicePaymentRow = typeof invoicePayments.$inferSelect;
