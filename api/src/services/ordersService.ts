import { check, messages, purchaseSchema } from '@partsyard/common';
import { and, count, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { OrderLimits } from '../config';
import type { Db } from '../db/database';
import { gatewayIntents, orders, type OrderRow } from '../db/schema';
import { accountGone, badInput, conflict, notFound } from '../errors';
import { holdAccount } from './accountLock';
import { accountNamedBy } from './accountByEmail';
import type { Actor } from './actor';
import { authorize, authorizeTarget, type SignedInOperation } from './rights';
import { emitEvent } from '../logger';
import type { Client, RateLimiter } from '../rateLimits';
import { orderPlacedEmail, shippedEmail } from './emails';
import { expireDueOrders, expireOrderIfDue } from './expiry';
import { enqueueEmail } from './outbox';
import { isId, page, pageSizes, pageWithTotal, type Page } from './paging';
import type { PartsService } from './partsService';
import { releaseStock, takeStock } from './stock';

export type OrderStatus = OrderRow['status'];
export const orderStatuses: readonly OrderStatus[] = ['unpaid', 'paid', 'shipped', 'expired'];

/** Paid or shipped: a verified payment is recorded. */
export const isPaid = (status: OrderStatus) => status === 'paid' || status === 'shipped';

/** The refusal of a customer's order past UNPAID_ORDERS_PER_CUSTOMER. */
export const tooManyUnpaidOrders = (held: number) =>
  `You have ${held} unpaid ${held === 1 ? 'order' : 'orders'}, the most one customer may hold: pay or cancel one of them before placing another`;

/** Why a paid order cannot be paid again (409). */
export const alreadyPaidMessage = 'This order is already paid';

/** Why an expired order cannot be paid (createPaymentIntent, payWithTestCard, confirmPayment: 409). */
export const orderExpiredMessage =
  'This order expired before it was paid and its items went back on sale: place a new order';

export function createOrdersService(deps: {
  db: Db;
  parts: PartsService;
  rateLimits: RateLimiter;
  limits: OrderLimits;
}) {
  const { db, parts, rateLimits, limits } = deps;

  /** An order, if the operation's right lets the caller act on it (their own; any, where admins may). */
  async function orderFor(
    operation: SignedInOperation,
    actor: Actor | null,
    id: string,
    refusal = 'This order is not yours',
  ): Promise<OrderRow> {
    const caller = authorize(operation, actor);
    if (!isId(id)) throw notFound('Order');
    const [order] = await db.select().from(orders).where(eq(orders.id, id));
    if (!order) throw notFound('Order');
    authorizeTarget(operation, caller, order.userId, refusal);
    return order;
  }

  /** An order the caller may see: their own, or any for an admin. */
  const getOrder = (actor: Actor | null, id: string): Promise<OrderRow> => orderFor('orders.getOrder', actor, id);

  /** A list of orders, newest first, prepared once (named statements on a PostgreSQL server). */
  const preparedList = (name: string, where?: SQL) => ({
    page: db
      .select()
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .offset(sql.placeholder('offset'))
      .limit(sql.placeholder('limit'))
      .prepare(`${name}_page`),
    count: db.select({ total: count() }).from(orders).where(where).prepare(`${name}_count`),
  });
  const lists = {
    ofUser: preparedList('orders_of_user', eq(orders.userId, sql.placeholder('userId'))),
    ofStatus: preparedList('orders_of_status', eq(orders.status, sql.placeholder('status'))),
    all: preparedList('orders_all'),
  };
  async function listFrom(list: (typeof lists)['all'], params: Record<string, unknown>, { offset, limit }: Page) {
    return pageWithTotal(
      { offset, limit },
      () => list.page.execute({ ...params, offset, limit }),
      async () => (await list.count.execute(params))[0].total,
    );
  }

  /**
   * The purchase rules, the server's price, the cap on unpaid orders, and the amount taken off the stock in
   * the same transaction as the order is written, reserved until now() + UNPAID_ORDER_EXPIRY.
   */
  async function place(caller: Actor, input: { partId: string } & Record<string, unknown>): Promise<OrderRow> {
    let part = await parts.getPart(String(input.partId ?? ''));
    // A part priced 0 (added before prices had to be positive) cannot be paid for, so it is not sold.
    if (part.priceCents < 1) throw badInput({ partId: messages.partNotForSale });
    let result = check(purchaseSchema(part), input);
    // Short of stock: orders of this part that are due but not yet swept give theirs back first.
    const expireDueOfPart = () => expireDueOrders(db, eq(orders.partId, part.id));
    if (!result.ok && result.errors.orderAmount && (await expireDueOfPart())) {
      part = await parts.getPart(part.id);
      result = check(purchaseSchema(part), input);
    }
    if (!result.ok) throw badInput(result.errors);
    const { name, phone, orderAmount, address } = result.value;
    const attempt = () =>
      db.transaction(async (tx) => {
        // The account first (held against the customer's other orders, so the cap below counts with none of
        // theirs in flight: two at once cannot both slip past it), then the stock.
        if (!(await holdAccount(tx, caller.userId, 'no key update'))) throw accountGone();
        const [{ held }] = await tx
          .select({ held: count() })
          .from(orders)
          .where(and(eq(orders.userId, caller.userId), eq(orders.status, 'unpaid'), gt(orders.expiresAt, sql`now()`)));
        if (held >= limits.unpaidPerCustomer) throw conflict(tooManyUnpaidOrders(held));
        const taken = await takeStock(tx, part.id, orderAmount);
        if (!taken) return null;
        const [order] = await tx
          .insert(orders)
          .values({
            userId: caller.userId,
            email: caller.email ?? '',
            name,
            phone,
            address: address ?? '',
            partId: taken.id,
            partName: taken.name,
            partImage: taken.image,
            orderAmount,
            unitPriceCents: taken.priceCents,
            totalCents: taken.priceCents * orderAmount,
            expiresAt: sql`now() + make_interval(secs => ${limits.unpaidExpiryMs / 1000})`,
          })
          .returning();
        // The email tells the pay-by time; it exists only if the order does (same transaction).
        await enqueueEmail(tx, orderPlacedEmail([order]));
        return order;
      });
    const placed = (await attempt()) ?? ((await expireDueOfPart()) ? await attempt() : null);
    if (placed) return placed;
    // Other orders got there first: tell the customer what is left now.
    const now = await parts.getPart(part.id);
    const recheck = check(purchaseSchema(now), input);
    throw badInput(recheck.ok ? { orderAmount: messages.orderAmountAboveAvailable(now.available) } : recheck.errors);
  }

  return {
    getOrder,
    orderFor,

    /** The sweep: expires the due unpaid orders (any replica, any time); answers how many. */
    expireDueOrders: () => expireDueOrders(db),

    /**
     * An order about to be paid: refused with 409 once it has expired (expired here if it is due and the sweep
     * has not come yet), or if it is paid already.
     */
    async requirePayable(order: OrderRow): Promise<void> {
      // Due but not swept yet: expired now (the database's clock decides, not this process's).
      if (order.status === 'unpaid' && (await expireOrderIfDue(db, order.id))) throw conflict(orderExpiredMessage);
      if (order.status === 'expired') throw conflict(orderExpiredMessage);
      if (order.status !== 'unpaid') throw conflict(alreadyPaidMessage);
    },

    /**
     * Places an order for the signed-in user: the spec's purchase rules, the server's price, and the amount
     * taken off the stock in the same transaction as the order is written.
     */
    async placeOrder(
      actor: Actor | null,
      input: { partId: string } & Record<string, unknown>,
      client?: Client,
    ): Promise<OrderRow> {
      const caller = authorize('orders.placeOrder', actor);
      // The REST shim's order document names an email: it must be the caller's (orders are theirs, by id).
      if (typeof input.email === 'string' && input.email.trim().toLowerCase() !== caller.email) {
        throw badInput({ email: 'Orders are placed with your own email' });
      }
      // Counted now, given back if the order is refused: only accepted orders use up the rate limits.
      const attempt = await rateLimits.orderBy(caller.userId, client);
      try {
        const order = await place(caller, input);
        emitEvent('order_placed'); // counted (metrics), not logged: an order is its own record
        return order;
      } catch (error) {
        await attempt.refused();
        throw error;
      }
    },

    /** The caller's orders, newest first. */
    async myOrders(actor: Actor | null, args: { offset?: number | null; limit?: number | null }) {
      const { userId } = authorize('orders.myOrders', actor);
      return listFrom(lists.ofUser, { userId }, page(args.offset, args.limit, pageSizes.orders));
    },

    /**
     * The orders of the account that holds `email` now: that user themselves, or an admin (the REST shim's
     * /orders/filter). Read by the account's id: orders are never found by the email stored on them.
     */
    async ordersByEmail(actor: Actor | null, email: string): Promise<OrderRow[]> {
      const userId = await accountNamedBy(db, 'orders.ordersByEmail', actor, email);
      if (!userId) return [];
      return db
        .select()
        .from(orders)
        .where(eq(orders.userId, userId))
        .orderBy(desc(orders.createdAt), desc(orders.id))
        .limit(1000);
    },

    /** All orders, newest first, optionally of one status (admin; the REST shim passes the query's text). */
    async allOrders(
      actor: Actor | null,
      args: { status?: string | null; offset?: number | null; limit?: number | null },
    ) {
      authorize('orders.allOrders', actor);
      const status = args.status?.trim().toLowerCase() || null;
      if (status !== null && !orderStatuses.includes(status as OrderStatus)) {
        throw badInput({ status: `Must be one of ${orderStatuses.join(', ')}` });
      }
      const bounds = page(args.offset, args.limit, pageSizes.orders);
      return status ? listFrom(lists.ofStatus, { status }, bounds) : listFrom(lists.all, {}, bounds);
    },

    /**
     * Cancels (deletes) an unpaid order and gives its stock back: the owner's, or any for an admin. An expired
     * order may be deleted too (its stock went back when it expired). A paid order cannot be cancelled.
     */
    async cancelOrder(actor: Actor | null, id: string): Promise<string> {
      const order = await orderFor('orders.cancelOrder', actor, id);
      if (order.status !== 'unpaid' && order.status !== 'expired') throw conflict('A paid order cannot be cancelled');
      return db.transaction(async (tx) => {
        // The status check in the statement settles a race with a payment or the expiry, which lock the same
        // row: the delete waits for them and then finds the order paid or expired, or they wait for the delete
        // and then find no order. The stock comes back at most once: here only if it was still unpaid.
        const [deleted] = await tx
          .delete(orders)
          .where(and(eq(orders.id, id), inArray(orders.status, ['unpaid', 'expired'])))
          .returning();
        if (!deleted) {
          const [now] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, id));
          if (!now) throw notFound('Order'); // cancelled by a request that got there first
          throw conflict('A paid order cannot be cancelled');
        }
        if (deleted.status === 'unpaid') await releaseStock(tx, deleted.partId, deleted.orderAmount);
        // An intent made for it is asked about now: refunded if it was charged, else cancelled at the gateway.
        await tx
          .update(gatewayIntents)
          .set({ nextCheckAt: sql`now()` })
          .where(and(eq(gatewayIntents.orderId, id), eq(gatewayIntents.status, 'open')));
        return id;
      });
    },

    /**
     * Marks a paid order shipped (admin). Shipping again changes nothing: `changed` says whether this call
     * shipped it (of two at once, one).
     */
    async markShipped(actor: Actor | null, id: string): Promise<{ order: OrderRow; changed: boolean }> {
      const order = await orderFor('orders.markShipped', actor, id);
      if (order.status === 'shipped') return { order, changed: false };
      if (order.status !== 'paid') throw conflict('Only paid orders can be shipped');
      // The order of a customer since deleted kept their details only to be delivered: now they go.
      const keptUnlessDetached = (column: typeof orders.name | typeof orders.phone | typeof orders.address) =>
        sql<string>`case when ${orders.userId} is null then '' else ${column} end`;
      const shipped = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(orders)
          .set({
            status: 'shipped',
            shippedAt: new Date(),
            name: keptUnlessDetached(orders.name),
            phone: keptUnlessDetached(orders.phone),
            address: keptUnlessDetached(orders.address),
          })
          .where(and(eq(orders.id, id), eq(orders.status, 'paid')))
          .returning();
        // A deleted customer's order (detached, details cleared) has no one to tell.
        if (row?.userId) await enqueueEmail(tx, shippedEmail(row));
        return row;
      });
      return shipped ? { order: shipped, changed: true } : { order: await getOrder(actor, id), changed: false };
    },
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
