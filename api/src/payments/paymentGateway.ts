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
  /**
   * Created by this shop (Stripe: its metadata carries this deployment's tag; test gateway: always). Only
   * such an intent is ever refunded automatically: a Stripe account's events reach every endpoint on it,
   * and another deployment's payment for an order this one does not have is not ours to give back.
   */
  ours: boolean;
}

/**
 * What the gateway reports about a payment after it was made (issue 32): `eventId` is the gateway's id of the event
 * (each is applied once), `name` its type there, `intentId` the payment.
 * - refund: the charge's refunded total so far, in cents (Stripe `charge.refunded`);
 * - dispute: a dispute opened (`charge.dispute.created`) or closed won or lost (`charge.dispute.closed`).
 */
export type PaymentAftermathEvent = { eventId: string; name: string; intentId: string } & (
  { type: 'refund'; refundedCents: number } | { type: 'dispute'; status: 'open' | 'won' | 'lost' }
);

/** An event the gateway pushed to our webhook, once its signature has been checked. */
export type GatewayEvent =
  | { type: 'payment_intent.succeeded'; intent: GatewayIntent }
  | PaymentAftermathEvent
  | { type: 'ignored'; name: string };

/** A card typed into the test gateway's own form. */
export interface TestCard {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/**
 * Why a payment is given back: its order was cancelled first, or it expired first, or the order was paid with
 * another payment, or the amount charged is not the order's total.
 */
export type RefundReason = 'order_cancelled' | 'order_expired' | 'duplicate' | 'amount_mismatch';

export interface GatewayRefund {
  id: string;
  intentId: string;
  amountCents: number;
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
  /**
   * Gives back the whole amount of a succeeded intent. Idempotent: asked again (by the client's confirmation
   * and the webhook both, or a retry) it answers the same refund and never refunds twice. Throws when the
   * gateway cannot do it now.
   */
  refundIntent(intentId: string, reason: RefundReason): Promise<GatewayRefund>;
  /**
   * Cancels an intent that has not been charged, so that it cannot be paid any more (its order expired or was
   * cancelled). Answers the intent as it is afterwards: `canceled`, or still `succeeded` (or `processing`) when
   * the charge got there first; null when the gateway has no such intent.
   */
  cancelIntent(intentId: string): Promise<GatewayIntent | null>;
  /** Checks a webhook's signature and reads its event; throws when the signature is not valid. */
  parseWebhook(rawBody: Buffer, signature: string): GatewayEvent;
  /** Charges a card against an intent (test gateway only). */
  payWithTestCard?(intentId: string, card: TestCard): Promise<CardPaymentOutcome>;
}
