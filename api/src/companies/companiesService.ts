import {
  centsToDollars,
  check,
  controlCharacters,
  emailRule,
  formatDollars,
  maxChargeCents,
  unpairedSurrogate,
} from '@partsyard/common';
import { and, asc, count, desc, eq, gt, ilike, or, sql } from 'drizzle-orm';
import * as yup from 'yup';
import { violatedConstraint, type Db, type Tx } from '../db/database';
import { escapeLike } from '../db/likePattern';
import { users } from '../db/schema';
import { badInput, conflict, forbidden, notFound } from '../errors';
import type { Actor } from '../services/actor';
import { companyInvitationEmail } from '../services/emails';
import { enqueueEmail } from '../services/outbox';
import { isId, page, pageSizes, pageWithTotal } from '../services/paging';
import { authorize, authorizeCompany, type SignedInOperation } from '../services/rights';
import {
  companies,
  companyAddresses,
  companyInvitations,
  companyMembers,
  type CompanyAddressRow,
  type CompanyInvitationRow,
  type CompanyRole,
  type CompanyRow,
} from './companiesSchema';

/**
 * Companies (issue 35 point 1; docs/companies.md): a customer creates one and becomes its company admin, invites
 * colleagues by email, and the company's admins manage its members, roles and delivery addresses. The rights are
 * rights.ts's (`companyAdmin`, `companyMember`: of the target company, or a shop admin); the membership they are
 * decided on is read from the database on each call, so a member removed loses access at once.
 */

export const companyLimits = {
  addresses: 20,
  pendingInvitations: 50,
  invitationDays: 14,
  /** The most open invitations to one address shown at once (the newest). */
  invitationsShown: 50,
} as const;

export const companyMessages = {
  nameRequired: 'Name the company',
  nameTooLong: 'A company name is at most 200 characters',
  taxIdRequired: 'Give the company’s tax number',
  taxIdInvalid: 'A tax number is 1 to 50 letters, digits, spaces, dots, dashes or slashes',
  labelRequired: 'Name the address (for example "Main workshop")',
  labelTooLong: 'An address name is at most 100 characters',
  labelTaken: 'The company has an address of this name already',
  addressRequired: 'Give the address',
  addressTooLong: 'An address is at most 2000 characters',
  tooManyAddresses: `A company keeps at most ${companyLimits.addresses} addresses: remove one first`,
  textControl: 'Control characters are not allowed',
  role: 'The role is company admin or buyer',
  alreadyInCompany: 'You are a member of a company already: leave it first',
  adminsCannotJoin: 'Shop admins do not buy for companies',
  notMember: 'You are not a member of this company',
  companyAdminsOnly: 'Only the company’s admins may do this',
  tooManyInvitations: `A company may have at most ${companyLimits.pendingInvitations} invitations waiting: withdraw some first`,
  invitedAlready: 'This address has an invitation waiting already',
  memberAlready: 'The account with this address is a member of the company already',
  invitationNotYours: 'This invitation is for another email address',
  verifyFirst:
    'Verify your email address first: an invitation is taken only by the account with that address, verified',
  invitationClosed: 'This invitation is no longer open',
  lastAdmin: 'A company needs a company admin: make another member company admin first',
  notInCompany: 'This account is not a member of the company',
  limitInvalid: `A limit per order is an amount in dollars and cents from $0.01 to ${formatDollars(centsToDollars(maxChargeCents))}; leave it empty for no limit`,
  limitOnlyBuyers: 'A company admin has no limit per order: only a buyer’s orders above their limit wait for approval',
} as const;

/** A limit per order given in dollars (a number, or its text): its cents, null for none; else BAD_USER_INPUT. */
export function orderLimitCentsOf(value: unknown): number | null {
  if (value === null || value === undefined || (typeof value === 'string' && !value.trim())) return null;
  const dollars = typeof value === 'string' && /^\s*\d{1,9}(\.\d{1,2})?\s*$/.test(value) ? Number(value) : value;
  const cents = typeof dollars === 'number' && Number.isFinite(dollars) ? Math.round(dollars * 100) : NaN;
  if (
    !Number.isSafeInteger(cents) ||
    Math.abs(cents - Number(dollars) * 100) > 1e-6 ||
    cents < 1 ||
    cents > maxChargeCents
  )
    throw badInput({ orderLimit: companyMessages.limitInvalid });
  return cents;
}

const roles = ['company_admin', 'buyer'] as const;
const invitationSchema = yup.object({ email: emailRule() });

function oneLineText(
  value: unknown,
  field: string,
  max: number,
  required: string,
  tooLong: string,
  multiline = false,
): string {
  const given = typeof value === 'string' ? value.trim() : '';
  if (!given) throw badInput({ [field]: required });
  if (given.length > max) throw badInput({ [field]: tooLong });
  if (controlCharacters.test(given) || unpairedSurrogate.test(given) || (!multiline && /[\r\n\t]/.test(given)))
    throw badInput({ [field]: companyMessages.textControl });
  return given;
}

const companyName = (value: unknown) =>
  oneLineText(value, 'name', 200, companyMessages.nameRequired, companyMessages.nameTooLong);

function taxId(value: unknown): string {
  const given = typeof value === 'string' ? value.trim() : '';
  if (!given) throw badInput({ taxId: companyMessages.taxIdRequired });
  if (given.length > 50 || !/^[\p{L}\p{N}][\p{L}\p{N} ./-]*$/u.test(given))
    throw badInput({ taxId: companyMessages.taxIdInvalid });
  return given;
}

function roleOf(value: unknown): CompanyRole {
  const given = typeof value === 'string' ? value.toLowerCase() : '';
  if (!(roles as readonly string[]).includes(given)) throw badInput({ role: companyMessages.role });
  return given as CompanyRole;
}

export interface CompanyMemberView {
  userId: string;
  name: string;
  email: string | null;
  role: CompanyRole;
  /** A buyer's limit per order in cents (issue 35 point 2); null: none (always for a company admin). */
  orderLimitCents: number | null;
  joinedAt: Date;
}

export interface CompanyView {
  company: CompanyRow;
  addresses: CompanyAddressRow[];
  /** The caller's role in it; null for a shop admin looking at it. */
  myRole: CompanyRole | null;
  /** Members and open invitations: for its company admins and shop admins; empty for a buyer. */
  members: CompanyMemberView[];
  invitations: CompanyInvitationRow[];
}

/** An invitation with its company's name. */
export type InvitationView = CompanyInvitationRow & { companyName: string };

/** A company in the shop admins' list. */
export interface CompanySummaryView {
  company: CompanyRow;
  memberCount: number;
}

export function createCompaniesService(deps: { db: Db }) {
  const { db } = deps;

  const membershipOf = async (tx: Db | Tx, userId: string) =>
    (await tx.select().from(companyMembers).where(eq(companyMembers.userId, userId)))[0] ?? null;

  /**
   * The caller, when `operation`'s right lets them act on company `companyId`: NOT_FOUND for no such company
   * (and for an id that is none), FORBIDDEN for a non-member or a buyer on a company admins' operation.
   */
  async function onCompany(operation: SignedInOperation, actor: Actor | null, companyId: unknown, tx: Db | Tx = db) {
    const caller = authorize(operation, actor);
    if (typeof companyId !== 'string' || !isId(companyId)) throw notFound('Company');
    const [company] = await tx.select().from(companies).where(eq(companies.id, companyId));
    if (!company) throw notFound('Company');
    const membership = await membershipOf(tx, caller.userId);
    authorizeCompany(operation, caller, membership?.companyId === company.id ? membership.role : null);
    return { caller, company, myRole: membership?.companyId === company.id ? membership.role : null };
  }

  /**
   * Runs `work` in a transaction holding the company's row: every change to its members, roles, addresses and
   * invitations goes one at a time, so counts (the last company admin, the address limit) are read right.
   */
  function withCompanyHeld<T>(
    operation: SignedInOperation,
    actor: Actor | null,
    companyId: unknown,
    work: (tx: Tx, held: { caller: Actor; company: CompanyRow }) => Promise<T>,
  ): Promise<T> {
    return db.transaction(async (tx) => {
      if (typeof companyId === 'string' && isId(companyId))
        await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
      const held = await onCompany(operation, actor, companyId, tx);
      const result = await work(tx, held);
      await tx
        .update(companies)
        .set({ updatedAt: sql`now()` })
        .where(eq(companies.id, held.company.id));
      return result;
    });
  }

  async function view(company: CompanyRow, myRole: CompanyRole | null, caller: Actor): Promise<CompanyView> {
    const addresses = await db
      .select()
      .from(companyAddresses)
      .where(eq(companyAddresses.companyId, company.id))
      .orderBy(asc(companyAddresses.createdAt), asc(companyAddresses.id));
    const manages = myRole === 'company_admin' || caller.role === 'admin';
    if (!manages) return { company, addresses, myRole, members: [], invitations: [] };
    const members = await db
      .select({
        userId: companyMembers.userId,
        name: users.name,
        email: users.email,
        role: companyMembers.role,
        orderLimitCents: companyMembers.orderLimitCents,
        joinedAt: companyMembers.joinedAt,
      })
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(eq(companyMembers.companyId, company.id))
      .orderBy(asc(companyMembers.joinedAt), asc(companyMembers.userId));
    const invitations = await db
      .select()
      .from(companyInvitations)
      .where(
        and(
          eq(companyInvitations.companyId, company.id),
          eq(companyInvitations.status, 'pending'),
          gt(companyInvitations.expiresAt, sql`now()`),
        ),
      )
      .orderBy(asc(companyInvitations.createdAt), asc(companyInvitations.id));
    return { company, addresses, myRole, members, invitations };
  }

  /** How many company admins the company has (inside a transaction holding its row). */
  const adminCount = async (tx: Tx, companyId: string) =>
    (
      await tx
        .select({ n: count() })
        .from(companyMembers)
        .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.role, 'company_admin')))
    )[0].n;

  /** The caller's account as the database holds it (email and whether Firebase said it was verified). */
  const accountOf = async (tx: Db | Tx, userId: string) =>
    (await tx.select().from(users).where(eq(users.id, userId)))[0];

  /** One company as `operation` lets the caller see it. */
  async function companyView(operation: SignedInOperation, actor: Actor | null, companyId: unknown) {
    const { caller, company, myRole } = await onCompany(operation, actor, companyId);
    return view(company, myRole, caller);
  }

  return {
    /** The caller's company, or null when they are in none. */
    async myCompany(actor: Actor | null): Promise<CompanyView | null> {
      const caller = authorize('companies.myCompany', actor);
      const membership = await membershipOf(db, caller.userId);
      if (!membership) return null;
      const [company] = await db.select().from(companies).where(eq(companies.id, membership.companyId));
      return company ? view(company, membership.role, caller) : null;
    },

    /** One company: its members see it (a buyer without the members), and shop admins. */
    company: (actor: Actor | null, companyId: unknown): Promise<CompanyView> =>
      companyView('companies.company', actor, companyId),

    /** Every company, for the shop's admins: by name, searched by name or tax number. */
    async listCompanies(
      actor: Actor | null,
      args: { search?: string | null; offset?: number | null; limit?: number | null },
    ) {
      authorize('companies.list', actor);
      const bounds = page(args.offset, args.limit, pageSizes.companies);
      const search = typeof args.search === 'string' ? args.search.trim().slice(0, 200) : '';
      const pattern = `%${escapeLike(search)}%`;
      const where = search ? or(ilike(companies.name, pattern), ilike(companies.taxId, pattern)) : undefined;
      return pageWithTotal(
        bounds,
        () =>
          db
            .select({
              company: companies,
              memberCount: sql<number>`(select count(*)::int from ${companyMembers} where ${companyMembers.companyId} = ${companies.id})`,
            })
            .from(companies)
            .where(where)
            .orderBy(sql`lower(${companies.name})`, asc(companies.id))
            .offset(bounds.offset)
            .limit(bounds.limit),
        async () => (await db.select({ total: count() }).from(companies).where(where))[0].total,
      );
    },

    /** A new company: the caller (a customer in no company) becomes its company admin. */
    async createCompany(actor: Actor | null, input: { name: unknown; taxId: unknown }): Promise<CompanyView> {
      const caller = authorize('companies.create', actor);
      if (caller.role === 'admin') throw forbidden(companyMessages.adminsCannotJoin);
      const name = companyName(input.name);
      const tax = taxId(input.taxId);
      const company = await db.transaction(async (tx) => {
        // The caller's own row, held: two creations at once by one account make one company.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, caller.userId)).for('update');
        if (await membershipOf(tx, caller.userId)) throw conflict(companyMessages.alreadyInCompany);
        const [created] = await tx.insert(companies).values({ name, taxId: tax }).returning();
        await tx.insert(companyMembers).values({ userId: caller.userId, companyId: created.id, role: 'company_admin' });
        return created;
      });
      return view(company, 'company_admin', caller);
    },

    /** Renames the company or changes its tax number (its company admins, or a shop admin). */
    async updateCompany(
      actor: Actor | null,
      companyId: unknown,
      input: { name?: unknown; taxId?: unknown },
    ): Promise<CompanyView> {
      const name = input.name === undefined || input.name === null ? undefined : companyName(input.name);
      const tax = input.taxId === undefined || input.taxId === null ? undefined : taxId(input.taxId);
      const { caller, company, myRole } = await withCompanyHeld(
        'companies.update',
        actor,
        companyId,
        async (tx, held) => {
          // Nothing given to change (a PATCH of {}): the company as it is.
          const changes = { ...(name ? { name } : {}), ...(tax ? { taxId: tax } : {}) };
          const [updated] = Object.keys(changes).length
            ? await tx
                .update(companies)
                .set({ ...changes, updatedAt: new Date() })
                .where(eq(companies.id, held.company.id))
                .returning()
            : [held.company];
          const membership = await membershipOf(tx, held.caller.userId);
          return {
            caller: held.caller,
            company: updated,
            myRole: membership?.companyId === updated.id ? membership.role : null,
          };
        },
      );
      return view(company, myRole, caller);
    },

    /** Adds a delivery address (at most 20, labels unique in the company whatever their case). */
    async addCompanyAddress(
      actor: Actor | null,
      companyId: unknown,
      input: { label: unknown; address: unknown },
    ): Promise<CompanyView> {
      const label = oneLineText(input.label, 'label', 100, companyMessages.labelRequired, companyMessages.labelTooLong);
      const address = oneLineText(
        input.address,
        'address',
        2000,
        companyMessages.addressRequired,
        companyMessages.addressTooLong,
        true,
      );
      const held = await withCompanyHeld('companies.addAddress', actor, companyId, async (tx, held) => {
        const [{ n }] = await tx
          .select({ n: count() })
          .from(companyAddresses)
          .where(eq(companyAddresses.companyId, held.company.id));
        if (n >= companyLimits.addresses) throw badInput({ address: companyMessages.tooManyAddresses });
        try {
          await tx.transaction(async (inner) => {
            await inner.insert(companyAddresses).values({ companyId: held.company.id, label, address });
          });
        } catch (error) {
          if (violatedConstraint(error) === 'company_addresses_label_key')
            throw badInput({ label: companyMessages.labelTaken });
          throw error;
        }
        return held;
      });
      return companyView('companies.company', held.caller, held.company.id);
    },

    /** Removes a delivery address of the company. */
    async removeCompanyAddress(actor: Actor | null, companyId: unknown, addressId: unknown): Promise<CompanyView> {
      const held = await withCompanyHeld('companies.removeAddress', actor, companyId, async (tx, held) => {
        if (typeof addressId !== 'string' || !isId(addressId)) throw notFound('Address');
        const removed = await tx
          .delete(companyAddresses)
          .where(and(eq(companyAddresses.id, addressId), eq(companyAddresses.companyId, held.company.id)))
          .returning({ id: companyAddresses.id });
        if (!removed.length) throw notFound('Address');
        return held;
      });
      return companyView('companies.company', held.caller, held.company.id);
    },

    /**
     * Invites an email address to join with a role, and emails it. The address is only the invitation's
     * addressee: the account that signs in with it, verified, takes it (acceptInvitation).
     */
    async inviteToCompany(
      actor: Actor | null,
      companyId: unknown,
      input: { email: unknown; role: unknown },
    ): Promise<InvitationView> {
      const checked = check(invitationSchema, { email: input.email });
      if (!checked.ok) throw badInput(checked.errors);
      const email = checked.value.email.toLowerCase();
      const role = roleOf(input.role);
      return withCompanyHeld('companies.invite', actor, companyId, async (tx, { caller, company }) => {
        const [{ n }] = await tx
          .select({ n: count() })
          .from(companyInvitations)
          .where(
            and(
              eq(companyInvitations.companyId, company.id),
              eq(companyInvitations.status, 'pending'),
              gt(companyInvitations.expiresAt, sql`now()`),
            ),
          );
        if (n >= companyLimits.pendingInvitations) throw badInput({ email: companyMessages.tooManyInvitations });
        const [member] = await tx
          .select({ userId: companyMembers.userId })
          .from(companyMembers)
          .innerJoin(users, eq(users.id, companyMembers.userId))
          .where(and(eq(companyMembers.companyId, company.id), eq(users.email, email)));
        if (member) throw badInput({ email: companyMessages.memberAlready });
        // An expired invitation to the address gives way to the new one.
        await tx
          .update(companyInvitations)
          .set({ status: 'withdrawn', answeredAt: sql`now()` })
          .where(
            and(
              eq(companyInvitations.companyId, company.id),
              eq(companyInvitations.email, email),
              eq(companyInvitations.status, 'pending'),
              sql`${companyInvitations.expiresAt} <= now()`,
            ),
          );
        let invitation: CompanyInvitationRow;
        try {
          [invitation] = await tx.transaction(async (inner) =>
            inner
              .insert(companyInvitations)
              .values({
                companyId: company.id,
                email,
                role,
                invitedBy: caller.userId,
                expiresAt: sql`now() + make_interval(days => ${companyLimits.invitationDays})`,
              })
              .returning(),
          );
        } catch (error) {
          if (violatedConstraint(error) === 'company_invitations_pending_key')
            throw badInput({ email: companyMessages.invitedAlready });
          throw error;
        }
        const inviter = await accountOf(tx, caller.userId);
        await enqueueEmail(
          tx,
          companyInvitationEmail({
            id: invitation.id,
            email,
            companyName: company.name,
            role,
            invitedByName: inviter?.name ?? '',
            expiresAt: invitation.expiresAt,
          }),
        );
        return { ...invitation, companyName: company.name };
      });
    },

    /** Withdraws an open invitation of the company. */
    async withdrawInvitation(actor: Actor | null, invitationId: unknown): Promise<InvitationView> {
      if (typeof invitationId !== 'string' || !isId(invitationId)) throw notFound('Invitation');
      const [found] = await db.select().from(companyInvitations).where(eq(companyInvitations.id, invitationId));
      if (!found) throw notFound('Invitation');
      return withCompanyHeld('companies.withdrawInvitation', actor, found.companyId, async (tx, { company }) => {
        const [withdrawn] = await tx
          .update(companyInvitations)
          .set({ status: 'withdrawn', answeredAt: sql`now()` })
          .where(and(eq(companyInvitations.id, invitationId), eq(companyInvitations.status, 'pending')))
          .returning();
        if (!withdrawn) throw conflict(companyMessages.invitationClosed);
        return { ...withdrawn, companyName: company.name };
      });
    },

    /**
     * The open invitations to the caller's address: only when Firebase said it was verified at the last sign-in
     * (an unverified account with the same address sees none).
     */
    async myInvitations(actor: Actor | null): Promise<InvitationView[]> {
      const caller = authorize('companies.myInvitations', actor);
      // One statement: the caller's address, when verified, joined to the open invitations to it (the newest
      // first, at most `companyLimits.invitationsShown`).
      const rows = await db
        .select({ invitation: companyInvitations, companyName: companies.name })
        .from(companyInvitations)
        .innerJoin(companies, eq(companies.id, companyInvitations.companyId))
        .innerJoin(users, and(eq(users.email, companyInvitations.email), eq(users.emailVerified, true)))
        .where(
          and(
            eq(users.id, caller.userId),
            eq(companyInvitations.status, 'pending'),
            gt(companyInvitations.expiresAt, sql`now()`),
          ),
        )
        .orderBy(desc(companyInvitations.createdAt), asc(companyInvitations.id))
        .limit(companyLimits.invitationsShown);
      return rows.map(({ invitation, companyName }) => ({ ...invitation, companyName }));
    },

    /**
     * Takes an invitation: only the account whose address is the invitation's, verified, and in no company; once
     * (the invitation's and the company's rows are held). The caller joins with the invitation's role.
     */
    async acceptInvitation(actor: Actor | null, invitationId: unknown): Promise<CompanyView> {
      const caller = authorize('companies.acceptInvitation', actor);
      if (caller.role === 'admin') throw forbidden(companyMessages.adminsCannotJoin);
      if (typeof invitationId !== 'string' || !isId(invitationId)) throw notFound('Invitation');
      const joined = await db.transaction(async (tx) => {
        const [found] = await tx.select().from(companyInvitations).where(eq(companyInvitations.id, invitationId));
        if (!found) throw notFound('Invitation');
        await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, found.companyId)).for('update');
        await tx.select({ id: users.id }).from(users).where(eq(users.id, caller.userId)).for('update');
        const [invitation] = await tx
          .select({ row: companyInvitations, open: sql<boolean>`${companyInvitations.expiresAt} > now()` })
          .from(companyInvitations)
          .where(eq(companyInvitations.id, invitationId));
        const account = await accountOf(tx, caller.userId);
        if (!account?.email || account.email !== invitation.row.email)
          throw forbidden(companyMessages.invitationNotYours);
        if (!account.emailVerified) throw forbidden(companyMessages.verifyFirst);
        if (invitation.row.status !== 'pending' || !invitation.open) throw conflict(companyMessages.invitationClosed);
        if (await membershipOf(tx, caller.userId)) throw conflict(companyMessages.alreadyInCompany);
        await tx
          .insert(companyMembers)
          .values({ userId: caller.userId, companyId: invitation.row.companyId, role: invitation.row.role });
        await tx
          .update(companyInvitations)
          .set({ status: 'accepted', answeredBy: caller.userId, answeredAt: sql`now()` })
          .where(eq(companyInvitations.id, invitationId));
        const [company] = await tx.select().from(companies).where(eq(companies.id, invitation.row.companyId));
        return { company, role: invitation.row.role };
      });
      return view(joined.company, joined.role, caller);
    },

    /** Declines an invitation to the caller's verified address. */
    async declineInvitation(actor: Actor | null, invitationId: unknown): Promise<InvitationView> {
      const caller = authorize('companies.declineInvitation', actor);
      if (typeof invitationId !== 'string' || !isId(invitationId)) throw notFound('Invitation');
      return db.transaction(async (tx) => {
        const [found] = await tx
          .select()
          .from(companyInvitations)
          .where(eq(companyInvitations.id, invitationId))
          .for('update');
        if (!found) throw notFound('Invitation');
        const account = await accountOf(tx, caller.userId);
        if (!account?.email || account.email !== found.email) throw forbidden(companyMessages.invitationNotYours);
        if (!account.emailVerified) throw forbidden(companyMessages.verifyFirst);
        if (found.status !== 'pending') throw conflict(companyMessages.invitationClosed);
        const [declined] = await tx
          .update(companyInvitations)
          .set({ status: 'declined', answeredBy: caller.userId, answeredAt: sql`now()` })
          .where(eq(companyInvitations.id, invitationId))
          .returning();
        const [company] = await tx.select().from(companies).where(eq(companies.id, declined.companyId));
        return { ...declined, companyName: company.name };
      });
    },

    /** Makes a member company admin or buyer; the last company admin stays one. */
    async setMemberRole(actor: Actor | null, companyId: unknown, userId: unknown, role: unknown): Promise<CompanyView> {
      const newRole = roleOf(role);
      const held = await withCompanyHeld('companies.setMemberRole', actor, companyId, async (tx, held) => {
        const member = typeof userId === 'string' && isId(userId) ? await membershipOf(tx, userId) : null;
        if (!member || member.companyId !== held.company.id) throw notFound('Member');
        if (
          member.role === 'company_admin' &&
          newRole !== 'company_admin' &&
          (await adminCount(tx, held.company.id)) <= 1
        )
          throw conflict(companyMessages.lastAdmin);
        await tx.update(companyMembers).set({ role: newRole }).where(eq(companyMembers.userId, member.userId));
        return held;
      });
      return companyView('companies.company', held.caller, held.company.id);
    },

    /**
     * Sets a buyer's limit per order in dollars (null or empty: no limit). A checkout of theirs above it waits for a
     * company admin's approval (companyApprovals.ts); a company admin has none.
     */
    async setBuyerLimit(
      actor: Actor | null,
      companyId: unknown,
      userId: unknown,
      orderLimit: unknown,
    ): Promise<CompanyView> {
      const held = await withCompanyHeld('companies.setBuyerLimit', actor, companyId, async (tx, held) => {
        const cents = orderLimitCentsOf(orderLimit);
        const member = typeof userId === 'string' && isId(userId) ? await membershipOf(tx, userId) : null;
        if (!member || member.companyId !== held.company.id) throw notFound('Member');
        if (member.role !== 'buyer') throw badInput({ orderLimit: companyMessages.limitOnlyBuyers });
        await tx.update(companyMembers).set({ orderLimitCents: cents }).where(eq(companyMembers.userId, member.userId));
        return held;
      });
      return companyView('companies.company', held.caller, held.company.id);
    },

    /** Takes a member out of the company: their access ends with this call. The last company admin stays. */
    async removeMember(actor: Actor | null, companyId: unknown, userId: unknown): Promise<CompanyView> {
      const held = await withCompanyHeld('companies.removeMember', actor, companyId, async (tx, held) => {
        const member = typeof userId === 'string' && isId(userId) ? await membershipOf(tx, userId) : null;
        if (!member || member.companyId !== held.company.id) throw notFound('Member');
        if (member.role === 'company_admin' && (await adminCount(tx, held.company.id)) <= 1)
          throw conflict(companyMessages.lastAdmin);
        await tx.delete(companyMembers).where(eq(companyMembers.userId, member.userId));
        return held;
      });
      return companyView('companies.company', held.caller, held.company.id);
    },

    /** The caller leaves their company (the last company admin cannot). Answers the company's id. */
    async leaveCompany(actor: Actor | null): Promise<string> {
      const caller = authorize('companies.leave', actor);
      const membership = await membershipOf(db, caller.userId);
      if (!membership) throw notFound('Company membership');
      return db.transaction(async (tx) => {
        await tx
          .select({ id: companies.id })
          .from(companies)
          .where(eq(companies.id, membership.companyId))
          .for('update');
        const now = await membershipOf(tx, caller.userId);
        if (!now) throw notFound('Company membership');
        if (now.role === 'company_admin' && (await adminCount(tx, now.companyId)) <= 1)
          throw conflict(companyMessages.lastAdmin);
        await tx.delete(companyMembers).where(eq(companyMembers.userId, caller.userId));
        return now.companyId;
      });
    },
  };
}

export type CompaniesService = ReturnType<typeof createCompaniesService>;
