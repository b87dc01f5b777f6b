import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/database';
import { gatewayEvents, orders, type DisputeStatus, type OrderRow } from '../db/schema';
import { logger } from '../logger';
import type { PaymentAftermathEvent } from '../payments/paymentGateway';
import { disputeEmail, refundEmail } from './emails';
import { enqueueEmail } from './outbox';

/**
 * What happens to a payment after it is recorded, as the gateway reports it (issue 32): a refund made outside the
 * shop (Stripe's dashboard) and a dispute (chargeback) and its outcome. The orders that payment paid (their
 * `transactionId` is its intent) carry it: `refundedCents`, `dispute`; the customer is emailed once per
 * change; the admin and the customer see it on the order. Each gateway event is applied once (`gateway_events`,
 * by its id), in the transaction that applies it, so a delivery repeated, or racing another, changes nothing twice.
 * A payment this shop does not hold as an order's (one it refunded itself because its order could not take it,
 * another shop's on the same Stripe account) has no orders: the event is noted and nothing else happens.
 */

/**
 * Spreads a payment's refunded amount over its orders, oldest line first, each up to its total: the orders of a
 * checkout refunded in part show which lines the money covers (as a shop refunds lines), and the shares add up
 * to what the gateway gave back.
 */
export function spreadRefund(group: readonly Pick<OrderRow, 'id' | 'totalCents'>[], refundedCents: number) {
  let left = refundedCents;
  return group.map((order) => {
    const share = Math.max(0, Math.min(order.totalCents, left));
    left -= share;
    return { id: order.id, refundedCents: share };
  });
}

/** A dispute's outcome does not go back to open: a `created` delivered after its `closed` changes nothing. */
const disputeAfter = (now: DisputeStatus | null, reported: DisputeStatus): DisputeStatus =>
  reported === 'open' && now && now !== 'open' ? now : reported;

/**
 * Applies one refund or dispute event of the gateway to the orders its payment paid. Answers whether it changed
 * them (false for a repeated event, an older refund total, or a payment of no order here).
 */
export async function recordPaymentAftermath(db: Db, event: PaymentAftermathEvent): Promise<boolean> {
  const changed = await db.transaction(async (tx) => {
    const fresh = await tx
      .insert(gatewayEvents)
      .values({ id: event.eventId, type: event.name, paymentIntentId: event.intentId })
      .onConflictDoNothing()
      .returning({ id: gatewayEvents.id });
    if (!fresh.length) return null;
    const group = await tx
      .select()
      .from(orders)
      .where(eq(orders.transactionId, event.intentId))
      .orderBy(asc(orders.createdAt), asc(orders.id))
      .for('update');
    if (!group.length) return null;

    const updated: OrderRow[] = [];
    if (event.type === 'refund') {
      // Stripe reports the charge's refunded total so far: a delivery older than one applied already changes nothing.
      const before = group.reduce((sum, o) => sum + o.refundedCents, 0);
      if (event.refundedCents <= before) return null;
      for (const share of spreadRefund(group, event.refundedCents)) {
        if (share.refundedCents === group.find((o) => o.id === share.id)?.refundedCents) continue;
        const [row] = await tx
          .update(orders)
          .set({ refundedCents: share.refundedCents })
          .where(eq(orders.id, share.id))
          .returning();
        updated.push(row);
      }
      const after = group.map((o) => updated.find((u) => u.id === o.id) ?? o);
      const total = after.reduce((sum, o) => sum + o.totalCents, 0);
      await enqueueEmail(
        tx,
        refundEmail({ eventId: event.eventId, transactionId: event.intentId, orders: after, totalCents: total }),
      );
      return { after, refundedCents: event.refundedCents };
    }
    const status = disputeAfter(group[0].dispute, event.status);
    if (group.every((o) => o.dispute === status)) return null;
    const after = await tx
      .update(orders)
      .set({ dispute: status })
      .where(
        inArray(
          orders.id,
          group.map((o) => o.id),
        ),
      )
      .returning();
    await enqueueEmail(
      tx,
      disputeEmail({ eventId: event.eventId, transactionId: event.intentId, orders: after, status }),
    );
    return { after, disputeStatus: status };
  });
  if (!changed) return false;
  logger.warn(event.type === 'refund' ? 'a payment was refunded at the gateway' : 'a payment is disputed', {
    event: event.type === 'refund' ? 'payment_refunded_at_gateway' : 'payment_disputed',
    paymentIntentId: event.intentId,
    gatewayEventId: event.eventId,
    orders: changed.after.map((o) => o.id),
    ...('refundedCents' in changed
      ? { refundedCents: changed.refundedCents }
      : { disputeStatus: changed.disputeStatus }),
  });
  return true;
}
