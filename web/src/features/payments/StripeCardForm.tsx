import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { useMemo, useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/apollo';
import { cardDeclined, type CardPaymentProps } from './cardPayment';
import { BusyButton } from '../../components/BusyButton';

// One Stripe.js per key for the page's life; the pure entry loads Stripe's script only when this is called.
const loaded = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = loaded.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    loaded.set(publishableKey, stripe);
  }
  return stripe;
}

function StripeCardFields({ createIntent, confirm, billing, amountLabel }: CardPaymentProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) return;
    setError('');
    setBusy(true);
    try {
      const intent = await createIntent();
      const { error: cardError, paymentIntent } = await stripe.confirmCardPayment(intent.clientSecret, {
        payment_method: { card, billing_details: { name: billing.name, email: billing.email } },
      });
      if (cardError || !paymentIntent) {
        setError(cardError?.message ?? cardDeclined);
        return;
      }
      await confirm(paymentIntent.id);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-3" aria-label="Card payment">
      <div className="input h-auto w-full py-3">
        <CardElement className="w-full" options={{ style: { base: { fontSize: '16px' } } }} />
      </div>
      <BusyButton className="btn btn-primary mt-2" busy={busy} disabled={!stripe}>
        Pay {amountLabel}
      </BusyButton>
      {error && (
        <p role="alert" className="text-sm text-red-600" data-testid="payment-error">
          {error}
        </p>
      )}
    </form>
  );
}

/** Stripe Elements' card form (Stripe mode only: this module is loaded lazily, with Stripe.js). */
export default function StripeCardForm({ publishableKey, ...props }: CardPaymentProps & { publishableKey: string }) {
  const stripe = useMemo(() => stripeFor(publishableKey), [publishableKey]);
  return (
    <Elements stripe={stripe}>
      <StripeCardFields {...props} />
    </Elements>
  );
}
