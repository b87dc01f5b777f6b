import { centsToDollars, formatDollars, maxChargeCents } from '@partsyard/common';
import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { OrderLimits } from '../config';
import type { Db, Tx } from '../db/database';
import { orders, users, type OrderRow } from '../db/schema';
import { conflict, forbidden, notFound } from '../errors';
import type { Actor } from '../services/actor';
import { approvalRequestEmail, approvedEmail, awaitingApprovalEmail, declinedEmail } from '../services/emails';
import { enqueueEmail } from '../services/outbox';
import { isId, page, pageWithTotal } from '../services/paging';
import { authorize, authorizeCompany, type SignedInOperation } from '../services/rights';
import { maxCartLines } from '../services/cartLines';
import { releaseStock } from '../services/stock';
import { companies, companyMembers } from './companiesSchema';

/**
 * Approvals (issue 35 point 2; docs/companies.md). A company admin gives a buyer a limit per order
 * (`company_members.order_limit_cents`); a checkout (or a single order) above it is written by ordersService's
 * one order-writing transaction with status `awaiting_approval` instead of `unpaid` (`placedStatus`): it holds its
 * stock exactly as an unpaid order does (the same per-customer caps, the same expiry and sweep), and the company's
 * admins are emailed in that transaction (`requestApproval`).
 *
 * Approve, decline, the buyer's cancel and the expiry each move the checkout's orders with one conditional
 * statement `... WHERE status = 'awaiting_approval'` after locking them in id order (as payments, the cancel and
 * the sweep lock theirs): whichever commits first wins, every other finds no such row and answers CONFLICT saying
 * what happened. The decider's right is read in the deciding transaction with the company's row held `FOR SHARE`
 * (every membership change holds it `FOR UPDATE`), so a company admin removed meanwhile cannot decide.
 */

export const approvalLimits = {
  /** The most company admins emailed for one checkout (the first to join). */
  adminsEmailed: 20,
} as const;

export const approvalMessages = {
  approvedAlready: 'This order was approved already: the buyer can pay for it now',
  declinedAlready: 'This order was declined already: its parts went back on sale',
  expiredAlready:
    'This order expired before anyone decided: its parts went back on sale, and the buyer can order again',
  cancelledAlready: 'The buyer cancelled this order',
  paidAlready: 'This order was approved and paid already',
  buyerLeft:
    'The buyer of this order is no longer a member of a company, so nobody can approve it: it expires by itself',
  notYourCompany: 'This order was placed by a buyer of another company',
  awaitingNotPayable:
    'This order is above your limit per order and waits for a company admin’s approval: you can pay once it is approved',
  declinedNotPayable: 'Your company declined this order, so it cannot be paid: its parts went back on sale',
  approvedMeanwhile:
    'A company admin approved this order meanwhile: cancel it again if you no longer want it, or pay for it',
  declinedMeanwhile: 'A company admin declined this order meanwhile: its parts went back on sale',
} as const;

/** The orders of one group: a checkout's (by its id) or an order placed alone (by its own). */
const inGroup = (key: string) => or(eq(orders.id, key), eq(orders.checkoutId, key));
const groupKeyOf = (order: Pick<OrderRow, 'id' | 'checkoutId'>) => order.checkoutId ?? order.id;

/**
 * The status a new checkout (or single order) of `userId` totalling `totalCents` is written with: awaiting a
 * company admin's approval when the caller is a buyer whose limit per order it exceeds, else unpaid. Read in the
 * order-writing transaction (ordersService's writeOrdersOnce).
 */
export async function placedStatus(tx: Tx, userId: string, totalCents: number): Promise<OrderRow['status']> {
  const [member] = await tx
    .select({ limit: companyMembers.orderLimitCents })
    .from(companyMembers)
    .where(and(eq(companyMembers.userId, userId), eq(companyMembers.role, 'buyer')));
  return member?.limit != null && totalCents > member.limit ? 'awaiting_approval' : 'unpaid';
}

/**
 * The emails of a checkout placed awaiting approval, in its transaction: the buyer is told it waits, and the
 * company's admins (the first `adminsEmailed` to join) are asked to decide.
 */
export async function requestApproval(tx: Tx, placed: OrderRow[]): Promise<void> {
  const buyerId = placed[0]?.userId;
  if (!buyerId) return;
  await enqueueEmail(tx, awaitingApprovalEmail(placed));
  const [buyer] = await tx
    .select({
      companyId: companyMembers.companyId,
      limit: companyMembers.orderLimitCents,
      name: users.name,
      email: users.email,
      companyName: companies.name,
    })
    .from(companyMembers)
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(eq(companyMembers.userId, buyerId));
  if (!buyer) return;
  const admins = await tx
    .select({ email: users.email })
    .from(companyMembers)
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .where(and(eq(companyMembers.companyId, buyer.companyId), eq(companyMembers.role, 'company_admin')))
    .orderBy(asc(companyMembers.joinedAt), asc(companyMembers.userId))
    .limit(approvalLimits.adminsEmailed);
  for (const admin of admins) {
    if (!admin.email) continue;
    await enqueueEmail(
      tx,
      approvalRequestEmail({
        to: admin.email,
        companyName: buyer.companyName,
        buyerName: buyer.name,
        buyerEmail: buyer.email ?? placed[0].email,
        limitCents: buyer.limit ?? 0,
        orders: placed,
      }),
    );
  }
}

/** Locks a group's orders in id order (as payments, the cancel and the sweep lock theirs). */
const lockGroup = (tx: Tx, key: string) =>
  tx.select({ id: orders.id }).from(orders).where(inGroup(key)).orderBy(orders.id).for('update');

/** Gives back the stock of orders that held it, part by part in id order (as the sweep does). */
async function releaseHeld(tx: Tx, released: OrderRow[]) {
  const taken = new Map<string, number>();
  for (const { partId, orderAmount } of released) {
    if (partId) taken.set(partId, (taken.get(partId) ?? 0) + orderAmount);
  }
  for (const partId of [...taken.keys()].sort()) await releaseStock(tx, partId, taken.get(partId) ?? 0);
}

/**
 * The buyer's (or a shop admin's) cancel of an order awaiting approval, in `tx`: the whole checkout is deleted
 * with one conditional DELETE and its stock given back. Answers the orders deleted; none when a decision or the
 * expiry got there first (`whyNotAwaiting` then says which).
 */
export async function cancelAwaitingIn(tx: Tx, order: Pick<OrderRow, 'id' | 'checkoutId'>): Promise<OrderRow[]> {
  const key = groupKeyOf(order);
  await lockGroup(tx, key);
  const deleted = await tx
    .delete(orders)
    .where(and(inGroup(key), eq(orders.status, 'awaiting_approval')))
    .returning();
  await releaseHeld(tx, deleted);
  return deleted;
}

/** Why an order of a group no longer awaits approval, as the one who tried to cancel it is told. */
export function cancelRefusal(status: OrderRow['status'] | undefined): string {
  if (status === 'unpaid' || status === 'paid' || status === 'shipped') return approvalMessages.approvedMeanwhile;
  if (status === 'declined') return approvalMessages.declinedMeanwhile;
  return approvalMessages.expiredAlready;
}

/** The buyer of a checkout awaiting approval. */
export interface ApprovalBuyerView {
  userId: string;
  name: string;
  email: string | null;
  orderLimitCents: number | null;
}

/** A checkout awaiting approval, as its company's admins see it. */
export interface AwaitingCheckoutView {
  /** The checkout's id, or the order's for an order placed alone: what approve and decline take. */
  id: string;
  buyer: ApprovalBuyerView;
  orders: OrderRow[];
  totalCents: number;
  createdAt: Date;
  expiresAt: Date;
}

export function createCompanyApprovals(deps: { db: Db; limits: OrderLimits }) {
  const { db, limits } = deps;

  /** Why a decision found nothing awaiting: the group's state now, as a CONFLICT. */
  async function decisionRefusal(tx: Tx, key: string) {
    const [now] = await tx
      .select({ status: orders.status, due: sql<boolean>`${orders.expiresAt} <= now()` })
      .from(orders)
      .where(inGroup(key))
      .limit(1);
    if (!now) return conflict(approvalMessages.cancelledAlready);
    if (now.status === 'unpaid') return conflict(approvalMessages.approvedAlready);
    if (now.status === 'paid' || now.status === 'shipped') return conflict(approvalMessages.paidAlready);
    if (now.status === 'declined') return conflict(approvalMessages.declinedAlready);
    return conflict(approvalMessages.expiredAlready); // expired, or awaiting but due (the sweep's next)
  }

  /**
   * Approves or declines a group awaiting approval, once: a company admin of the buyer's company as it is now
   * (or a shop admin). The company's row is held FOR SHARE, the caller's right read after, the group locked in id
   * order, and one conditional UPDATE moves it only while it still awaits and is not due.
   */
  async function decide(
    operation: 'companies.approveCheckout' | 'companies.declineCheckout',
    actor: Actor | null,
    id: unknown,
  ): Promise<AwaitingCheckoutView> {
    const caller = authorize(operation, actor);
    if (typeof id !== 'string' || !isId(id)) throw notFound('Order awaiting approval');
    return db.transaction(async (tx) => {
      const [first] = await tx.select().from(orders).where(inGroup(id)).limit(1);
      if (!first) throw notFound('Order awaiting approval');
      const key = groupKeyOf(first);
      const buyerMembership = first.userId
        ? (await tx.select().from(companyMembers).where(eq(companyMembers.userId, first.userId)))[0]
        : undefined;
      if (!buyerMembership) {
        if (caller.role === 'admin') throw conflict(approvalMessages.buyerLeft);
        throw forbidden(approvalMessages.notYourCompany);
      }
      // Held against membership changes (which hold it FOR UPDATE): a company admin removed or demoted before this
      // point is refused below; one removed after it waits for this decision.
      await tx
        .select({ id: companies.id })
        .from(companies)
        .where(eq(companies.id, buyerMembership.companyId))
        .for('share');
      const [buyerNow] = await tx
        .select()
        .from(companyMembers)
        .where(eq(companyMembers.userId, first.userId ?? ''));
      const [mine] = await tx.select().from(companyMembers).where(eq(companyMembers.userId, caller.userId));
      const sameCompany = buyerNow && mine?.companyId === buyerNow.companyId;
      if (!buyerNow && caller.role === 'admin') throw conflict(approvalMessages.buyerLeft);
      authorizeCompany(operation, caller, sameCompany ? mine.role : null);
      if (!buyerNow) throw forbidden(approvalMessages.notYourCompany);
      await lockGroup(tx, key);
      const awaiting = and(inGroup(key), eq(orders.status, 'awaiting_approval'), sql`${orders.expiresAt} > now()`);
      let moved: OrderRow[];
      if (operation === 'companies.approveCheckout') {
        moved = await tx
          .update(orders)
          .set({
            status: 'unpaid',
            expiresAt: sql`now() + make_interval(secs => ${limits.unpaidExpiryMs / 1000})`,
          })
          .where(awaiting)
          .returning();
        if (!moved.length) throw await decisionRefusal(tx, key);
        await enqueueEmail(tx, approvedEmail(moved));
      } else {
        moved = await tx.update(orders).set({ status: 'declined' }).where(awaiting).returning();
        if (!moved.length) throw await decisionRefusal(tx, key);
        await releaseHeld(tx, moved);
        await enqueueEmail(tx, declinedEmail(moved));
      }
      moved.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
      const [buyer] = await tx
        .select()
        .from(users)
        .where(eq(users.id, first.userId ?? ''));
      return {
        id: key,
        buyer: {
          userId: buyer?.id ?? '',
          name: buyer?.name ?? '',
          email: buyer?.email ?? null,
          orderLimitCents: buyerNow.orderLimitCents,
        },
        orders: moved,
        totalCents: moved.reduce((sum, o) => sum + o.totalCents, 0),
        createdAt: moved[0].createdAt,
        expiresAt: moved[0].expiresAt,
      };
    });
  }

  /** The caller, when `operation` lets them act on company `companyId` (as companiesService's onCompany). */
  async function onCompany(operation: SignedInOperation, actor: Actor | null, companyId: unknown) {
    const caller = authorize(operation, actor);
    if (typeof companyId !== 'string' || !isId(companyId)) throw notFound('Company');
    const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
    if (!company) throw notFound('Company');
    const [mine] = await db.select().from(companyMembers).where(eq(companyMembers.userId, caller.userId)).limit(1);
    authorizeCompany(operation, caller, mine?.companyId === company.id ? mine.role : null);
    return company.id;
  }

  return {
    /**
     * The company's checkouts awaiting approval (of its members now), newest first, paged; not yet due. Each is
     * one checkout (or an order placed alone) with its orders, total and decide-by time.
     */
    async companyApprovals(
      actor: Actor | null,
      companyId: unknown,
      args: { offset?: number | null; limit?: number | null } = {},
    ): Promise<{ items: AwaitingCheckoutView[]; total: number }> {
      authorize('companies.approvals', actor);
      const bounds = page(args.offset, args.limit, approvalPageSize);
      const id = await onCompany('companies.approvals', actor, companyId);
      const key = sql<string>`coalesce(${orders.checkoutId}, ${orders.id})`;
      const where = and(
        eq(companyMembers.companyId, id),
        eq(orders.status, 'awaiting_approval'),
        sql`${orders.expiresAt} > now()`,
      );
      const groups = () =>
        db
          .select({
            key: sql<string>`${key}::text`,
            createdAt: sql<Date>`min(${orders.createdAt})`.mapWith(orders.createdAt),
          })
          .from(orders)
          .innerJoin(companyMembers, eq(companyMembers.userId, orders.userId))
          .where(where)
          .groupBy(key)
          .orderBy(desc(sql`min(${orders.createdAt})`), desc(key))
          .offset(bounds.offset)
          .limit(bounds.limit);
      const counted = () =>
        db
          .select({ n: sql<number>`count(distinct ${key})::int` })
          .from(orders)
          .innerJoin(companyMembers, eq(companyMembers.userId, orders.userId))
          .where(where)
          .then((rows) => rows[0]?.n ?? 0);
      const { items: keys, total } = await pageWithTotal(bounds, groups, counted);
      if (!keys.length) return { items: [], total };
      const rows = await db
        .select({
          order: orders,
          buyerName: users.name,
          buyerEmail: users.email,
          limit: companyMembers.orderLimitCents,
        })
        .from(orders)
        .innerJoin(users, eq(users.id, orders.userId))
        .innerJoin(companyMembers, eq(companyMembers.userId, orders.userId))
        .where(
          and(
            where,
            or(
              inArray(
                orders.checkoutId,
                keys.map((k) => k.key),
              ),
              inArray(
                orders.id,
                keys.map((k) => k.key),
              ),
            ),
          ),
        )
        .orderBy(asc(orders.createdAt), asc(orders.id))
        .limit(keys.length * maxCartLines);
      const items = keys.flatMap((k): AwaitingCheckoutView[] => {
        const group = rows.filter((r) => groupKeyOf(r.order) === k.key);
        if (!group.length) return [];
        const first = group[0];
        return [
          {
            id: k.key,
            buyer: {
              userId: first.order.userId ?? '',
              name: first.buyerName,
              email: first.buyerEmail,
              orderLimitCents: first.limit,
            },
            orders: group.map((r) => r.order),
            totalCents: group.reduce((sum, r) => sum + r.order.totalCents, 0),
            createdAt: first.order.createdAt,
            expiresAt: first.order.expiresAt,
          },
        ];
      });
      return { items, total };
    },

    /** Approves a checkout awaiting approval: its orders become unpaid, to be paid by a fresh expiry. */
    approveCheckout: (actor: Actor | null, id: unknown) => decide('companies.approveCheckout', actor, id),

    /** Declines a checkout awaiting approval: its orders are marked declined and their stock goes back. */
    declineCheckout: (actor: Actor | null, id: unknown) => decide('companies.declineCheckout', actor, id),
  };
}

/** The approvals list's page sizes. */
export const approvalPageSize = { fallback: 20, max: 20 } as const;

/** A buyer's limit as its refusal names it. */
export const limitText = (cents: number) => formatDollars(centsToDollars(cents));
/** The largest limit one may give: what one card payment carries. */
export const maxOrderLimitCents = maxChargeCents;

export type CompanyApprovals = ReturnType<typeof createCompanyApprovals>;
