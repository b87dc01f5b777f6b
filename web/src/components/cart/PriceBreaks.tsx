import {
  buyerPrice,
  formatDollars,
  formatTier,
  lowestTier,
  nextBuyerBreak,
  tierFor,
  unitPriceCents,
  type CompanyPrice,
} from '@partsyard/common';
import type { PartFieldsFragment } from '../../generated/graphql';
import { pricedOf } from '../../lib/cart/priced';

/** A card's "from $P at N+" (the cheapest break), or nothing for a part without breaks. */
export function FromTier({ part }: { part: PartFieldsFragment }) {
  const lowest = lowestTier(pricedOf(part));
  if (!lowest) return null;
  return (
    <p className="text-sm font-semibold text-green-800" data-testid="from-tier">
      {formatTier(lowest)}
    </p>
  );
}

/**
 * For `amount` units: the unit price that applies (and its break), and what the next break would save. Says
 * the pack size too. Nothing for a part without breaks or packs. For a company member (`company`), the break that
 * applies and the next one are by the buyer's rule (common/pricing.ts): no list break is said to apply to a line
 * at the company's price, and no saving is promised that their price already beats.
 */
export function PriceBreaks({
  part,
  amount,
  company = null,
}: {
  part: PartFieldsFragment;
  amount: number;
  company?: CompanyPrice | null;
}) {
  const priced = pricedOf(part);
  if (!priced.priceTiers.length && part.packSize <= 1 && !company?.fixed?.priceTiers?.length) return null;
  const valid = Number.isInteger(amount) && amount > 0;
  const companyPriced = valid && buyerPrice(priced, amount, company).companyPriced;
  const tier = valid && !companyPriced ? tierFor(priced, amount) : null;
  const next = valid ? nextBuyerBreak(priced, amount, company) : null;
  const dollars = (cents: number) => formatDollars(cents / 100);
  return (
    <div className="flex flex-col gap-1 text-sm" data-testid="price-breaks">
      {part.packSize > 1 && <p>Sold in packs of {part.packSize}.</p>}
      {priced.priceTiers.length > 0 && (
        <ul className="flex flex-wrap gap-1" aria-label="Quantity breaks">
          <li className={`badge badge-outline ${valid && !tier && !companyPriced ? 'badge-primary' : ''}`}>
            {dollars(priced.priceCents)} each
          </li>
          {priced.priceTiers.map((t) => (
            <li
              key={t.minUnits}
              className={`badge badge-outline ${tier?.minUnits === t.minUnits ? 'badge-primary' : ''}`}
            >
              {formatTier(t)}
            </li>
          ))}
        </ul>
      )}
      {valid && tier && (
        <p data-testid="tier-applies">
          {dollars(unitPriceCents(priced, amount))} per unit applies from {tier.minUnits} units.
        </p>
      )}
      {next && (
        <p className="text-green-800" data-testid="next-tier">
          Order {next.unitsMore} more ({next.tier.minUnits} in all) and pay {dollars(next.tier.priceCents)} per unit:{' '}
          {dollars(next.savesPerUnitCents)} less each.
        </p>
      )}
    </div>
  );
}
