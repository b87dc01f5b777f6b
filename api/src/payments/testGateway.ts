import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/database';
import { testPaymentIntents, type TestPaymentIntentRow } from '../db/schema';
import { AppError } from '../errors';
import type { GatewayIntent, PaymentGateway } from './paymentGateway';
import { testCardDecision } from './testCards';

/** What Stripe.js says when a cancelled intent is paid. */
const canceled = 'This payment was canceled.';

const toIntent = (row: TestPaymentIntentRow): GatewayIntent => ({
  id: row.id,
  clientSecret: row.clientSecret,
  amountCents: row.amountCents,
  currency: row.currency,
  status: row.status,
  orderId: row.orderId,
  ours: true,
});

/**
 * The built-in gateway of the embedded default: intents live in our database and are paid with Stripe's
 * test card numbers, answering as Stripe does. No money moves.
 */
export function createTestGateway(db: Db): PaymentGateway {
  return {
    kind: 'test',
    publishableKey: null,
    async createIntent({ amountCents, currency, orderId }) {
      const id = `pi_test_${randomBytes(12).toString('hex')}`;
      const [row] = await db
        .insert(testPaymentIntents)
        .values({ id, clientSecret: `${id}_secret_${randomBytes(12).toString('hex')}`, amountCents, currency, orderId })
        .returning();
      return toIntent(row);
    },
    async retrieveIntent(id) {
      const [row] = await db.select().from(testPaymentIntents).where(eq(testPaymentIntents.id, id));
      return row ? toIntent(row) : null;
    },
    async refundIntent(intentId) {
      // Marks the intent refunded once; asked again, it answers the same refund.
      await db
        .update(testPaymentIntents)
        .set({ refundedAt: new Date(), updatedAt: new Date() })
        .where(
          and(
            eq(testPaymentIntents.id, intentId),
            eq(testPaymentIntents.status, 'succeeded'),
            isNull(testPaymentIntents.refundedAt),
          ),
        );
      const [intent] = await db.select().from(testPaymentIntents).where(eq(testPaymentIntents.id, intentId));
      if (!intent) throw new AppError('NOT_FOUND', 'Payment intent not found');
      if (!intent.refundedAt) throw new AppError('BAD_USER_INPUT', 'This payment has not succeeded: nothing to refund');
      return { id: `re_${intent.id.slice('pi_'.length)}`, intentId, amountCents: intent.amountCents };
    },
    async cancelIntent(intentId) {
      await db
        .update(testPaymentIntents)
        .set({ status: 'canceled', updatedAt: new Date() })
        .where(and(eq(testPaymentIntents.id, intentId), eq(testPaymentIntents.status, 'requires_payment_method')));
      const [row] = await db.select().from(testPaymentIntents).where(eq(testPaymentIntents.id, intentId));
      return row ? toIntent(row) : null;
    },
    parseWebhook() {
      throw new AppError('NOT_FOUND', 'The test gateway sends no webhooks');
    },
    async payWithTestCard(intentId, card) {
      const [intent] = await db.select().from(testPaymentIntents).where(eq(testPaymentIntents.id, intentId));
      if (!intent) throw new AppError('NOT_FOUND', 'Payment intent not found');
      if (intent.status === 'succeeded') return { succeeded: true, paymentIntentId: intentId, error: null };
      if (intent.status === 'canceled') return { succeeded: false, paymentIntentId: intentId, error: canceled };
      const error = testCardDecision(card);
      const changed = await db
        .update(testPaymentIntents)
        .set(
          error
            ? { lastError: error, updatedAt: new Date() }
            : { status: 'succeeded', lastError: null, updatedAt: new Date() },
        )
        .where(and(eq(testPaymentIntents.id, intentId), eq(testPaymentIntents.status, 'requires_payment_method')))
        .returning({ id: testPaymentIntents.id });
      // Cancelled (its order expired) or paid by another request since it was read: answer what it is now.
      if (!changed.length) {
        const [now] = await db.select().from(testPaymentIntents).where(eq(testPaymentIntents.id, intentId));
        if (now?.status === 'succeeded') return { succeeded: true, paymentIntentId: intentId, error: null };
        if (now?.status === 'canceled') return { succeeded: false, paymentIntentId: intentId, error: canceled };
      }
      return { succeeded: !error, paymentIntentId: intentId, error };
    },
  };
}
