import { and, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/database';
import { gatewayIntents, orders, type OrderRow } from '../db/schema';
import { logger } from '../logger';
import { expiredEmail, expiredUnapprovedEmail } from './emails';
import { enqueueEmail } from './outbox';
import { releaseStock } from './stock';

/**
 * Reservations that run out. An unpaid order holds its stock until its `expiresAt` (placed at now() +
 * UNPAID_ORDER_EXPIRY); then it becomes `expired` and its stock goes back on sale, exactly once.
 *
 * The work is done by the database, so any number of replicas may run it at any moment: the due orders are
 * locked `FOR UPDATE SKIP LOCKED` (two sweeps take disjoint orders; an order being paid or cancelled right
 * now is skipped, and that transaction decides it), flipped to `expired` only while still unpaid, and their
 * stock is given back in the same transaction, part by part in id order (as deleting a user does), so two
 * sweeps wait for each other on a part but never deadlock. Time is the database's `now()`: replicas whose
 * clocks disagree still agree on what is due.
 *
 * A checkout expires as one (issue 32): the orders placed together share their expiry and are paid with one
 * payment, so whichever due order is found (by the sweep, by part, by the payment page) brings every other unpaid
 * order of its checkout into the same transaction and the same email.
 */

/**
 * How many due orders one sweep transaction selects at most (the sweep repeats while it finds a full batch); their
 * checkouts' other orders come with them beyond it.
 */
export const expiryBatch = 200;

/**
 * The statuses of an order that holds its stock until `expiresAt`: unpaid, or awaiting a company admin's approval
 * (issue 35 point 2: held exactly as an unpaid order is, counted by the same caps, expired by the same sweep).
 */
export const holdingStatuses = ['unpaid', 'awaiting_approval'] as const;
/**
 * `status in ('unpaid', 'awaiting_approval')` written out, not parameters: a prepared statement's generic plan must
 * still match the partial indexes' WHERE (orders_unpaid_*_idx, migration 0027).
 */
export const holdsStock = sql`${orders.status} in ('unpaid', 'awaiting_approval')`;

/** Orders holding stock (unpaid, or awaiting approval) past their expiry, matching `where`. */
export const dueWhere = (where?: SQL) => and(holdsStock, lte(orders.expiresAt, sql`now()`), where);

/**
 * Whether the part `partId` (a column or a value) has unpaid orders past their expiry: the same rule as
 * `dueWhere`, asked as "is the earliest expiry of its unpaid orders past", which is one entry of
 * orders_unpaid_part_idx. (Asked as an EXISTS over `dueWhere`, PostgreSQL read every order of the part by
 * orders_part_idx to find none due: migration 0013.)
 */
export const partHasDueOrders = (partId: SQL | AnyPgColumn) => {
  // Nested in an SQL of its own: in the select list of a one-table select, Drizzle writes the columns that are
  // an SQL field's own chunks without their table, and `"part_id" = "id"` would compare an order with itself.
  // 'unpaid' is written, not a parameter: a prepared statement's generic plan must still match the index's WHERE.
  const unpaidOfPart = and(eq(orders.partId, partId), holdsStock);
  const earliest = sql`select min(${orders.expiresAt}) from ${orders} where ${unpaidOfPart}`;
  return sql<boolean>`coalesce((${earliest}) <= now(), false)`;
};

/**
 * Expires the unpaid orders that are due and match `where`, inside `tx`, each with every other unpaid order of
 * its checkout (a checkout expires as one: one transaction, one email): answers the orders expired. A row this
 * transaction already holds (the payment that found its order due) is not skipped.
 */
export async function expireDueOrdersIn(tx: Tx, where?: SQL, limit = expiryBatch): Promise<OrderRow[]> {
  return (await expireBatch(tx, where, limit)).expired;
}

/**
 * One batch: up to `limit` due orders matching `where` (`full` when there were that many, so more may be due),
 * and their checkouts whole. A checkout some of whose unpaid orders another transaction holds (a payment, a
 * cancel, another sweep) is left entirely to later: expiring only the rows this one could take would split it.
 */
async function expireBatch(tx: Tx, where: SQL | undefined, limit: number) {
  const due = await tx
    .select({ id: orders.id, checkoutId: orders.checkoutId, status: orders.status })
    .from(orders)
    .where(dueWhere(where))
    .orderBy(orders.expiresAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  const full = due.length === limit;
  if (!due.length) return { expired: [], full };
  const ids = new Set(due.filter((o) => !o.checkoutId).map((o) => o.id));
  // Those that expired still awaiting a company's approval: their email says so (never a word about paying).
  const unapproved = new Set(due.filter((o) => o.status === 'awaiting_approval').map((o) => o.id));
  const checkouts = [...new Set(due.flatMap((o) => (o.checkoutId ? [o.checkoutId] : [])))];
  if (checkouts.length) {
    // The checkouts' other orders need not match `where` (another part's line) nor fit in the limit.
    const unpaidOfCheckouts = and(inArray(orders.checkoutId, checkouts), holdsStock);
    const held = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(unpaidOfCheckouts)
      .for('update', { skipLocked: true });
    const heldIds = new Set(held.map((o) => o.id));
    // Read after the locks: an unpaid order not held now is another transaction's, and its checkout waits.
    const members = await tx
      .select({ id: orders.id, checkoutId: orders.checkoutId, status: orders.status })
      .from(orders)
      .where(unpaidOfCheckouts);
    const split = new Set(members.filter((o) => !heldIds.has(o.id)).map((o) => o.checkoutId));
    for (const o of members) if (!split.has(o.checkoutId)) ids.add(o.id);
    for (const o of members) if (o.status === 'awaiting_approval') unapproved.add(o.id);
  }
  if (!ids.size) return { expired: [], full };
  const expired = await tx
    .update(orders)
    .set({ status: 'expired' })
    .where(and(inArray(orders.id, [...ids]), holdsStock))
    .returning();
  const taken = new Map<string, number>();
  for (const { partId, orderAmount } of expired) {
    if (partId) taken.set(partId, (taken.get(partId) ?? 0) + orderAmount);
  }
  for (const partId of [...taken.keys()].sort()) await releaseStock(tx, partId, taken.get(partId) ?? 0);
  // One email per customer for the orders this batch expired (whole checkouts, so never two for one checkout).
  const byCustomer = new Map<string, OrderRow[]>();
  for (const order of expired) {
    if (!order.userId) continue;
    byCustomer.set(order.userId, [...(byCustomer.get(order.userId) ?? []), order]);
  }
  for (const customerOrders of byCustomer.values()) {
    const awaiting = customerOrders.filter((o) => unapproved.has(o.id));
    const unpaid = customerOrders.filter((o) => !unapproved.has(o.id));
    if (unpaid.length) await enqueueEmail(tx, expiredEmail(unpaid));
    if (awaiting.length) await enqueueEmail(tx, expiredUnapprovedEmail(awaiting));
  }
  // An intent made for one of them is asked about now: refunded if it was charged, else cancelled at the gateway.
  await tx
    .update(gatewayIntents)
    .set({ nextCheckAt: sql`now()` })
    .where(and(inArray(gatewayIntents.orderId, intentKeys(expired, [...ids])), eq(gatewayIntents.status, 'open')));
  return { expired, full };
}

/** The ids a payment intent of these orders is noted under: each order's, and its checkout's (issue 14). */
export const intentKeys = (rows: readonly Pick<OrderRow, 'checkoutId'>[], ids: readonly string[]): string[] => [
  ...new Set([...ids, ...rows.flatMap((o) => (o.checkoutId ? [o.checkoutId] : []))]),
];

/** One line per expired order (after its transaction committed): which stock went back. */
export function logExpired(expired: OrderRow[]): void {
  for (const order of expired) {
    logger.info('an unpaid order expired and its stock went back on sale', {
      event: 'order_expired',
      orderId: order.id,
      partId: order.partId,
      orderAmount: order.orderAmount,
      totalCents: order.totalCents,
      expiresAt: order.expiresAt.toISOString(),
    });
  }
}

/**
 * The sweep: expires every due unpaid order, a batch per transaction, and answers how many. Safe to run
 * from every replica at once, as often as wanted.
 */
export async function expireDueOrders(db: Db, where?: SQL): Promise<number> {
  // Mostly none is due (a sold-out part asked again and again, the sweep between expiries): one plain read
  // then, not a transaction of three round trips (issue 15). One that falls due right after is the next one's.
  const [anyDue] = await db.select({ id: orders.id }).from(orders).where(dueWhere(where)).limit(1);
  if (!anyDue) return 0;
  let total = 0;
  for (;;) {
    const { expired, full } = await db.transaction((tx) => expireBatch(tx, where, expiryBatch));
    logExpired(expired);
    total += expired.length;
    // A full batch that expired nothing was all checkouts other transactions hold: the next sweep's.
    if (!full || !expired.length) return total;
  }
}

/** Expires one order now if it is due (a payment or the payment page found it so before the sweep did). */
export async function expireOrderIfDue(db: Db, orderId: string): Promise<boolean> {
  return (await expireDueOrders(db, eq(orders.id, orderId))) > 0;
}
