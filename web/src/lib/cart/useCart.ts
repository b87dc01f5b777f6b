import { dollarsToCents, maxChargeCents, messages, sentAmountProblem } from '@partsyard/common';
import { unitPriceOf } from './priced';
import { useSyncExternalStore } from 'react';
import {
  useAddToCartMutation,
  useCartQuery,
  useRemoveCartLineMutation,
  useSetCartLineAmountMutation,
  type PartFieldsFragment,
} from '../../generated/graphql';
import { useOptionalAuth } from '../auth';
import { writeCart } from './cartCache';
import { visitorCart } from './visitorCart';

/** Why `amount` units of `part` cannot be ordered (the purchase rules' message), else null. */
export function amountProblem(part: PartFieldsFragment, amount: unknown): string | null {
  return sentAmountProblem(
    {
      minOrder: part.minOrder,
      available: part.available,
      priceCents: dollarsToCents(part.price),
      packSize: part.packSize,
    },
    amount,
  );
}

/** The smallest amount of a part one may order: its minimum, in whole packs. */
export const smallestOrder = (part: PartFieldsFragment): number =>
  Math.ceil(part.minOrder / Math.max(1, part.packSize)) * Math.max(1, part.packSize);

/** One line as the cart page and the badge show it, for a signed-in customer or a visitor alike. */
export interface CartLineView {
  part: PartFieldsFragment;
  amount: number;
  unitPrice: number;
  /** The unit price is the customer's company price (the server's `companyPriced`; a visitor's never is). */
  companyPriced: boolean;
  seenUnitPrice: number;
  lineTotal: number;
  problem: string | null;
  priceChange: string | null;
}

export interface CartState {
  /** Where the cart lives: the server (signed in) or this browser (visitor). */
  kind: 'server' | 'visitor';
  loading: boolean;
  lines: CartLineView[];
  total: number;
  units: number;
  /**
   * Why the whole cannot be checked out though its lines may each be (more than one card payment, or than one
   * customer may hold unpaid: the server's Cart.problem), else null.
   */
  problem: string | null;
  /** Adds units (a part already in the cart gets the sum); throws with the rules' message when refused. */
  add: (part: PartFieldsFragment, amount: number) => Promise<void>;
  setAmount: (part: PartFieldsFragment, amount: number) => Promise<void>;
  remove: (partId: string) => Promise<void>;
}

const changed = (seen: number, now: number) =>
  `The price changed from $${seen.toFixed(2)} to $${now.toFixed(2)} since you added it`;

/** The cart: the server's while signed in, this browser's for a visitor. */
export function useCart(): CartState {
  const signedIn = useOptionalAuth()?.status === 'signedIn';
  const { data, loading } = useCartQuery({ skip: !signedIn, fetchPolicy: 'cache-and-network' });
  const local = useSyncExternalStore(visitorCart.subscribe, visitorCart.lines, () => []);
  const [addToCart] = useAddToCartMutation({ update: (cache, r) => writeCart(cache, r.data?.addToCart) });
  const [setLine] = useSetCartLineAmountMutation({
    update: (cache, r) => writeCart(cache, r.data?.setCartLineAmount),
  });
  const [removeLine] = useRemoveCartLineMutation({ update: (cache, r) => writeCart(cache, r.data?.removeCartLine) });

  if (signedIn) {
    const cart = data?.cart;
    return {
      kind: 'server',
      loading: loading && !cart,
      lines: (cart?.lines ?? []).map((l) => ({ ...l, problem: l.problem ?? null, priceChange: l.priceChange ?? null })),
      total: cart?.total ?? 0,
      units: cart?.units ?? 0,
      problem: cart?.problem ?? null,
      async add(part, amount) {
        await addToCart({ variables: { partId: part.id, amount } });
      },
      async setAmount(part, amount) {
        await setLine({ variables: { partId: part.id, amount } });
      },
      async remove(partId) {
        await removeLine({ variables: { partId } });
      },
    };
  }

  const lines = local.map((l): CartLineView => {
    const unitPrice = unitPriceOf(l.part, l.amount);
    return {
      part: l.part,
      amount: l.amount,
      unitPrice,
      companyPriced: false,
      seenUnitPrice: l.seenUnitPrice,
      lineTotal: Math.round(unitPrice * 100 * l.amount) / 100,
      problem: amountProblem(l.part, l.amount),
      priceChange: Math.abs(unitPrice - l.seenUnitPrice) < 0.005 ? null : changed(l.seenUnitPrice, unitPrice),
    };
  });
  const put = (part: PartFieldsFragment, amount: number) => {
    const problem = amountProblem(part, amount);
    if (problem) throw new Error(problem);
    visitorCart.set({ partId: part.id, amount, seenUnitPrice: unitPriceOf(part, amount), part });
  };
  const totalCents = Math.round(lines.reduce((sum, l) => sum + l.lineTotal * 100, 0));
  return {
    kind: 'visitor',
    loading: false,
    lines,
    total: totalCents / 100,
    units: lines.reduce((sum, l) => sum + l.amount, 0),
    // The server's rule (Cart.problem), so a visitor is told before signing in.
    problem: totalCents > maxChargeCents ? messages.checkoutTooLarge : null,
    async add(part, amount) {
      const problem = amountProblem(part, amount);
      if (problem) throw new Error(problem);
      const have = local.find((l) => l.partId === part.id)?.amount ?? 0;
      put(part, have + amount);
    },
    async setAmount(part, amount) {
      put(part, amount);
    },
    async remove(partId) {
      visitorCart.remove(partId);
    },
  };
}
