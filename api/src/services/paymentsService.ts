import { centsToDollars, dollarsToCents, formatDollars, maxChargeCents } from '@partsyard/common';
import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { orders, payments, type GatewayIntentRow, type OrderRow, type PaymentRow } from '../db/schema';
import { AppError, badInput, conflict, notFound, unavailable } from '../errors';
import { describeError, logger } from '../logger';
import type { GatewayIntent, PaymentGateway, RefundReason, TestCard } from '../payments/paymentGateway';
import { holdAccount } from './accountLock';
import { accountNamedBy } from './accountByEmail';
import type { RateLimiter } from '../rateLimits';
import type { Actor } from './actor';
import { authorize, type SignedInOperation } from './rights';
import { receiptEmail } from './emails';
import { expireDueOrdersIn, logExpired } from './expiry';
import { enqueueEmail } from './outbox';
import { recordPaymentAftermath } from './refunds';
import {
  checkAgain,
  claimDueIntents,
  intentOwner,
  noteCreated,
  noteSucceeded,
  openIntentId,
  settleIntent,
} from './intentLedger';
import { alreadyPaidMessage, notPayableMessage, orderExpiredMessage, type OrdersService } from './ordersService';
import { isId } from './paging';

const currency = 'usd';

/**
 * Payment intent ids as the gateways make them (`pi_...`, `pi_test_...`). Any other string cannot name an
 * intent, so it is answered as unknown without asking the gateway (or the database, which refuses NUL).
 */
const isIntentId = (id: unknown): id is string => typeof id === 'string' && /^pi_\w{1,250}$/.test(id);

const alreadyPaid = alreadyPaidMessage;
const amountMismatch = "The payment's amount does not match the order's total";

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
  order_expired: {
    refunded:
      'This order expired before its payment arrived and its items went back on sale; the payment has been refunded',
    pending:
      'This order expired before its payment arrived and its items went back on sale; the payment will be refunded',
  },
  duplicate: {
    refunded: `${alreadyPaid}; this second payment has been refunded`,
    pending: `${alreadyPaid}; this second payment will be refunded`,
  },
  amount_mismatch: {
    refunded: `${amountMismatch}; the payment has been refunded`,
    pending: `${amountMismatch}; the payment will be refunded`,
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
  /** Every order the payment paid: the one order, or all of its checkout's. */
  orders: OrderRow[];
  recorded: boolean;
}

/** How the shop learnt about a payment: the payer's confirmation, the gateway's webhook, or its own sweep. */
export type PaymentChannel = 'confirmation' | 'webhook' | 'reconciliation' | 'test card';

/** What one reconciliation sweep did. */
export interface ReconciliationOutcome {
  checked: number;
  recorded: number;
  refunded: number;
  canceled: number;
}

/** How many open intents one sweep asks the gateway about at most (each is a request to it). */
const reconcileBatch = 50;

export function createPaymentsService(deps: {
  db: Db;
  gateway: PaymentGateway;
  orders: OrdersService;
  rateLimits: RateLimiter;
}) {
  const { db, gateway, orders: ordersService, rateLimits } = deps;

  /**
   * One structured log line per money event (intent created, succeeded, recorded, refunded, mismatched): the
   * order, the intent and the amounts, never a card, a client secret or a key.
   */
  const money = (
    event: 'payment_intent_created' | 'payment_succeeded' | 'payment_recorded' | 'payment_refunded',
    intent: GatewayIntent,
    fields: Record<string, unknown> = {},
  ) =>
    logger.info(event.replace(/_/g, ' '), {
      event,
      orderId: intent.orderId,
      paymentIntentId: intent.id,
      amountCents: intent.amountCents,
      currency: intent.currency,
      gateway: gateway.kind,
      ...fields,
    });
  const mismatched = (intent: GatewayIntent, order: Pick<OrderRow, 'id' | 'totalCents'>, via: PaymentChannel) =>
    logger.error('a payment succeeded for another amount than its order’s total', {
      event: 'payment_mismatched',
      orderId: order.id,
      paymentIntentId: intent.id,
      amountCents: intent.amountCents,
      currency: intent.currency,
      orderTotalCents: order.totalCents,
      orderCurrency: currency,
      gateway: gateway.kind,
      via,
    });
  const isMismatch = (intent: GatewayIntent, order: Pick<OrderRow, 'totalCents'>) =>
    intent.amountCents !== order.totalCents || intent.currency !== currency;

  /**
   * What one payment pays: an order placed alone (the intent's `orderId` is the order's id), or every order
   * of a checkout (the intent's `orderId` is the checkout id, the orders share it): `key` is that id, `total`
   * the sum. Issue 14: a checkout is paid with ONE intent for the sum, and each of its orders records it.
   */
  const payableKey = (order: OrderRow) => order.checkoutId ?? order.id;
  const inGroup = (key: string) => or(eq(orders.id, key), eq(orders.checkoutId, key));
  const groupTotal = (group: readonly OrderRow[]) => ({
    id: group[0]?.checkoutId ?? group[0]?.id ?? '',
    totalCents: group.reduce((sum, o) => sum + o.totalCents, 0),
  });
  async function groupOf(order: OrderRow): Promise<OrderRow[]> {
    if (!order.checkoutId) return [order];
    return db.select().from(orders).where(eq(orders.checkoutId, order.checkoutId)).orderBy(orders.createdAt, orders.id);
  }

  /** The caller's own order, for paying it (admins do not pay for customers). */
  function ownOrder(operation: SignedInOperation, actor: Actor | null, orderId: string): Promise<OrderRow> {
    return ordersService.orderFor(operation, actor, orderId, 'You can only pay for your own orders');
  }

  /**
   * A payment that succeeded but cannot pay its order: the order was cancelled (deleted, its stock given
   * back, maybe sold again) or expired before the payment was recorded, it was paid with another payment, or
   * the amount is not its total. The money is given back at the gateway (idempotent there: the confirmation,
   * the webhook and the reconciliation all arriving refund once). Answers the error for the payer; an intent
   * this shop did not create is not refunded (another shop on the same Stripe account), and a refund that
   * fails is logged as an error naming the intent and tried again by the reconciliation sweep.
   */
  async function refuseUnpayable(intent: GatewayIntent, reason: RefundReason, via: PaymentChannel): Promise<AppError> {
    const refused = {
      order_cancelled: () => notFound('Order'),
      order_expired: () => conflict(orderExpiredMessage),
      duplicate: () => conflict(alreadyPaid),
      amount_mismatch: () => badInput({ paymentIntentId: amountMismatch }),
    }[reason]();
    if (intent.status !== 'succeeded') return refused; // nothing was charged
    const fields = {
      paymentIntentId: intent.id,
      orderId: intent.orderId,
      amountCents: intent.amountCents,
      currency: intent.currency,
      gateway: gateway.kind,
      reason,
      via,
    };
    if (!intent.ours || !intent.orderId) {
      logger.error('a payment succeeded for an order this shop cannot take, on an intent it did not create', fields);
      return refused;
    }
    try {
      const refund = await gateway.refundIntent(intent.id, reason);
      if (await settleIntent(db, intent, gateway.kind, intent.orderId, 'refunded')) {
        logger.warn('payment refunded', {
          event: 'payment_refunded',
          ...fields,
          refundId: refund.id,
          refundedCents: refund.amountCents,
        });
      }
      return new UnpayableError(reason, 'refunded');
    } catch (error) {
      logger.error('a payment for an order that could not take it was not refunded: refund it at the gateway', {
        event: 'payment_refund_failed',
        ...fields,
        ...describeError(error),
      });
      // The reconciliation sweep tries again in a minute (and again after, until it is refunded).
      await checkAgain(db, intent.id, sql`now() + interval '1 minute'`).catch(() => undefined);
      return new UnpayableError(reason, 'pending');
    }
  }

  /**
   * Records a payment for an order once the gateway says its intent succeeded for that order's total.
   * Safe to call any number of times, from the client's confirmation, the webhook and the reconciliation
   * sweep, in any order: the order row is flipped from unpaid once, and the payment row is unique per
   * transaction id. Cancelling and the expiry take the same row (the cancel's delete waits for this lock, the
   * sweep skips it, and this waits for them), so an order racing a cancel or its expiry ends either paid or
   * cancelled/expired, never both; a payment that lost is refunded. An order found due here is expired here.
   * The owner's account is locked before the order (see accountLock.ts), as deleting the user does.
   * `payer`: the caller, when the payment is confirmed by an id that named no order of theirs (see confirm).
   */
  async function recordSucceededIntent(
    intent: GatewayIntent,
    via: PaymentChannel = 'confirmation',
    payer?: Actor,
  ): Promise<SettledPayment> {
    // The order's id, or a checkout's id (every order of the checkout is paid by it).
    const orderId = intent.orderId;
    if (!orderId || !isId(orderId)) {
      throw badInput({ paymentIntentId: 'The payment is not for an order of this shop' });
    }
    const afterCommit: (() => void)[] = [];
    const settled = await db.transaction(async (tx) => {
      const [owner] = await tx.select({ userId: orders.userId }).from(orders).where(inGroup(orderId)).limit(1);
      if (owner?.userId) await holdAccount(tx, owner.userId);
      // Every order of the group is locked (in id order, as the sweep and the cancel lock theirs).
      let group = await tx.select().from(orders).where(inGroup(orderId)).orderBy(orders.id).for('update');
      // The owner right, for a payer who named a checkout or an order that is gone: only the owner of what the
      // intent pays (its orders' owner, or the ledger's once they are gone) goes on; anyone else is answered as
      // for an unknown id, before anything is written (issue 32).
      if (payer) {
        const ownerId = group.length ? group[0].userId : await intentOwner(tx, intent.id);
        if (!ownerId || ownerId !== payer.userId) throw notFound('Order');
      }
      if (group.some((o) => o.status === 'unpaid')) {
        const expired = await expireDueOrdersIn(tx, inGroup(orderId), group.length);
        if (expired.length) {
          const byId = new Map(expired.map((o) => [o.id, o]));
          group = group.map((o) => byId.get(o.id) ?? o);
          afterCommit.push(() => logExpired(expired));
        }
      }
      const sum = groupTotal(group);
      if (intent.status === 'succeeded' && intent.ours && (await noteSucceeded(tx, intent, gateway.kind, orderId))) {
        afterCommit.push(() => money('payment_succeeded', intent, { via }));
        if (group.length && isMismatch(intent, sum)) afterCommit.push(() => mismatched(intent, sum, via));
      }
      if (!group.length) return 'order_cancelled' as const;
      if (group.some((o) => o.status === 'expired')) return 'order_expired' as const;
      if (group.some((o) => o.status !== 'unpaid')) {
        if (group.some((o) => o.transactionId !== intent.id)) return 'duplicate' as const;
        if (intent.ours) await settleIntent(tx, intent, gateway.kind, orderId, 'recorded');
        return { order: group[0], orders: group, recorded: false };
      }
      if (intent.status !== 'succeeded') throw badInput({ paymentIntentId: 'The payment has not succeeded' });
      if (isMismatch(intent, sum)) return 'amount_mismatch' as const;
      const paid = await tx
        .update(orders)
        .set({ status: 'paid', transactionId: intent.id, paidAt: new Date() })
        .where(
          and(
            inArray(
              orders.id,
              group.map((o) => o.id),
            ),
            eq(orders.status, 'unpaid'),
          ),
        )
        .returning();
      // One payment row per order (each names its part), all with the one transaction id; together they add
      // up to what the intent charged.
      await tx
        .insert(payments)
        .values(
          paid.map((order) => ({
            orderId: order.id,
            userId: order.userId,
            email: order.email,
            partId: order.partId,
            partName: order.partName,
            transactionId: intent.id,
            amountCents: order.totalCents,
            gateway: gateway.kind,
            checkoutId: order.checkoutId,
          })),
        )
        .onConflictDoNothing();
      if (intent.ours) await settleIntent(tx, intent, gateway.kind, orderId, 'recorded');
      // One receipt for everything this payment paid (the orders of a checkout, or the one order), written with it.
      if (paid[0]?.userId) {
        await enqueueEmail(
          tx,
          receiptEmail({ transactionId: intent.id, orders: paid, paidAt: paid[0].paidAt ?? undefined }),
        );
      }
      afterCommit.push(() =>
        money('payment_recorded', intent, {
          orderTotalCents: sum.totalCents,
          via,
          ...(group[0].checkoutId ? { checkoutId: group[0].checkoutId, orders: paid.length } : {}),
        }),
      );
      const position = new Map(group.map((o, i) => [o.id, i]));
      paid.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
      return { order: paid[0], orders: paid, recorded: true };
    });
    for (const line of afterCommit) line();
    if (typeof settled === 'string') throw await refuseUnpayable(intent, settled, via);
    return settled;
  }

  /**
   * The client says it paid: the server asks the gateway, and marks the order paid only if the intent
   * succeeded for this order and its total. A payment that arrives for an order cancelled or expired
   * meanwhile, or paid with another payment, or for another amount, is refunded (CONFLICT, saying so).
   */
  async function confirm(actor: Actor | null, orderId: string, intentId: string): Promise<SettledPayment> {
    const retrieve = () => (isIntentId(intentId) ? gateway.retrieveIntent(intentId) : Promise.resolve(null));
    let order: OrderRow;
    try {
      order = await ownOrder('payments.confirmPayment', actor, orderId);
    } catch (error) {
      // No such order: it was cancelled while its card was being charged (the money goes back), or the id is a
      // checkout's (its orders are paid). Either only for the owner of what the intent pays.
      if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
      const payer = authorize('payments.confirmPayment', actor);
      const intent = await retrieve();
      if (intent?.orderId !== orderId) throw error;
      return recordSucceededIntent(intent, 'confirmation', payer);
    }
    if (order.status !== 'unpaid') {
      if (order.transactionId === intentId) return { order, orders: await groupOf(order), recorded: false };
      const intent = await retrieve();
      // Refunded if it was charged (its order expired, or is paid with another payment).
      if (intent?.orderId === payableKey(order)) return recordSucceededIntent(intent, 'confirmation');
      throw conflict(notPayableMessage(order.status));
    }
    const intent = await retrieve();
    if (!intent) throw badInput({ paymentIntentId: 'No such payment' });
    if (intent.orderId !== payableKey(order)) throw badInput({ paymentIntentId: 'The payment is not for this order' });
    return recordSucceededIntent(intent, 'confirmation');
  }

  /**
   * The intent already open for what `key` pays, for its owner and this total, if the gateway can still take a
   * card for it: opening the payment page again hands it again instead of making another (issue 32). One the
   * gateway has cancelled or forgotten is settled so; one that has succeeded meanwhile is recorded, and the caller
   * is told the order is paid.
   */
  async function openIntentFor(key: string, userId: string, totalCents: number): Promise<GatewayIntent | null> {
    const id = await openIntentId(db, gateway.kind, key, userId, totalCents);
    if (!id) return null;
    const intent = await gateway.retrieveIntent(id);
    if (intent?.status === 'succeeded') {
      await recordSucceededIntent(intent, 'confirmation');
      throw conflict(alreadyPaid);
    }
    if (!intent || intent.status === 'canceled') {
      const known = { id, clientSecret: '', amountCents: totalCents, currency, status: 'canceled', orderId: key };
      await settleIntent(db, { ...known, ours: true }, gateway.kind, key, 'canceled');
      return null;
    }
    return intent.orderId === key && !isMismatch(intent, { totalCents }) ? intent : null;
  }

  /**
   * Asks the gateway about one open intent of this shop and settles it: recorded for its order if it succeeded
   * and the order can still take it, else refunded; cancelled at the gateway if it was never charged and its
   * order can no longer be paid; left open (asked again later) while its order may still be paid.
   */
  async function reconcileIntent(row: GatewayIntentRow, outcome: ReconciliationOutcome): Promise<void> {
    const settleSucceeded = async (intent: GatewayIntent) => {
      try {
        if ((await recordSucceededIntent(intent, 'reconciliation')).recorded) outcome.recorded += 1;
      } catch (error) {
        if (error instanceof UnpayableError && error.refund === 'refunded') outcome.refunded += 1;
        else if (!(error instanceof AppError)) throw error;
        // A refund still pending is asked about again (refuseUnpayable set when).
      }
    };
    const intent = await gateway.retrieveIntent(row.id);
    const known = intent ?? {
      id: row.id,
      clientSecret: '',
      amountCents: row.amountCents,
      currency: row.currency,
      status: 'canceled',
      orderId: row.orderId,
      ours: true,
    };
    if (intent?.status === 'succeeded') return settleSucceeded(intent);
    if (!intent || intent.status === 'canceled') {
      if (await settleIntent(db, known, gateway.kind, row.orderId, 'canceled')) outcome.canceled += 1;
      return;
    }
    const [order] = await db
      .select({ status: orders.status, expiresAt: orders.expiresAt })
      .from(orders)
      .where(and(inGroup(row.orderId), eq(orders.status, 'unpaid')))
      .orderBy(orders.expiresAt)
      .limit(1);
    if (order?.status === 'unpaid') {
      // Its order may still be paid with it: asked again in five minutes, or when the order expires.
      await checkAgain(db, row.id, sql`least(now() + interval '5 minutes', ${order.expiresAt})`);
      return;
    }
    // Its order is gone, expired or paid otherwise: nobody may pay this intent any more.
    const after = await gateway.cancelIntent(row.id);
    if (after?.status === 'succeeded') return settleSucceeded(after);
    if (!after || after.status === 'canceled') {
      if (await settleIntent(db, after ?? known, gateway.kind, row.orderId, 'canceled')) outcome.canceled += 1;
    }
    // Anything else (processing at the gateway): asked again when the claim's lease runs out.
  }

  return {
    recordSucceededIntent,

    paymentSettings: () => ({ mode: gateway.kind, publishableKey: gateway.publishableKey }),

    /**
     * An intent at the gateway for the caller's unpaid order's total (the price is never the client's): the one
     * still open for it, or a new one. An expired order, or one due to expire (expired here), is refused with 409.
     * Each call counts against the caller's RATE_LIMIT_PAYMENT_INTENTS (each may ask the gateway).
     */
    async createPaymentIntent(
      actor: Actor | null,
      orderId: string,
      { expectedPrice }: { expectedPrice?: number } = {},
    ): Promise<GatewayIntent> {
      await rateLimits.paymentIntentBy(authorize('payments.createPaymentIntent', actor).userId);
      const order = await ownOrder('payments.createPaymentIntent', actor, orderId);
      // An order of a checkout is paid with all the others of it: one intent for the sum.
      const group = await groupOf(order);
      for (const one of group) await ordersService.requirePayable(one);
      const { totalCents } = groupTotal(group);
      // The REST shim's client sends the price it shows: a stale or altered one is refused, not charged.
      if (expectedPrice !== undefined && dollarsToCents(expectedPrice) !== totalCents) {
        throw badInput({ price: "The price does not match the order's total" });
      }
      // Orders placed before the shared rules bounded totals: refused with a reason, never sent to the gateway.
      if (totalCents < 1) throw conflict(unchargeable.free);
      if (totalCents > maxChargeCents) throw conflict(unchargeable.tooLarge);
      const key = payableKey(order);
      const open = order.userId ? await openIntentFor(key, order.userId, totalCents) : null;
      if (open) return open;
      const intent = await gateway.createIntent({
        amountCents: totalCents,
        currency,
        orderId: key,
        email: order.email,
      });
      if (await noteCreated(db, intent, gateway.kind, key, order.userId)) {
        money('payment_intent_created', intent, { orderTotalCents: totalCents });
      }
      return intent;
    },

    /** Pays an intent with a card on the test gateway; the intent must be for the caller's own, payable order. */
    async payWithTestCard(actor: Actor | null, intentId: string, card: TestCard) {
      authorize('payments.payWithTestCard', actor);
      if (!gateway.payWithTestCard)
        throw new AppError('BAD_USER_INPUT', 'Card payments go through Stripe in this shop');
      const intent = isIntentId(intentId) ? await gateway.retrieveIntent(intentId) : null;
      if (!intent?.orderId || !isId(intent.orderId)) throw notFound('Payment intent');
      // The intent's order, or the first order of its checkout (every order of it is the caller's).
      const [first] = await db.select({ id: orders.id }).from(orders).where(inGroup(intent.orderId)).limit(1);
      if (!first) throw notFound('Order');
      const order = await ownOrder('payments.payWithTestCard', actor, first.id);
      // A paid order is not charged again through another of its intents (its own intent answers as before);
      // an expired one is not charged at all.
      if (order.status !== 'unpaid' && order.transactionId === intentId) {
        return gateway.payWithTestCard(intentId, card);
      }
      const group = await groupOf(order);
      for (const one of group) await ordersService.requirePayable(one);
      const outcome = await gateway.payWithTestCard(intentId, card);
      if (outcome.succeeded) {
        const charged: GatewayIntent = { ...intent, status: 'succeeded' };
        const sum = groupTotal(group);
        if (await noteSucceeded(db, charged, gateway.kind, intent.orderId)) {
          money('payment_succeeded', charged, { via: 'test card' });
          if (isMismatch(charged, sum)) mismatched(charged, sum, 'test card');
        }
      }
      return outcome;
    },

    /** The client says it paid (GraphQL confirmPayment): the order, once paid with this intent. */
    async confirmPayment(actor: Actor | null, orderId: string, intentId: string): Promise<OrderRow> {
      const settled = await confirm(actor, orderId, intentId);
      return settled.orders.find((o) => o.id === orderId) ?? settled.order;
    },

    /** The same, saying whether this call recorded the payment (REST PATCH /order/{id}'s modifiedCount). */
    confirmPaymentOutcome: confirm,

    /**
     * A webhook from the gateway: records succeeded payments, and refunds and disputes of recorded ones
     * (refunds.ts), ignores other events. `recorded` is true only when this delivery recorded the payment or
     * changed its orders (a replay answers false). An intent that cannot pay its order
     * (cancelled, expired, paid otherwise, another amount) is acknowledged (so Stripe stops sending it) once it
     * is refunded; while the refund fails the answer is 503, so Stripe delivers the event again and the refund
     * is tried again.
     */
    async handleWebhook(
      rawBody: Buffer,
      signature: string,
    ): Promise<{ received: true; recorded: boolean; refunded?: true }> {
      const event = gateway.parseWebhook(rawBody, signature);
      if (event.type === 'refund' || event.type === 'dispute') {
        return { received: true, recorded: await recordPaymentAftermath(db, event) };
      }
      if (event.type !== 'payment_intent.succeeded') return { received: true, recorded: false };
      try {
        const { recorded } = await recordSucceededIntent(event.intent, 'webhook');
        return { received: true, recorded };
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

    /**
     * The reconciliation sweep: asks the gateway about this shop's open intents that are due (a charge whose
     * payer never came back to confirm, an intent of an order that expired or was cancelled, a refund that
     * failed) and records, refunds or cancels them. Safe on any number of replicas at once: each intent is
     * claimed by one of them (see claimDueIntents). Answers what it did.
     */
    async reconcile({ batch = reconcileBatch }: { batch?: number } = {}): Promise<ReconciliationOutcome> {
      const outcome: ReconciliationOutcome = { checked: 0, recorded: 0, refunded: 0, canceled: 0 };
      const claimed = await claimDueIntents(db, gateway.kind, batch);
      for (const row of claimed) {
        outcome.checked += 1;
        try {
          await reconcileIntent(row, outcome);
        } catch (error) {
          // The gateway or the database failed on this one: it is asked again once its claim runs out.
          logger.warn('reconciliation could not settle a payment intent yet', {
            paymentIntentId: row.id,
            orderId: row.orderId,
            ...describeError(error),
          });
        }
      }
      return outcome;
    },

    async myPayments(actor: Actor | null): Promise<PaymentRow[]> {
      const { userId } = authorize('payments.myPayments', actor);
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
      const userId = await accountNamedBy(db, 'payments.paymentsByEmail', actor, email);
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
