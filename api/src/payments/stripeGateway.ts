import { createHmac } from 'node:crypto';
import type Stripe from 'stripe';
import { AppError } from '../errors';
import type { Config } from '../config';
import type { GatewayIntent, PaymentGateway } from './paymentGateway';
import { lazyPackage } from '../lazyPackage';

const stripeSdk = lazyPackage<typeof Stripe>('stripe');

/**
 * This deployment's mark on the intents it creates (metadata.shop): derived from its webhook endpoint's
 * secret, which differs per endpoint, so two shops on one Stripe account tell their intents apart. Not the
 * secret itself, and not reversible to it.
 */
export const shopTagOf = (webhookSecret: string): string =>
  createHmac('sha256', webhookSecret).update('partsyard payment intents').digest('hex').slice(0, 24);

/** The id of a Stripe object a field names (expanded or not). */
const idOf = (field: string | { id: string } | null | undefined): string | undefined =>
  typeof field === 'string' ? field : field?.id;

/** Stripe's reasons for a refund: ours, in its words. */
const stripeReason = {
  order_cancelled: 'requested_by_customer',
  order_expired: 'requested_by_customer',
  duplicate: 'duplicate',
  amount_mismatch: 'requested_by_customer',
} as const;

/**
 * Stripe through its SDK: intents for an order's total (tagged as this shop's), verified by retrieving them,
 * signed webhooks, and idempotent refunds.
 */
export function createStripeGateway(settings: NonNullable<Config['stripe']>): PaymentGateway {
  const StripeSdk = stripeSdk();
  const stripe = new StripeSdk(settings.secretKey, {
    ...(settings.apiHost ? { host: settings.apiHost } : {}),
    ...(settings.apiPort ? { port: settings.apiPort } : {}),
    ...(settings.apiProtocol ? { protocol: settings.apiProtocol } : {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
  });
  const shop = shopTagOf(settings.webhookSecret);
  const toIntent = (intent: Stripe.PaymentIntent): GatewayIntent => ({
    id: intent.id,
    clientSecret: intent.client_secret ?? '',
    amountCents: intent.amount,
    currency: intent.currency,
    status: intent.status,
    orderId: intent.metadata?.orderId,
    ours: intent.metadata?.shop === shop,
  });
  return {
    kind: 'stripe',
    publishableKey: settings.publishableKey,
    async createIntent({ amountCents, currency, orderId, email }) {
      const intent = await stripe.paymentIntents.create(
        {
          amount: amountCents,
          currency,
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          receipt_email: email,
          metadata: { orderId, shop },
        },
        // One live intent per order and amount, however often the payment page is opened.
        { idempotencyKey: `order-${orderId}-${amountCents}` },
      );
      return toIntent(intent);
    },
    async retrieveIntent(id) {
      try {
        return toIntent(await stripe.paymentIntents.retrieve(id));
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return null;
        throw error;
      }
    },
    async refundIntent(intentId, reason) {
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: intentId, reason: stripeReason[reason], metadata: { reason } },
          // One refund per intent, however many times it is asked for (the confirmation and the webhook).
          { idempotencyKey: `refund-${intentId}` },
        );
        return { id: refund.id, intentId, amountCents: refund.amount };
      } catch (error) {
        // Refunded already, under a key Stripe no longer remembers (it keeps them 24 hours): answer that refund.
        if ((error as { code?: string }).code !== 'charge_already_refunded') throw error;
        const [earlier] = (await stripe.refunds.list({ payment_intent: intentId, limit: 1 })).data;
        if (!earlier) throw error;
        return { id: earlier.id, intentId, amountCents: earlier.amount };
      }
    },
    async cancelIntent(id) {
      try {
        return toIntent(await stripe.paymentIntents.cancel(id));
      } catch (error) {
        const failure = error as { statusCode?: number; code?: string };
        if (failure.statusCode === 404) return null;
        // Succeeded (or cancelled) meanwhile: answer it as it is now.
        if (failure.code === 'payment_intent_unexpected_state')
          return toIntent(await stripe.paymentIntents.retrieve(id));
        throw error;
      }
    },
    parseWebhook(rawBody, signature) {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, settings.webhookSecret);
      } catch {
        throw new AppError('BAD_USER_INPUT', 'Webhook signature is not valid');
      }
      if (event.type === 'payment_intent.succeeded') {
        return { type: 'payment_intent.succeeded', intent: toIntent(event.data.object) };
      }
      const about = { eventId: event.id, name: event.type };
      if (event.type === 'charge.refunded') {
        const intentId = idOf(event.data.object.payment_intent);
        if (intentId) return { ...about, type: 'refund', intentId, refundedCents: event.data.object.amount_refunded };
      }
      if (event.type === 'charge.dispute.created' || event.type === 'charge.dispute.closed') {
        const dispute = event.data.object;
        const intentId = idOf(dispute.payment_intent);
        // Closed: won by the shop, or an inquiry closed without a chargeback (`warning_closed`); else lost.
        const closed = dispute.status === 'won' || dispute.status === 'warning_closed' ? 'won' : 'lost';
        const status = event.type === 'charge.dispute.created' ? 'open' : closed;
        if (intentId) return { ...about, type: 'dispute', intentId, status };
      }
      return { type: 'ignored', name: event.type };
    },
  };
}
