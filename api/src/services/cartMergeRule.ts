import { limits, maxUnitsPerCharge, messages } from '@partsyard/common';
import type { PartRow } from '../db/schema';

/**
 * What a visitor's cart line becomes when it is merged into the signed-in cart (cartService.mergeCart), and the
 * note that says why whenever its amount changed.
 */

/**
 * The most units of a part one order may hold now, and why: its stock, one card payment, or the quantity bound,
 * whichever is lowest (the stock when they tie).
 */
function unitsCap(part: PartRow): { units: number; reason: string } {
  const perCharge = maxUnitsPerCharge(part.priceCents);
  const caps = [
    { units: part.available, reason: messages.orderAmountAboveAvailable(part.available) },
    { units: perCharge, reason: messages.orderTotalTooLarge(perCharge) },
    { units: limits.maxQuantity, reason: messages.tooLarge(limits.maxQuantity) },
  ];
  return caps.reduce((lowest, cap) => (cap.units < lowest.units ? cap : lowest));
}

/**
 * The merge rule: a part in both carts gets the SUM of the two amounts, then capped at what one order of it
 * may hold now (its stock, one card payment, the quantity bound), rounded down to whole packs. A line whose
 * amount would fall below the part's minimum order, a part no longer sold, and lines past the cart's size are
 * left out. Every change to an amount is reported as a note naming its reason ("the schema: every change is
 * reported in notes").
 */
export function mergedAmount(part: PartRow, amount: number): { amount: number | null; note: string | null } {
  if (part.priceCents < 1) return { amount: null, note: `${part.name}: ${messages.partNotForSale}; left out` };
  const reasons: string[] = [];
  let wanted = amount;
  const cap = unitsCap(part);
  if (wanted > cap.units) {
    wanted = cap.units;
    reasons.push(cap.reason);
  }
  const pack = Math.max(1, part.packSize);
  if (wanted % pack) {
    wanted -= wanted % pack;
    reasons.push(`Sold in packs of ${pack}`);
  }
  if (wanted < part.minOrder || wanted < 1) {
    if (!reasons.length) reasons.push(messages.orderAmountBelowMin(part.minOrder));
    return { amount: null, note: `${part.name}: ${reasons.join('; ')}; left out` };
  }
  return {
    amount: wanted,
    note: reasons.length ? `${part.name}: ${reasons.join('; ')}; your cart holds ${wanted}` : null,
  };
}

/** A visitor's line whose amount no order can have (not a whole number, below 1): left out, and said so. */
export const invalidAmountNote = (part: PartRow, amount: number) =>
  `${part.name}: an amount of ${amount} cannot be ordered; left out`;
