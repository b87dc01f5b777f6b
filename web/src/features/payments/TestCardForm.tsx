import { useRef, useState, type FormEvent } from 'react';
import { usePayWithTestCardMutation } from '../../generated/graphql';
import { errorMessage } from '../../lib/apollo';
import { cardDeclined, type CardPaymentProps } from './cardPayment';
import { BusyButton } from '../../components/BusyButton';

const digitsOf = (value: string) => value.replace(/\D/g, '');

/** 4242424242424242 -> '4242 4242 4242 4242' (at most 19 digits, as card numbers go). */
const formatCardNumber = (value: string) =>
  digitsOf(value)
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');

/** '1234' -> '12/34'. */
const formatExpiry = (value: string) => {
  const digits = digitsOf(value).slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
};

type CardField = 'cardNumber' | 'cardExpiry' | 'cardCvc';

/** What Stripe's card element would say before sending an incomplete card, and which field it is about. */
function incompleteCard(number: string, expiry: string, cvc: string): { field: CardField; message: string } | null {
  if (digitsOf(number).length < 12) return { field: 'cardNumber', message: 'Your card number is incomplete.' };
  if (!/^(0[1-9]|1[0-2])\/\d{2}$/.test(expiry))
    return { field: 'cardExpiry', message: "Your card's expiration date is incomplete." };
  if (!/^\d{3,4}$/.test(cvc)) return { field: 'cardCvc', message: "Your card's security code is incomplete." };
  return null;
}

const errorId = 'payment-error';

/**
 * The test gateway's own card form (embedded default): it takes Stripe's test cards and answers like Stripe,
 * so nothing is loaded from Stripe. Errors show as red text under the form.
 */
export default function TestCardForm({ createIntent, confirm, amountLabel }: CardPaymentProps) {
  const [payWithTestCard] = usePayWithTestCardMutation();
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [error, setError] = useState('');
  const [invalid, setInvalid] = useState<CardField | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  /** The field an error is about says so (aria-invalid) and points at the message under the form. */
  const fieldAria = (field: CardField) =>
    invalid === field ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {};

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    setInvalid(null);
    const incomplete = incompleteCard(number, expiry, cvc);
    if (incomplete) {
      setError(incomplete.message);
      setInvalid(incomplete.field);
      form.current?.querySelector<HTMLInputElement>(`[name="${incomplete.field}"]`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const intent = await createIntent();
      const [month, year] = expiry.split('/');
      const { data } = await payWithTestCard({
        variables: {
          paymentIntentId: intent.id,
          card: { number: digitsOf(number), expMonth: Number(month), expYear: 2000 + Number(year), cvc },
        },
      });
      const result = data?.payWithTestCard;
      if (!result?.succeeded) {
        setError(result?.error ?? cardDeclined);
        return;
      }
      await confirm(result.paymentIntentId);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      ref={form}
      noValidate
      onSubmit={(e) => void submit(e)}
      className="flex flex-col gap-3"
      aria-label="Card payment"
    >
      <div
        role="note"
        className="badge h-auto border-amber-300 bg-amber-100 py-1 text-left whitespace-normal text-amber-900"
        data-testid="test-mode"
      >
        Test mode — use 4242 4242 4242 4242
      </div>
      <label className="form-control w-full">
        <span className="label pb-1 label-text font-medium">Card number</span>
        <input
          className="input w-full font-mono"
          name="cardNumber"
          {...fieldAria('cardNumber')}
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="4242 4242 4242 4242"
          value={number}
          onChange={(e) => setNumber(formatCardNumber(e.target.value))}
        />
      </label>
      <div className="grid grid-cols-2 gap-3">
        <label className="form-control w-full">
          <span className="label pb-1 label-text font-medium">Expiry (MM/YY)</span>
          <input
            className="input w-full font-mono"
            name="cardExpiry"
            {...fieldAria('cardExpiry')}
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            value={expiry}
            onChange={(e) => setExpiry(formatExpiry(e.target.value))}
          />
        </label>
        <label className="form-control w-full">
          <span className="label pb-1 label-text font-medium">CVC</span>
          <input
            className="input w-full font-mono"
            name="cardCvc"
            {...fieldAria('cardCvc')}
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            value={cvc}
            onChange={(e) => setCvc(digitsOf(e.target.value).slice(0, 4))}
          />
        </label>
      </div>
      <BusyButton className="btn btn-primary mt-2" busy={busy}>
        Pay {amountLabel}
      </BusyButton>
      {error && (
        <p id={errorId} role="alert" className="text-sm text-red-600" data-testid="payment-error">
          {error}
        </p>
      )}
    </form>
  );
}
