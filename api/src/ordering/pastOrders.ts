import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { orders, parts } from '../db/schema';
import { badInput, notFound } from '../errors';
import type { Actor } from '../services/actor';
import { isId } from '../services/paging';
import { authorizeTarget, type SignedInOperation } from '../services/rights';

/** What "order again" and "add a past order to a list" read of a past order: each line's part, now. */
export interface PastOrderLine {
  orderId: string;
  /** The part now (null once it was deleted from the catalog: the order keeps its name). */
  partId: string | null;
  sku: string | null;
  partName: string;
  amount: number;
}

export const pastOrderMessages = {
  whichOrder: 'Give an order id or a checkout id, not both',
  notYours: 'This order is not yours',
} as const;

/**
 * The lines of one past order (`orderId`) or of every order of one checkout (`checkoutId`), the caller's own:
 * NOT_FOUND when there is none, FORBIDDEN when it is another customer's (an admin's too: an admin orders again
 * only what they ordered themselves).
 */
export async function pastOrderLines(
  db: Db,
  operation: SignedInOperation,
  caller: Actor,
  which: { orderId?: string | null; checkoutId?: string | null },
): Promise<PastOrderLine[]> {
  const { orderId, checkoutId } = which;
  if (Boolean(orderId) === Boolean(checkoutId)) throw badInput({ orderId: pastOrderMessages.whichOrder });
  const id = (orderId ?? checkoutId) as string;
  if (!isId(id)) throw notFound(orderId ? 'Order' : 'Checkout');
  const rows = await db
    .select({
      orderId: orders.id,
      userId: orders.userId,
      partId: parts.id,
      sku: parts.sku,
      partName: orders.partName,
      amount: orders.orderAmount,
    })
    .from(orders)
    .leftJoin(parts, eq(parts.id, orders.partId))
    .where(orderId ? eq(orders.id, id) : eq(orders.checkoutId, id))
    .orderBy(asc(orders.createdAt), asc(orders.id));
  if (!rows.length) throw notFound(orderId ? 'Order' : 'Checkout');
  for (const row of rows) authorizeTarget(operation, caller, row.userId, pastOrderMessages.notYours);
  return rows.map(({ userId: _userId, ...line }) => line);
}
