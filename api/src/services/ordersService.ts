import { check, messages, purchaseSchema } from '@partsyard/common';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database';
import { orders, type OrderRow } from '../db/schema';
import { badInput, conflict, forbidden, notFound } from '../errors';
import { accountGone, holdAccount } from './accountLock';
import { accountNamedBy } from './accountByEmail';
import { isAdmin, requireActor, requireAdmin, type Actor } from './actor';
import type { Client, RateLimiter } from '../http/rateLimit';
import { isId, page, pageWithTotal, type Page } from './paging';
import type { PartsService } from './partsService';
import { releaseStock, takeStock } from './stock';

export type OrderStatus = OrderRow['status'];

export function createOrdersService(deps: { db: Db; parts: PartsService; rateLimits: RateLimiter }) {
  const { db, parts, rateLimits } = deps;

  /** An order the caller may see: their own, or any for an admin. */
  async function getOrder(actor: Actor | null, id: string): Promise<OrderRow> {
    const caller = requireActor(actor);
    if (!isId(id)) throw notFound('Order');
    const [order] = await db.select().from(orders).where(eq(orders.id, id));
    if (!order) throw notFound('Order');
    if (!isAdmin(caller) && order.userId !== caller.userId) throw forbidden('This order is not yours');
    return order;
  }

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

  return {
    getOrder,

    /**
     * Places an order for the signed-in user: the spec's purchase rules, the server's price, and the amount
     * taken off the stock in the same transaction as the order is written.
     */
    async placeOrder(
      actor: Actor | null,
      input: { partId: string } & Record<string, unknown>,
      client?: Client,
    ): Promise<OrderRow> {
      const caller = requireActor(actor);
      rateLimits.orderBy(caller.userId, client);
      const part = await parts.getPart(String(input.partId ?? ''));
      // A part priced 0 (added before prices had to be positive) cannot be paid for, so it is not sold.
      if (part.priceCents < 1) throw badInput({ partId: messages.partNotForSale });
      const result = check(purchaseSchema(part), input);
      if (!result.ok) throw badInput(result.errors);
      const { name, phone, orderAmount, address } = result.value;
      const placed = await db.transaction(async (tx) => {
        // The account first, then the stock: a deletion of the user waits for this order or this for it.
        if (!(await holdAccount(tx, caller.userId))) throw accountGone();
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
          })
          .returning();
        return order;
      });
      if (placed) return placed;
      // Other orders got there first: tell the customer what is left now.
      const now = await parts.getPart(part.id);
      const recheck = check(purchaseSchema(now), input);
      throw badInput(recheck.ok ? { orderAmount: messages.orderAmountAboveAvailable(now.available) } : recheck.errors);
    },

    /** The caller's orders, newest first. */
    async myOrders(actor: Actor | null, args: { offset?: number | null; limit?: number | null }) {
      const { userId } = requireActor(actor);
      return listFrom(lists.ofUser, { userId }, page(args.offset, args.limit, 200, 50));
    },

    /**
     * The orders of the account that holds `email` now: that user themselves, or an admin (the REST shim's
     * /orders/filter). Read by the account's id: orders are never found by the email stored on them.
     */
    async ordersByEmail(actor: Actor | null, email: string): Promise<OrderRow[]> {
      const userId = await accountNamedBy(db, actor, email);
      if (!userId) return [];
      return db
        .select()
        .from(orders)
        .where(eq(orders.userId, userId))
        .orderBy(desc(orders.createdAt), desc(orders.id))
        .limit(1000);
    },

    /** All orders, newest first, optionally of one status (admin). */
    async allOrders(
      actor: Actor | null,
      args: { status?: OrderStatus | null; offset?: number | null; limit?: number | null },
    ) {
      requireAdmin(actor);
      const bounds = page(args.offset, args.limit, 200, 50);
      return args.status ? listFrom(lists.ofStatus, { status: args.status }, bounds) : listFrom(lists.all, {}, bounds);
    },

    /**
     * Cancels (deletes) an unpaid order and gives its stock back: the owner's, or any for an admin.
     * A paid order cannot be cancelled.
     */
    async cancelOrder(actor: Actor | null, id: string): Promise<string> {
      const order = await getOrder(actor, id);
      if (order.status !== 'unpaid') throw conflict('A paid order cannot be cancelled');
      return db.transaction(async (tx) => {
        // The status check in the statement settles a race with a payment, which locks the same row: the
        // delete waits for a payment in progress and then finds the order paid, or a payment waits for the
        // delete and then finds no order. Only one of them wins, and the stock comes back at most once.
        const [deleted] = await tx
          .delete(orders)
          .where(and(eq(orders.id, id), eq(orders.status, 'unpaid')))
          .returning();
        if (!deleted) {
          const [now] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, id));
          if (!now) throw notFound('Order'); // cancelled by a request that got there first
          throw conflict('A paid order cannot be cancelled');
        }
        await releaseStock(tx, deleted.partId, deleted.orderAmount);
        return id;
      });
    },

    /** Marks a paid order shipped (admin). Shipping again changes nothing. */
    async markShipped(actor: Actor | null, id: string): Promise<OrderRow> {
      requireAdmin(actor);
      const order = await getOrder(actor, id);
      if (order.status === 'shipped') return order;
      if (order.status !== 'paid') throw conflict('Only paid orders can be shipped');
      // The order of a customer since deleted kept their details only to be delivered: now they go.
      const keptUnlessDetached = (column: typeof orders.name | typeof orders.phone | typeof orders.address) =>
        sql<string>`case when ${orders.userId} is null then '' else ${column} end`;
      const [shipped] = await db
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
      return shipped ?? getOrder(actor, id);
    },
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
