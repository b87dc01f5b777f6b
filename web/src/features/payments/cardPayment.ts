/** What a card form needs from the payment page; both the test-gateway form and Stripe Elements use it. */
export interface CardPaymentProps {
  /** Creates a payment intent at the gateway for the order's total (the server decides the price). */
  createIntent: () => Promise<{ id: string; clientSecret: string }>;
  /** Asks the server to verify the intent with the gateway and mark the order paid. */
  confirm: (intentId: string) => Promise<void>;
  /** Sent to the card provider with the card. */
  billing: { name: string; email: string };
  /** The total, for the Pay button. */
  amountLabel: string;
}

/** Said when the card provider refused a payment without a message of its own (Stripe's own wording). */
export const cardDeclined = 'Your card was declined.';
