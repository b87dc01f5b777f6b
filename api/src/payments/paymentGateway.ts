/** A payment intent as the gateway reports it. */
export interface GatewayIntent {
  id: string;
  clientSecret: string;
  amountCents: number;
  currency: string;
  /** Stripe's status words; only 'succeeded' means paid. */
  status: string;
  /** The order the intent was created for (kept in the intent's metadata). */
  orderId: string | undefined;
}

/** An event the gateway pushed to our webhook, once its signature has been checked. */
export type GatewayEvent =
  { type: 'payment_intent.succeeded'; intent: GatewayIntent } | { type: 'ignored'; name: string };

/** A card typed into the test gateway's own form. */
export interface TestCard {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export interface CardPaymentOutcome {
  succeeded: boolean;
  paymentIntentId: string;
  error: string | null;
}

/** Where the money goes: Stripe, or the built-in test gateway. Chosen by configuration. */
export interface PaymentGateway {
  kind: 'test' | 'stripe';
  /** Stripe's publishable key, for the web's Stripe Elements. */
  publishableKey: string | null;
  createIntent(args: { amountCents: number; currency: string; orderId: string; email: string }): Promise<GatewayIntent>;
  /** The intent as the gateway knows it now, or null when it has no such intent. */
  retrieveIntent(id: string): Promise<GatewayIntent | null>;
  /** Checks a webhook's signature and reads its event; throws when the signature is not valid. */
  parseWebhook(rawBody: Buffer, signature: string): GatewayEvent;
  /** Charges a card against an intent (test gateway only). */
  payWithTestCard?(intentId: string, card: TestCard): Promise<CardPaymentOutcome>;
}
