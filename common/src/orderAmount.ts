import { maxChargeCents, maxQuantity, messages } from './messages';

/*
 * How many units of a part one order may ask for: the one rule, without a validation library, so that the pages
 * that only add to the cart (the home page, the catalog) check an amount without downloading yup. The forms and
 * the API check it through `orderAmountRule` (rules.ts), which casts with yup and then asks this file.
 */

/**
 * The message when `amount` units of a part sold in packs of `packSize` is not a whole number of packs, else
 * null (issue 14; the rest of the pricing rule is in pricing.ts).
 */
export function packProblem(part: { packSize?: number | null }, amount: number): string | null {
  const packSize = part.packSize ?? 1;
  if (packSize <= 1 || !Number.isInteger(amount) || amount % packSize === 0) return null;
  const below = Math.floor(amount / packSize) * packSize;
  return messages.notPackMultiple(packSize, below, below + packSize);
}

/** The most units of a part at `priceCents` that one order (one card payment) can hold. */
export const maxUnitsPerCharge = (priceCents: number): number =>
  priceCents > 0 ? Math.floor(maxChargeCents / priceCents) : maxQuantity;

/**
 * The part's figures the order amount is checked against: its stock, and its unit price in cents (an order's
 * total must fit one card payment; without a price only the stock is checked).
 */
export interface StockLimits {
  minOrder: number;
  available: number;
  priceCents?: number;
  /** Sold in packs of this many (1 or missing: any whole number). */
  packSize?: number | null;
}

/**
 * Why `amount` units cannot be ordered, else null: a whole number, at least the minimum, at most the stock and
 * the quantity bound, in whole packs, and within one card payment. The first rule broken is the one said.
 */
export function orderAmountProblem(
  { minOrder, available, priceCents, packSize }: StockLimits,
  amount: number,
): string | null {
  if (!Number.isInteger(amount)) return messages.wholeNumber;
  if (amount < minOrder) return messages.orderAmountBelowMin(minOrder);
  if (amount > available) return messages.orderAmountAboveAvailable(available);
  if (amount > maxQuantity) return messages.tooLarge(maxQuantity);
  const packs = packProblem({ packSize }, amount);
  if (packs !== null) return packs;
  if (priceCents !== undefined && priceCents > 0) {
    const maxItems = maxUnitsPerCharge(priceCents);
    if (amount > maxItems) return messages.orderTotalTooLarge(maxItems);
  }
  return null;
}

/**
 * An amount as a form sends it, read as the forms' validation reads a number (yup's cast: a number, or text
 * whose whitespace is dropped; anything else is none); null when there is none or it is no number.
 */
export function readOrderAmount(input: unknown): number | null {
  let n = NaN;
  if (typeof input === 'number') n = input;
  else if (typeof input === 'string') {
    const text = input.replace(/\s/g, '');
    if (text !== '') n = +text;
  }
  return Number.isNaN(n) ? null : n;
}

/** Why the amount as sent cannot be ordered (none given, no number, or `orderAmountProblem`), else null. */
export const sentAmountProblem = (stock: StockLimits, input: unknown): string | null => {
  const amount = readOrderAmount(input);
  return amount === null ? messages.orderAmountRequired : orderAmountProblem(stock, amount);
};
