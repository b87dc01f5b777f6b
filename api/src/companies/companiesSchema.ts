import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../db/schema';

/*
 * Companies (issue 35 point 1, docs/companies.md): a workshop or a dealer that buys through several accounts.
 * An account belongs to at most one company (as Adobe Commerce B2B has it): its role there decides what it sees.
 * Membership is read from these tables on every request, so a member removed loses access at once on every
 * replica; every change to a company's members or roles locks the company's row first, so that two changes at
 * once cannot leave it without a company admin.
 */

export const companies = pgTable(
  'companies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** The tax (VAT/BIN) number invoices carry, as the company writes it. */
    taxId: text('tax_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('companies_name_check', sql`length(${t.name}) between 1 and 200`),
    check('companies_tax_id_check', sql`length(${t.taxId}) between 1 and 50`),
    index('companies_name_idx').on(sql`lower(${t.name})`),
  ],
);

/** A company's member: one row per account (an account is in one company at most). */
export const companyMembers = pgTable(
  'company_members',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['company_admin', 'buyer'] }).notNull(),
    /**
     * A buyer's limit per order (a checkout's total), in cents (issue 35 point 2): a checkout above it waits for a
     * company admin's approval. Null: no limit. Read only for buyers: a company admin is never limited.
     */
    orderLimitCents: bigint('order_limit_cents', { mode: 'number' }),
    joinedAt: timestamp('joined_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('company_members_company_idx').on(t.companyId, t.role),
    check('company_members_role_check', sql`${t.role} in ('company_admin', 'buyer')`),
    check('company_members_order_limit_check', sql`${t.orderLimitCents} > 0`),
  ],
);

/** Where a company's orders go: several addresses, each with a label ("Main workshop"). */
export const companyAddresses = pgTable(
  'company_addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    address: text('address').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('company_addresses_label_key').on(t.companyId, sql`lower(${t.label})`),
    check('company_addresses_label_check', sql`length(${t.label}) between 1 and 100`),
    check('company_addresses_address_check', sql`length(${t.address}) between 1 and 2000`),
  ],
);

/**
 * An invitation to join a company with a role, addressed to an email. Only the account that signs in with that
 * address, verified by Firebase, can take it (the address is the invitation's addressee, never a key by itself):
 * accepted once, or withdrawn by a company admin, or past its expiry.
 */
export const companyInvitations = pgTable(
  'company_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** Lower-case, as accounts' emails are kept. */
    email: text('email').notNull(),
    role: text('role', { enum: ['company_admin', 'buyer'] }).notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    status: text('status', { enum: ['pending', 'accepted', 'declined', 'withdrawn'] })
      .notNull()
      .default('pending'),
    /** The account that accepted or declined it. */
    answeredBy: uuid('answered_by').references(() => users.id, { onDelete: 'set null' }),
    answeredAt: timestamp('answered_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    // One pending invitation per company and address.
    uniqueIndex('company_invitations_pending_key')
      .on(t.companyId, t.email)
      .where(sql`${t.status} = 'pending'`),
    index('company_invitations_email_idx')
      .on(t.email)
      .where(sql`${t.status} = 'pending'`),
    check('company_invitations_role_check', sql`${t.role} in ('company_admin', 'buyer')`),
    check('company_invitations_status_check', sql`${t.status} in ('pending', 'accepted', 'declined', 'withdrawn')`),
    check('company_invitations_email_check', sql`length(${t.email}) between 3 and 200`),
  ],
);

export type CompanyRow = typeof companies.$inferSelect;
export type CompanyMemberRow = typeof companyMembers.$inferSelect;
export type CompanyAddressRow = typeof companyAddresses.$inferSelect;
export type CompanyInvitationRow = typeof companyInvitations.$inferSelect;
export type CompanyRole = CompanyMemberRow['role'];
