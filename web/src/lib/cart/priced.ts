import { dollarsToCents, unitPriceCents, type PriceTier } from '@partsyard/common';
import type { PartFieldsFragment } from '../../generated/graphql';

/** The pricing rule's view of a part as the API sends it (dollars) : cents, as common/pricing.ts counts. */
export const pricedOf = (part: PartFieldsFragment) => ({
  priceCents: dollarsToCents(part.price),
  priceTiers: part.priceTiers.map((t): PriceTier => ({ minUnits: t.minUnits, priceCents: dollarsToCents(t.price) })),
  packSize: part.packSize,
});

/** The unit price in dollars for `amount` units of `part` (its quantity breaks), as the server charges it. */
export const unitPriceOf = (part: PartFieldsFragment, amount: number): number =>
  unitPriceCents(pricedOf(part), amount) / 100;
