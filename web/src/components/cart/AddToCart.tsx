import { useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { useNavigate } from 'react-router-dom';
import type { PartFieldsFragment } from '../../generated/graphql';
import { errorMessage } from '../../lib/apollo';
import { amountProblem, smallestOrder, useCart } from '../../lib/cart/useCart';

/** The toast after adding: what was added, and a link to the cart. */
function useAddedToast() {
  const navigate = useNavigate();
  return (part: PartFieldsFragment, amount: number) =>
    toast.success(
      <span>
        Added {amount} × {part.name} to your cart.{' '}
        <a
          href="/cart"
          className="link font-semibold"
          onClick={(event) => {
            event.preventDefault();
            void navigate('/cart');
          }}
        >
          View cart
        </a>
      </span>,
    );
}

/** A card's Add to cart: the smallest order of the part (its minimum, in whole packs). */
export function AddToCartButton({ part, className = '' }: { part: PartFieldsFragment; className?: string }) {
  const cart = useCart();
  const added = useAddedToast();
  const [busy, setBusy] = useState(false);
  const amount = smallestOrder(part);
  const soldOut = part.available < amount;
  const add = async () => {
    setBusy(true);
    try {
      await cart.add(part, amount);
      added(part, amount);
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      className={`btn btn-outline btn-primary ${className}`}
      disabled={busy || soldOut}
      onClick={() => void add()}
    >
      {soldOut ? 'Out of stock' : 'Add to cart'}
      <span className="sr-only"> {part.name}</span>
    </button>
  );
}

/**
 * An amount and Add to cart (the part's page, the purchase page): the amount checked by the purchase rules
 * before it is sent, the message under the field.
 */
export function AddToCartForm({
  part,
  initialAmount,
  onAmountChange,
}: {
  part: PartFieldsFragment;
  initialAmount?: number;
  onAmountChange?: (amount: number) => void;
}) {
  const cart = useCart();
  const added = useAddedToast();
  const [value, setValue] = useState(String(initialAmount ?? smallestOrder(part)));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `cart-amount-${part.id}`;
  const submit = async () => {
    const amount = value.trim() === '' ? '' : Number(value);
    const why = amountProblem(part, amount);
    setProblem(why);
    if (why) return;
    setBusy(true);
    try {
      await cart.add(part, Number(amount));
      added(part, Number(amount));
    } catch (e) {
      setProblem(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="flex flex-col gap-2"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label htmlFor={id} className="text-sm font-semibold">
        Amount for the cart
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={part.minOrder}
          step={Math.max(1, part.packSize)}
          className={`input w-32 ${problem ? 'input-error' : ''}`}
          value={value}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(event) => {
            setValue(event.target.value);
            setProblem(null);
            onAmountChange?.(Number(event.target.value));
          }}
        />
        <button type="submit" className="btn btn-outline btn-primary" disabled={busy}>
          Add to cart
        </button>
      </div>
      {problem && (
        <p id={`${id}-error`} className="text-sm text-red-700" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
