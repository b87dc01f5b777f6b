import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { orders, payments, type OrderRow, type PaymentRow } from '../db/schema';
import { AppError, badInput, conflict, forbidden, notFound } from '../errors';
import type { GatewayIntent, PaymentGateway, TestCard } from '../payments/paymentGateway';
import { requireActor, requireSelfOrAdmin, type Actor } from './actor';
import { validEmail } from './email';
import type { OrdersService } from './ordersService';

const currency = 'usd';

export function createPaymentsService(deps: { db: Db; gateway: PaymentGateway; orders: OrdersService }) {
  const { db, gateway, orders: ordersService } = deps;

  /** The caller's own order, for paying it (admins do not pay for customers). */
  async function ownOrder(actor: Actor | null, orderId: string): Promise<OrderRow> {
    const caller = requireActor(actor);
    const order = await ordersService.getOrder(caller, orderId);
    if (order.userId !== caller.userId) throw forbidden('You can only pay for your own orders');
    return order;
  }

  /**
   * Records a payment for an order once the gateway says its intent succeeded for that order's total.
   * Safe to call any number of times, from the client's confirmation and from the webhook, in any order:
   * the order row is flipped from unpaid once, and the payment row is unique per transaction id.
   */
  async function recordSucceededIntent(intent: GatewayIntent): Promise<OrderRow> {
    if (!intent.orderId) throw badInput({ paymentIntentId: 'The payment is not for an order of this shop' });
    const orderId = intent.orderId;
    const recorded = await db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
      if (!order) throw notFound('Order');
      if (order.status !== 'unpaid') {
        if (order.transactionId === intent.id) return order;
        throw conflict('This order is already paid');
      }
      if (intent.status !== 'succeeded') throw badInput({ paymentIntentId: 'The payment has not succeeded' });
      if (intent.amountCents !== order.totalCents || intent.currency !== currency) {
        throw badInput({ paymentIntentId: "The payment's amount does not match the order's total" });
      }
      const [paid] = await tx
        .update(orders)
        .set({ status: 'paid', transactionId: intent.id, paidAt: new Date() })
        .where(and(eq(orders.id, orderId), eq(orders.status, 'unpaid')))
        .returning();
      await tx
        .insert(payments)
        .values({
          orderId,
          userId: order.userId,
          email: order.email,
          partId: order.partId,
          partName: order.partName,
          transactionId: intent.id,
          amountCents: intent.amountCents,
          gateway: gateway.kind,
        })
        .onConflictDoNothing();
      return paid;
    });
    return recorded;
  }

  return {
    recordSucceededIntent,

    paymentSettings: () => ({ mode: gateway.kind, publishableKey: gateway.publishableKey }),

    /** Creates an intent at the gateway for the caller's unpaid order's total (the price is never the client's). */
    async createPaymentIntent(actor: Actor | null, orderId: string): Promise<GatewayIntent> {
      const order = await ownOrder(actor, orderId);
      if (order.status !== 'unpaid') throw conflict('This order is already paid');
      return gateway.createIntent({ amountCents: order.totalCents, currency, orderId: order.id, email: order.email });
    },

    /** Pays an intent with a card on the test gateway; the intent must be for the caller's own order. */
    async payWithTestCard(actor: Actor | null, intentId: string, card: TestCard) {
      requireActor(actor);
      if (!gateway.payWithTestCard)
        throw new AppError('BAD_USER_INPUT', 'Card payments go through Stripe in this shop');
      const intent = await gateway.retrieveIntent(intentId);
      if (!intent?.orderId) throw notFound('Payment intent');
      const order = await ownOrder(actor, intent.orderId);
      // A paid order is not charged again through another of its intents (its own intent answers as before).
      if (order.status !== 'unpaid' && order.transactionId !== intentId) throw conflict('This order is already paid');
      return gateway.payWithTestCard(intentId, card);
    },

    /**
     * The client says it paid: the server asks the gateway, and marks the order paid only if the intent
     * succeeded for this order and its total.
     */
    async confirmPayment(actor: Actor | null, orderId: string, intentId: string): Promise<OrderRow> {
      const order = await ownOrder(actor, orderId);
      if (order.status !== 'unpaid') {
        if (order.transactionId === intentId) return order;
        throw conflict('This order is already paid');
      }
      const intent =
        typeof intentId === 'string' && intentId.length <= 255 ? await gateway.retrieveIntent(intentId) : null;
      if (!intent) throw badInput({ paymentIntentId: 'No such payment' });
      if (intent.orderId !== order.id) throw badInput({ paymentIntentId: 'The payment is not for this order' });
      return recordSucceededIntent(intent);
    },

    /** A webhook from the gateway: records succeeded payments, ignores other events. */
    async handleWebhook(rawBody: Buffer, signature: string): Promise<{ received: true; recorded: boolean }> {
      const event = gateway.parseWebhook(rawBody, signature);
      if (event.type !== 'payment_intent.succeeded') return { received: true, recorded: false };
      try {
        await recordSucceededIntent(event.intent);
        return { received: true, recorded: true };
      } catch (error) {
        // An intent for an order that is gone or was paid otherwise is acknowledged, so Stripe stops retrying.
        if (error instanceof AppError && error.code !== 'UNAUTHENTICATED') return { received: true, recorded: false };
        throw error;
      }
    },

    async myPayments(actor: Actor | null): Promise<PaymentRow[]> {
      const { userId } = requireActor(actor);
      return db
        .select()
        .from(payments)
        .where(eq(payments.userId, userId))
        .orderBy(desc(payments.createdAt))
        .limit(1000);
    },

    /** Payments made with an email: that user themselves, or an admin (the REST shim's /payments/filter). */
    async paymentsByEmail(actor: Actor | null, email: string): Promise<PaymentRow[]> {
      requireSelfOrAdmin(actor, email);
      return db
        .select()
        .from(payments)
        .where(eq(payments.email, validEmail(email)))
        .orderBy(desc(payments.createdAt))
        .limit(1000);
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
