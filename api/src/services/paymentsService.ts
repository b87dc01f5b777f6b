import { centsToDollars, formatDollars, maxChargeCents } from '@partsyard/common';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { orders, payments, type OrderRow, type PaymentRow } from '../db/schema';
import { AppError, badInput, conflict, forbidden, notFound, unavailable } from '../errors';
import { describeError, logger } from '../logger';
import type { GatewayIntent, PaymentGateway, RefundReason, TestCard } from '../payments/paymentGateway';
import { holdAccount } from './accountLock';
import { accountNamedBy } from './accountByEmail';
import { requireActor, type Actor } from './actor';
import type { OrdersService } from './ordersService';
import { isId } from './paging';

const currency = 'usd';

/**
 * Payment intent ids as the gateways make them (`pi_...`, `pi_test_...`). Any other string cannot name an
 * intent, so it is answered as unknown without asking the gateway (or the database, which refuses NUL).
 */
const isIntentId = (id: unknown): id is string => typeof id === 'string' && /^pi_\w{1,250}$/.test(id);

const alreadyPaid = 'This order is already paid';

/** Totals no card payment can carry (only orders placed before the shared rules bounded them). */
const unchargeable = {
  free: 'This order has a total of $0.00, so there is nothing to pay: cancel it',
  tooLarge: `This order costs more than ${formatDollars(centsToDollars(maxChargeCents))}, the most one card payment can be: cancel it and order fewer items`,
};

/** What the payer is told when money arrived that its order cannot take: refunded, or refunded later. */
export const unpayableMessages: Record<RefundReason, Record<'refunded' | 'pending', string>> = {
  order_cancelled: {
    refunded: 'This order was cancelled before its payment arrived; the payment has been refunded',
    pending: 'This order was cancelled before its payment arrived; the payment will be refunded',
  },
  duplicate: {
    refunded: `${alreadyPaid}; this second payment has been refunded`,
    pending: `${alreadyPaid}; this second payment will be refunded`,
  },
};

/** A succeeded payment refused because its order cannot take it, with what became of the money. */
class UnpayableError extends AppError {
  constructor(
    reason: RefundReason,
    readonly refund: 'refunded' | 'pending',
  ) {
    super('CONFLICT', unpayableMessages[reason][refund]);
  }
}

/** A payment recorded for its order: `recorded` is whether this call recorded it (false: it was already). */
export interface SettledPayment {
  order: OrderRow;
  recorded: boolean;
}

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
   * A payment that succeeded but cannot pay its order: the order was cancelled (deleted, its stock given
   * back, maybe sold again) before the payment was recorded, or it was paid with another payment. The money
   * is given back at the gateway (idempotent there: the confirmation and the webhook both arriving refund
   * once). Answers the error for the payer; an intent this shop did not create is not refunded (another
   * shop on the same Stripe account), and a refund that fails is logged as an error naming the intent.
   */
  async function refuseUnpayable(intent: GatewayIntent, reason: RefundReason): Promise<AppError> {
    const refused = reason === 'order_cancelled' ? notFound('Order') : conflict(alreadyPaid);
    if (intent.status !== 'succeeded') return refused; // nothing was charged
    const fields = {
      paymentIntentId: intent.id,
      orderId: intent.orderId,
      amountCents: intent.amountCents,
      currency: intent.currency,
      gateway: gateway.kind,
      reason,
    };
    if (!intent.ours) {
      logger.error('a payment succeeded for an order this shop cannot take, on an intent it did not create', fields);
      return refused;
    }
    try {
      const refund = await gateway.refundIntent(intent.id, reason);
      logger.warn('refunded a payment that arrived for an order that could not take it', {
        ...fields,
        refundId: refund.id,
      });
      return new UnpayableError(reason, 'refunded');
    } catch (error) {
      logger.error('a payment for an order that could not take it was not refunded: refund it at the gateway', {
        ...fields,
        ...describeError(error),
      });
      return new UnpayableError(reason, 'pending');
    }
  }

  /**
   * Records a payment for an order once the gateway says its intent succeeded for that order's total.
   * Safe to call any number of times, from the client's confirmation and from the webhook, in any order:
   * the order row is flipped from unpaid once, and the payment row is unique per transaction id.
   * Cancelling takes the same row (its delete waits for this lock, and this lock for its delete), so an
   * order racing a cancel ends either paid or cancelled, never both; a payment that lost is refunded.
   * The owner's account is locked before the order (see accountLock.ts), as deleting the user does.
   */
  async function recordSucceededIntent(intent: GatewayIntent): Promise<SettledPayment> {
    const orderId = intent.orderId;
    if (!orderId || !isId(orderId)) {
      throw badInput({ paymentIntentId: 'The payment is not for an order of this shop' });
    }
    const settled = await db.transaction(async (tx) => {
      const [owner] = await tx.select({ userId: orders.userId }).from(orders).where(eq(orders.id, orderId));
      if (owner?.userId) await holdAccount(tx, owner.userId);
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
      if (!order) return 'order_cancelled' as const;
      if (order.status !== 'unpaid') {
        if (order.transactionId === intent.id) return { order, recorded: false };
        return 'duplicate' as const;
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
      return { order: paid, recorded: true };
    });
    if (typeof settled === 'string') throw await refuseUnpayable(intent, settled);
    return settled;
  }

  /**
   * The client says it paid: the server asks the gateway, and marks the order paid only if the intent
   * succeeded for this order and its total. A payment that arrives for an order cancelled meanwhile, or
   * paid with another payment, is refunded (CONFLICT, saying so).
   */
  async function confirm(actor: Actor | null, orderId: string, intentId: string): Promise<SettledPayment> {
    const retrieve = () => (isIntentId(intentId) ? gateway.retrieveIntent(intentId) : Promise.resolve(null));
    let order: OrderRow;
    try {
      order = await ownOrder(actor, orderId);
    } catch (error) {
      // The order was cancelled while its card was being charged: the money goes back.
      if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
      const intent = await retrieve();
      if (intent?.orderId !== orderId) throw error;
      return recordSucceededIntent(intent);
    }
    if (order.status !== 'unpaid') {
      if (order.transactionId === intentId) return { order, recorded: false };
      const intent = await retrieve();
      if (intent?.orderId === order.id) return recordSucceededIntent(intent); // refunded if it was charged
      throw conflict(alreadyPaid);
    }
    const intent = await retrieve();
    if (!intent) throw badInput({ paymentIntentId: 'No such payment' });
    if (intent.orderId !== order.id) throw badInput({ paymentIntentId: 'The payment is not for this order' });
    return recordSucceededIntent(intent);
  }

  return {
    recordSucceededIntent,

    paymentSettings: () => ({ mode: gateway.kind, publishableKey: gateway.publishableKey }),

    /** Creates an intent at the gateway for the caller's unpaid order's total (the price is never the client's). */
    async createPaymentIntent(actor: Actor | null, orderId: string): Promise<GatewayIntent> {
      const order = await ownOrder(actor, orderId);
      if (order.status !== 'unpaid') throw conflict(alreadyPaid);
      // Orders placed before the shared rules bounded totals: refused with a reason, never sent to the gateway.
      if (order.totalCents < 1) throw conflict(unchargeable.free);
      if (order.totalCents > maxChargeCents) throw conflict(unchargeable.tooLarge);
      return gateway.createIntent({ amountCents: order.totalCents, currency, orderId: order.id, email: order.email });
    },

    /** Pays an intent with a card on the test gateway; the intent must be for the caller's own order. */
    async payWithTestCard(actor: Actor | null, intentId: string, card: TestCard) {
      requireActor(actor);
      if (!gateway.payWithTestCard)
        throw new AppError('BAD_USER_INPUT', 'Card payments go through Stripe in this shop');
      const intent = isIntentId(intentId) ? await gateway.retrieveIntent(intentId) : null;
      if (!intent?.orderId) throw notFound('Payment intent');
      const order = await ownOrder(actor, intent.orderId);
      // A paid order is not charged again through another of its intents (its own intent answers as before).
      if (order.status !== 'unpaid' && order.transactionId !== intentId) throw conflict(alreadyPaid);
      return gateway.payWithTestCard(intentId, card);
    },

    /** The client says it paid (GraphQL confirmPayment): the order, once paid with this intent. */
    async confirmPayment(actor: Actor | null, orderId: string, intentId: string): Promise<OrderRow> {
      return (await confirm(actor, orderId, intentId)).order;
    },

    /** The same, saying whether this call recorded the payment (REST PATCH /order/{id}'s modifiedCount). */
    confirmPaymentOutcome: confirm,

    /**
     * A webhook from the gateway: records succeeded payments, ignores other events. An intent that cannot
     * pay its order is acknowledged (so Stripe stops sending it) once it is refunded; while the refund
     * fails the answer is 503, so Stripe delivers the event again and the refund is tried again.
     */
    async handleWebhook(
      rawBody: Buffer,
      signature: string,
    ): Promise<{ received: true; recorded: boolean; refunded?: true }> {
      const event = gateway.parseWebhook(rawBody, signature);
      if (event.type !== 'payment_intent.succeeded') return { received: true, recorded: false };
      try {
        await recordSucceededIntent(event.intent);
        return { received: true, recorded: true };
      } catch (error) {
        if (error instanceof UnpayableError) {
          if (error.refund === 'refunded') return { received: true, recorded: false, refunded: true };
          throw unavailable('The payment could not be refunded yet; deliver the event again');
        }
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

    /**
     * The payments of the account that holds `email` now: that user themselves, or an admin (the REST shim's
     * /payments/filter). Read by the account's id, never by the email stored on a payment.
     */
    async paymentsByEmail(actor: Actor | null, email: string): Promise<PaymentRow[]> {
      const userId = await accountNamedBy(db, actor, email);
      if (!userId) return [];
      return db
        .select()
        .from(payments)
        .where(eq(payments.userId, userId))
        .orderBy(desc(payments.createdAt))
        .limit(1000);
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
