import Stripe from 'stripe';
import { AppError } from '../errors';
import type { Config } from '../config';
import type { GatewayIntent, PaymentGateway } from './paymentGateway';

const toIntent = (intent: Stripe.PaymentIntent): GatewayIntent => ({
  id: intent.id,
  clientSecret: intent.client_secret ?? '',
  amountCents: intent.amount,
  currency: intent.currency,
  status: intent.status,
  orderId: intent.metadata?.orderId,
});

/** Stripe through its SDK: intents for an order's total, verified by retrieving them, and signed webhooks. */
export function createStripeGateway(settings: NonNullable<Config['stripe']>): PaymentGateway {
  const stripe = new Stripe(settings.secretKey, {
    ...(settings.apiHost ? { host: settings.apiHost } : {}),
    ...(settings.apiPort ? { port: settings.apiPort } : {}),
    ...(settings.apiProtocol ? { protocol: settings.apiProtocol } : {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
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
          metadata: { orderId },
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
      return { type: 'ignored', name: event.type };
    },
  };
}
