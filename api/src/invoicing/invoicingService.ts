import { centsToDollars, controlCharacters, dollarsToCents, formatDollars, tierFor } from '@partsyard/common';
import { and, asc, desc, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/database';
import { gatewayIntents, orders, parts, users, type OrderRow } from '../db/schema';
import { badInput, conflict, forbidden, notFound } from '../errors';
import { companies, companyMembers, type CompanyRow } from '../companies/companiesSchema';
import { holdAccount } from '../services/accountLock';
import type { Actor } from '../services/actor';
import { invoiceEmail, invoiceOverdueEmail } from '../services/emails';
import { enqueueEmail } from '../services/outbox';
import { alreadyPaidMessage, notPayableMessage, orderExpiredMessage } from '../services/ordersService';
import { isId, page, pageSizes, pageWithTotal, type Page } from '../services/paging';
import { maxCartLines } from '../services/cartService';
import { authorize, authorizeCompany, authorizeTarget, type SignedInOperation } from '../services/rights';
import { invoiceNumber, renderInvoicePdf, type Seller } from './invoicePdf';
import {
  companyTerms,
  invoiceCounter,
  invoiceLines,
  invoicePayments,
  invoices,
  type CompanyTermsRow,
  type InvoiceLineRow,
  type InvoicePaymentRow,
  type InvoiceRow,
} from './invoicingSchema';

/**
 * Pay on account (issue 35 point 4; docs/companies.md): a shop admin grants a company terms (net 15, 30 or 60
 * days) and a credit limit; its members then pay their unpaid checkouts with an invoice instead of a card, while
 * what the company owes stays within the limit and none of its invoices is overdue. Admins record the payments
 * that arrive against the invoices (part payments add up). The rules live here once; GraphQL and REST adapt.
 */

export const termsDaysAllowed = [15, 30, 60] as const;
/** The largest credit limit a shop admin may grant, in whole dollars. */
export const maxCreditLimitDollars = 1_000_000_000;

const dollars = (cents: number) => formatDollars(centsToDollars(cents));

export const invoicingMessages = {
  notMember:
    'Pay on account is for members of a company the shop has granted terms: pay by card, or join your company first',
  noTerms: 'Your company has no terms for paying on account: pay by card, or ask the shop to grant your company terms',
  overdue: (count: number) =>
    `Your company has ${count === 1 ? 'an overdue invoice' : `${count} overdue invoices`}: no more orders on account until ${count === 1 ? 'it is' : 'they are'} paid. Pay by card, or ask your company admin to settle ${count === 1 ? 'it' : 'them'} first`,
  overLimit: (owedCents: number, limitCents: number, totalCents: number) =>
    `This checkout of ${dollars(totalCents)} would take your company past its credit limit of ${dollars(limitCents)} (it owes ${dollars(owedCents)} on open invoices, so ${dollars(Math.max(0, limitCents - owedCents))} is left): pay by card, or ask your company admin to settle invoices first`,
  notYours: 'You can only pay for your own orders',
  termsDays: 'Terms are net 15, 30 or 60 days',
  creditLimit: `A credit limit is whole dollars and cents from $0 to ${dollars(maxCreditLimitDollars * 100)}`,
  amountRequired: 'Give the amount received, more than $0.00',
  amountTooMuch: (outstandingCents: number) =>
    `At most ${dollars(outstandingCents)} is outstanding on this invoice: record that or less`,
  paidInFull: 'This invoice is paid in full already',
  receivedOn: 'Give the day the money arrived as YYYY-MM-DD, not in the future',
  noteTooLong: 'A note is at most 500 characters',
  status: 'The status is open, overdue or paid',
  buyersOwnInvoices: 'Buyers see their own invoices: ask a company admin for the others',
  lastPayment: (outstandingCents: number) =>
    `This invoice has ${invoiceLimits.payments - 1} payments recorded: record the ${dollars(outstandingCents)} outstanding as its last`,
  nothingToPay: 'This order costs $0.00, so there is nothing to pay: cancel it',
} as const;

export type InvoiceStatus = 'open' | 'overdue' | 'paid';
const statuses: readonly InvoiceStatus[] = ['open', 'overdue', 'paid'];

/** What a company owes and may still buy on account. */
export interface CompanyAccountView {
  companyId: string;
  termsDays: number;
  creditLimitCents: number;
  /** Outstanding on its open invoices (overdue ones included). */
  owedCents: number;
  /** What it may still pay on account (0 while an invoice is overdue). */
  availableCents: number;
  overdueInvoices: number;
}

export interface InvoiceView {
  invoice: InvoiceRow;
  status: InvoiceStatus;
  /** Its lines and payments, when read with it (one invoice); a list's items leave them to `linesOf`/`paymentsOf`. */
  lines?: InvoiceLineRow[];
  payments?: InvoicePaymentRow[];
}

export const invoiceLimits = {
  /** Payments recorded against one invoice at most (part payments). */
  payments: 50,
} as const;

/** The status of an invoice at the database's `now`. */
const statusSql = sql<InvoiceStatus>`case when ${invoices.paidAt} is not null then 'paid' when ${invoices.dueAt} < now() then 'overdue' else 'open' end`;
const statusWhere = (status: InvoiceStatus): SQL =>
  status === 'paid'
    ? sql`${invoices.paidAt} is not null`
    : status === 'overdue'
      ? sql`${invoices.paidAt} is null and ${invoices.dueAt} < now()`
      : sql`${invoices.paidAt} is null and ${invoices.dueAt} >= now()`;

function statusOf(value: unknown): InvoiceStatus | null {
  if (value === undefined || value === null || value === '') return null;
  const given = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!(statuses as readonly string[]).includes(given)) throw badInput({ status: invoicingMessages.status });
  return given as InvoiceStatus;
}

/** A money amount in dollars (a number or a numeric string, at most cents) as cents; null when it is none. */
function centsOf(value: unknown, max: number): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
  if (!Number.isFinite(n) || n < 0 || n > max) return null;
  const cents = dollarsToCents(n);
  return Math.abs(cents - n * 100) < 1e-6 ? cents : null;
}

function receivedOnOf(value: unknown): string {
  if (value === undefined || value === null || value === '') return new Date().toISOString().slice(0, 10);
  const given = typeof value === 'string' ? value.trim() : '';
  const at = /^\d{4}-\d{2}-\d{2}$/.test(given) ? new Date(`${given}T00:00:00Z`) : null;
  if (!at || Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== given || at.getTime() > Date.now())
    throw badInput({ receivedOn: invoicingMessages.receivedOn });
  return given;
}

export function createInvoicingService(deps: { db: Db; seller: Seller }) {
  const { db, seller } = deps;

  const membershipOf = async (tx: Db | Tx, userId: string) =>
    (await tx.select().from(companyMembers).where(eq(companyMembers.userId, userId)).limit(1))[0] ?? null;

  /** The caller and the company, when `operation` lets them act on it (NOT_FOUND, FORBIDDEN otherwise). */
  async function onCompany(operation: SignedInOperation, actor: Actor | null, companyId: unknown, tx: Db | Tx = db) {
    const caller = authorize(operation, actor);
    if (typeof companyId !== 'string' || !isId(companyId)) throw notFound('Company');
    const [company] = await tx.select().from(companies).where(eq(companies.id, companyId));
    if (!company) throw notFound('Company');
    const membership = await membershipOf(tx, caller.userId);
    const role = membership?.companyId === company.id ? membership.role : null;
    authorizeCompany(operation, caller, role);
    return { caller, company, role };
  }

  /** What the company owes on its open invoices, and how many of them are overdue (the database's clock). */
  async function balanceOf(tx: Db | Tx, companyId: string) {
    const [row] = await tx
      .select({
        owedCents: sql<number>`coalesce(sum(${invoices.totalCents} - ${invoices.paidCents}), 0)::bigint`.mapWith(
          Number,
        ),
        overdue: sql<number>`count(*) filter (where ${invoices.dueAt} < now())::int`.mapWith(Number),
      })
      .from(invoices)
      .where(and(eq(invoices.companyId, companyId), isNull(invoices.paidAt)));
    return row;
  }

  async function accountOf(
    tx: Db | Tx,
    companyId: string,
    terms?: CompanyTermsRow,
  ): Promise<CompanyAccountView | null> {
    const held = terms ?? (await tx.select().from(companyTerms).where(eq(companyTerms.companyId, companyId)))[0];
    if (!held) return null;
    const { owedCents, overdue } = await balanceOf(tx, companyId);
    return {
      companyId,
      termsDays: held.termsDays,
      creditLimitCents: held.creditLimitCents,
      owedCents,
      availableCents: overdue ? 0 : Math.max(0, held.creditLimitCents - owedCents),
      overdueInvoices: overdue,
    };
  }

  /** An invoice the caller may see: the company's admins all of it, a buyer their own, shop admins every one. */
  async function invoiceFor(actor: Actor | null, id: unknown): Promise<InvoiceRow> {
    const caller = authorize('invoicing.invoice', actor);
    if (typeof id !== 'string' || !isId(id)) throw notFound('Invoice');
    const [invoice] = await db.select().from(invoices).where(eq(invoices.id, id));
    if (!invoice) throw notFound('Invoice');
    const membership = await membershipOf(db, caller.userId);
    const role = membership?.companyId === invoice.companyId ? membership.role : null;
    authorizeCompany('invoicing.invoice', caller, role);
    if (role === 'buyer' && invoice.buyerId !== caller.userId) throw forbidden(invoicingMessages.buyersOwnInvoices);
    return invoice;
  }

  /** An invoice's lines (at most a checkout's), in order. */
  const linesOf = (invoiceId: string) =>
    db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, invoiceId))
      .orderBy(asc(invoiceLines.position))
      .limit(maxCartLines);
  /** The payments recorded against an invoice, first first. */
  const paymentsOf = (invoiceId: string) =>
    db
      .select()
      .from(invoicePayments)
      .where(eq(invoicePayments.invoiceId, invoiceId))
      .orderBy(asc(invoicePayments.createdAt), asc(invoicePayments.id))
      .limit(invoiceLimits.payments);

  async function viewOf(invoice: InvoiceRow): Promise<InvoiceView> {
    const [lines, payments, [now]] = await Promise.all([
      linesOf(invoice.id),
      paymentsOf(invoice.id),
      db.select({ status: statusSql }).from(invoices).where(eq(invoices.id, invoice.id)),
    ]);
    return { invoice, status: now?.status ?? 'open', lines, payments };
  }

  async function listOf(where: SQL | undefined, bounds: Page) {
    const listed = await pageWithTotal(
      bounds,
      () =>
        db
          .select({ invoice: invoices, status: statusSql })
          .from(invoices)
          .where(where)
          .orderBy(desc(invoices.number))
          .offset(bounds.offset)
          .limit(bounds.limit),
      async () =>
        (
          await db
            .select({ n: sql<number>`count(*)::int` })
            .from(invoices)
            .where(where)
        )[0].n,
    );
    return {
      total: listed.total,
      items: listed.items.map(({ invoice, status }): InvoiceView => ({ invoice, status })),
    };
  }

  /** The email of an issued invoice (its PDF attached) to the buyer and the company's admins. */
  async function mailInvoice(tx: Tx, invoice: InvoiceRow, lines: InvoiceLineRow[]) {
    const pdf = renderInvoicePdf(invoice, lines, seller);
    for (const to of await recipientsOf(tx, invoice)) {
      await enqueueEmail(tx, invoiceEmail({ invoice, to, seller, pdf }));
    }
  }

  /** The buyer and the company's admins (at most 10), each once. */
  async function recipientsOf(tx: Db | Tx, invoice: InvoiceRow): Promise<string[]> {
    const admins = await tx
      .select({ email: users.email })
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(and(eq(companyMembers.companyId, invoice.companyId), eq(companyMembers.role, 'company_admin')))
      .orderBy(asc(companyMembers.joinedAt))
      .limit(10);
    return [...new Set([invoice.buyerEmail, ...admins.map((a) => a.email ?? '')].filter(Boolean))];
  }

  return {
    linesOf,
    paymentsOf,

    /** The company's terms and what it owes (its members and shop admins); null when it has no terms. */
    async companyAccount(actor: Actor | null, companyId: unknown): Promise<CompanyAccountView | null> {
      const { company } = await onCompany('invoicing.companyAccount', actor, companyId);
      return accountOf(db, company.id);
    },

    /**
     * Grants a company terms and a credit limit, or changes them (shop admins). `termsDays` null takes the terms
     * away: its open invoices stay to be paid, and no new order goes on account.
     */
    async setCompanyTerms(
      actor: Actor | null,
      companyId: unknown,
      input: { termsDays?: unknown; creditLimit?: unknown },
    ): Promise<CompanyAccountView | null> {
      const caller = authorize('invoicing.setTerms', actor);
      return db.transaction(async (tx) => {
        if (typeof companyId === 'string' && isId(companyId))
          await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
        const { company } = await onCompany('invoicing.setTerms', caller, companyId, tx);
        if (input.termsDays === null) {
          await tx.delete(companyTerms).where(eq(companyTerms.companyId, company.id));
          return null;
        }
        const termsDays = Number(input.termsDays);
        if (!(termsDaysAllowed as readonly number[]).includes(termsDays))
          throw badInput({ termsDays: invoicingMessages.termsDays });
        const creditLimitCents = centsOf(input.creditLimit, maxCreditLimitDollars);
        if (creditLimitCents === null) throw badInput({ creditLimit: invoicingMessages.creditLimit });
        const values = { termsDays, creditLimitCents, updatedBy: caller.userId, updatedAt: new Date() };
        const [terms] = await tx
          .insert(companyTerms)
          .values({ companyId: company.id, ...values })
          .onConflictDoUpdate({ target: companyTerms.companyId, set: values })
          .returning();
        return accountOf(tx, company.id, terms);
      });
    },

    /**
     * Pays the caller's unpaid checkout (or single order) on account: `id` is the checkout's id or any of its
     * orders'. In one transaction, holding the company's row (so two checkouts of one company are checked one
     * after the other): refused (409, nothing changes) when the company has no terms, an overdue invoice, or
     * would owe more than its credit limit; else the orders become paid (one conditional update from unpaid:
     * racing a card payment, the expiry or a cancel, one wins) and an invoice is issued with the next number.
     */
    async payOnAccount(actor: Actor | null, id: unknown): Promise<InvoiceView> {
      const caller = authorize('invoicing.payOnAccount', actor);
      if (typeof id !== 'string' || !isId(id)) throw notFound('Order');
      const membership = await membershipOf(db, caller.userId);
      if (!membership) throw forbidden(invoicingMessages.notMember);
      const issued = await db.transaction(async (tx) => {
        await tx
          .select({ id: companies.id })
          .from(companies)
          .where(eq(companies.id, membership.companyId))
          .for('update');
        // Read again with the company held: a member removed meanwhile is refused.
        const member = await membershipOf(tx, caller.userId);
        if (!member || member.companyId !== membership.companyId) throw forbidden(invoicingMessages.notMember);
        const [company] = await tx.select().from(companies).where(eq(companies.id, member.companyId));
        const [terms] = await tx.select().from(companyTerms).where(eq(companyTerms.companyId, company.id));
        if (!terms) throw conflict(invoicingMessages.noTerms);
        await holdAccount(tx, caller.userId);
        const inGroup = or(eq(orders.id, id), eq(orders.checkoutId, id));
        const group: OrderRow[] = await tx.select().from(orders).where(inGroup).orderBy(orders.id).for('update');
        if (!group.length) throw notFound('Order');
        // An id naming one order of a checkout pays the whole checkout.
        const key = group[0].checkoutId ?? group[0].id;
        const all =
          group[0].checkoutId && group.length === 1 && group[0].id === id
            ? await tx.select().from(orders).where(eq(orders.checkoutId, key)).orderBy(orders.id).for('update')
            : group;
        for (const order of all)
          authorizeTarget('invoicing.payOnAccount', caller, order.userId, invoicingMessages.notYours);
        const [{ dueNow }] = await tx
          .select({ dueNow: sql<boolean>`bool_or(${orders.status} = 'unpaid' and ${orders.expiresAt} <= now())` })
          .from(orders)
          .where(
            inArray(
              orders.id,
              all.map((o) => o.id),
            ),
          );
        if (dueNow || all.some((o) => o.status === 'expired')) throw conflict(orderExpiredMessage);
        // Awaiting approval or declined (issue 35 point 2) says so; paid says paid.
        const notUnpaid = all.find((o) => o.status !== 'unpaid');
        if (notUnpaid) throw conflict(notPayableMessage(notUnpaid.status));
        const totalCents = all.reduce((sum, o) => sum + o.totalCents, 0);
        if (totalCents < 1) throw conflict(invoicingMessages.nothingToPay);
        const { owedCents, overdue } = await balanceOf(tx, company.id);
        if (overdue) throw conflict(invoicingMessages.overdue(overdue));
        if (owedCents + totalCents > terms.creditLimitCents)
          throw conflict(invoicingMessages.overLimit(owedCents, terms.creditLimitCents, totalCents));
        // The next number, in this transaction: a rollback gives it back, so the numbers have no gaps.
        const [{ number }] = await tx
          .update(invoiceCounter)
          .set({ next: sql`${invoiceCounter.next} + 1` })
          .where(eq(invoiceCounter.id, 1))
          .returning({ number: sql<number>`${invoiceCounter.next} - 1`.mapWith(Number) });
        const transactionId = `invoice:${invoiceNumber(number)}`;
        const paid = await tx
          .update(orders)
          .set({ status: 'paid', transactionId, paidAt: new Date() })
          .where(
            and(
              inArray(
                orders.id,
                all.map((o) => o.id),
              ),
              eq(orders.status, 'unpaid'),
            ),
          )
          .returning();
        if (paid.length !== all.length) throw conflict(alreadyPaidMessage);
        const [invoice] = await tx
          .insert(invoices)
          .values({
            number,
            companyId: company.id,
            buyerId: caller.userId,
            companyName: company.name,
            companyTaxId: company.taxId,
            buyerName: all[0].name || caller.email || '',
            buyerEmail: caller.email ?? all[0].email,
            address: all[0].address,
            payableKey: key,
            termsDays: terms.termsDays,
            issuedAt: sql`now()`,
            dueAt: sql`now() + make_interval(days => ${terms.termsDays})`,
            totalCents,
          })
          .returning();
        const partIds = all.map((o) => o.partId).filter((p): p is string => p !== null);
        const priced = partIds.length
          ? await tx
              .select({ id: parts.id, sku: parts.sku, priceCents: parts.priceCents, priceTiers: parts.priceTiers })
              .from(parts)
              .where(inArray(parts.id, partIds))
          : [];
        const byId = new Map(priced.map((p) => [p.id, p]));
        const ordered = [...all].sort(
          (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
        );
        const lines = await tx
          .insert(invoiceLines)
          .values(
            ordered.map((order, position) => {
              const part = order.partId ? byId.get(order.partId) : undefined;
              const tier = part ? tierFor(part, order.orderAmount) : null;
              return {
                invoiceId: invoice.id,
                position,
                orderId: order.id,
                partName: order.partName,
                sku: part?.sku ?? '',
                orderAmount: order.orderAmount,
                unitPriceCents: order.unitPriceCents,
                listUnitPriceCents: part?.priceCents ?? order.unitPriceCents,
                breakMinUnits:
                  !order.companyPriced && tier && tier.priceCents === order.unitPriceCents ? tier.minUnits : null,
                companyPriced: order.companyPriced,
                totalCents: order.totalCents,
              };
            }),
          )
          .returning();
        lines.sort((a, b) => a.position - b.position);
        // A card intent opened for these orders is asked about now: cancelled at the gateway (or refunded).
        await tx
          .update(gatewayIntents)
          .set({ nextCheckAt: sql`now()` })
          .where(and(eq(gatewayIntents.orderId, key), eq(gatewayIntents.status, 'open')));
        await mailInvoice(tx, invoice, lines);
        return { invoice, lines };
      });
      return { invoice: issued.invoice, status: 'open', lines: issued.lines, payments: [] };
    },

    /** One invoice with its lines and payments. */
    async invoice(actor: Actor | null, id: unknown): Promise<InvoiceView> {
      return viewOf(await invoiceFor(actor, id));
    },

    /** The invoice as a PDF file. */
    async invoicePdf(actor: Actor | null, id: unknown): Promise<{ filename: string; pdf: Buffer }> {
      const invoice = await invoiceFor(actor, id);
      const lines = await db
        .select()
        .from(invoiceLines)
        .where(eq(invoiceLines.invoiceId, invoice.id))
        .orderBy(asc(invoiceLines.position));
      return { filename: `${invoiceNumber(invoice.number)}.pdf`, pdf: renderInvoicePdf(invoice, lines, seller) };
    },

    /** A company's invoices, newest first: all of them for its admins and shop admins, a buyer's own for a buyer. */
    async companyInvoices(
      actor: Actor | null,
      companyId: unknown,
      args: { status?: unknown; offset?: number | null; limit?: number | null },
    ) {
      authorize('invoicing.companyInvoices', actor);
      const bounds = page(args.offset, args.limit, pageSizes.invoices);
      const status = statusOf(args.status);
      const { caller, company, role } = await onCompany('invoicing.companyInvoices', actor, companyId);
      const where = and(
        eq(invoices.companyId, company.id),
        role === 'buyer' ? eq(invoices.buyerId, caller.userId) : undefined,
        status ? statusWhere(status) : undefined,
      );
      return listOf(where, bounds);
    },

    /** Every invoice, newest first, optionally of one status (shop admins). */
    async allInvoices(actor: Actor | null, args: { status?: unknown; offset?: number | null; limit?: number | null }) {
      authorize('invoicing.allInvoices', actor);
      const bounds = page(args.offset, args.limit, pageSizes.invoices);
      const status = statusOf(args.status);
      return listOf(status ? statusWhere(status) : undefined, bounds);
    },

    /**
     * Records money received against an invoice (shop admins): part payments add up, never past what is
     * outstanding; the invoice is paid once they reach its total. The invoice's row is held meanwhile, so two
     * admins recording at once cannot pay it twice over.
     */
    async recordInvoicePayment(
      actor: Actor | null,
      invoiceId: unknown,
      input: { amount?: unknown; receivedOn?: unknown; note?: unknown },
    ): Promise<InvoiceView> {
      const caller = authorize('invoicing.recordPayment', actor);
      if (typeof invoiceId !== 'string' || !isId(invoiceId)) throw notFound('Invoice');
      const receivedOn = receivedOnOf(input.receivedOn);
      const note = typeof input.note === 'string' ? input.note.trim() : '';
      if (note.length > 500) throw badInput({ note: invoicingMessages.noteTooLong });
      if (controlCharacters.test(note)) throw badInput({ note: 'Control characters are not allowed' });
      const amountCents = centsOf(input.amount, maxCreditLimitDollars);
      if (amountCents === null || amountCents < 1) throw badInput({ amount: invoicingMessages.amountRequired });
      const updated = await db.transaction(async (tx) => {
        const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId)).for('update');
        if (!invoice) throw notFound('Invoice');
        const outstanding = invoice.totalCents - invoice.paidCents;
        if (outstanding <= 0) throw conflict(invoicingMessages.paidInFull);
        if (amountCents > outstanding) throw badInput({ amount: invoicingMessages.amountTooMuch(outstanding) });
        const [{ recorded }] = await tx
          .select({ recorded: sql<number>`count(*)::int` })
          .from(invoicePayments)
          .where(eq(invoicePayments.invoiceId, invoiceId));
        if (recorded >= invoiceLimits.payments - 1 && amountCents < outstanding)
          throw badInput({ amount: invoicingMessages.lastPayment(outstanding) });
        await tx
          .insert(invoicePayments)
          .values({ invoiceId, amountCents, receivedOn, note, recordedBy: caller.userId });
        const [row] = await tx
          .update(invoices)
          .set({
            paidCents: sql`${invoices.paidCents} + ${amountCents}`,
            paidAt: sql`case when ${invoices.paidCents} + ${amountCents} = ${invoices.totalCents} then now() else null end`,
          })
          .where(and(eq(invoices.id, invoiceId), eq(invoices.paidCents, invoice.paidCents)))
          .returning();
        if (!row) throw conflict('This invoice changed meanwhile: look at it again');
        return row;
      });
      return viewOf(updated);
    },

    /**
     * The sweep: queues one reminder per overdue invoice not reminded yet (to its buyer and the company's admins).
     * Safe on any number of replicas: an invoice is taken by one conditional update of `reminded_at` (rows held
     * by another replica's sweep are skipped), in the transaction that queues its emails. Answers how many.
     */
    async remindOverdue({ batch = 50 }: { batch?: number } = {}): Promise<number> {
      return db.transaction(async (tx) => {
        const due = tx
          .select({ id: invoices.id })
          .from(invoices)
          .where(and(isNull(invoices.paidAt), lt(invoices.dueAt, sql`now()`), isNull(invoices.remindedAt)))
          .orderBy(asc(invoices.dueAt))
          .limit(batch)
          .for('update', { skipLocked: true });
        const reminded = await tx
          .update(invoices)
          .set({ remindedAt: sql`now()` })
          .where(and(inArray(invoices.id, due), isNull(invoices.remindedAt)))
          .returning();
        for (const invoice of reminded) {
          for (const to of await recipientsOf(tx, invoice)) {
            await enqueueEmail(tx, invoiceOverdueEmail({ invoice, to }));
          }
        }
        return reminded.length;
      });
    },
  };
}

export type InvoicingService = ReturnType<typeof createInvoicingService>;
export type { CompanyRow };
