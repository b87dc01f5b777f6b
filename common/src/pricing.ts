import { centsToDollars, dollarsToCents, formatDollars } from './format';
import { maxQuantity, messages } from './messages';

/**
 * Quantity breaks and packs: the one pricing rule of the shop. The server charges `unitPriceCents(part, amount)`
 * for every order it places; the web shows the same figures (cards, the purchase page, the cart).
 */

/** From `minUnits` units on, each unit costs `priceCents`. */
export interface PriceTier {
  minUnits: number;
  priceCents: number;
}

/** What pricing needs of a part: its base unit price, its quantity breaks and its pack size. */
export interface Priced {
  priceCents: number;
  priceTiers?: readonly PriceTier[] | null;
  packSize?: number | null;
}

/** The most quantity breaks one part may carry. */
export const maxPriceTiers = 10;

export const pricingMessages = {
  tierUnitsTooFew: (minOrder: number) => `A price break must start at the minimum order (${minOrder}) or above`,
  tierUnitsNotAscending: 'Each price break must start at more units than the one before it',
  tierPriceNotLower: 'Each price break must cost less per unit than the price before it',
  tierPriceTooLow: "A price break's unit price must be at least $0.01",
  tierUnitsRequired: 'From how many units? A whole number is required',
  tierPriceRequired: 'The unit price from that amount is required',
  tooManyTiers: `A part may carry at most ${maxPriceTiers} price breaks`,
  packSizeTooSmall: 'Pack size must be a whole number of at least 1',
  packSizeTooLarge: (max: number) => `Pack size must be ${max} or less`,
  notPackMultiple: (packSize: number, below: number, above: number) => messages.notPackMultiple(packSize, below, above),
} as const;

/** The part's breaks, cheapest-last (ascending by units), ignoring none: the server stores them validated. */
const tiersOf = (part: Priced): readonly PriceTier[] => part.priceTiers ?? [];

/** The quantity break that applies to `amount` units, or null when the base price does. */
export function tierFor(part: Priced, amount: number): PriceTier | null {
  let applies: PriceTier | null = null;
  for (const tier of tiersOf(part)) if (amount >= tier.minUnits) applies = tier;
  return applies;
}

/** The unit price in cents for `amount` units: the deepest break reached, else the base price. */
export const unitPriceCents = (part: Priced, amount: number): number =>
  tierFor(part, amount)?.priceCents ?? part.priceCents;

/** The order's total in cents at the unit price for its amount. */
export const totalCents = (part: Priced, amount: number): number => unitPriceCents(part, amount) * amount;

/**
 * The next break above `amount`, and what moving to it would save: per unit, and on the whole order at that
 * break compared with paying today's unit price for as many units. Null when no deeper break is left.
 */
export function nextTier(
  part: Priced,
  amount: number,
): { tier: PriceTier; unitsMore: number; savesPerUnitCents: number } | null {
  const now = unitPriceCents(part, amount);
  const next = tiersOf(part).find((tier) => tier.minUnits > amount);
  if (!next) return null;
  return { tier: next, unitsMore: next.minUnits - amount, savesPerUnitCents: now - next.priceCents };
}

/** The cheapest break, for a card's "from $P at N+"; null without breaks. */
export const lowestTier = (part: Priced): PriceTier | null => {
  const tiers = tiersOf(part);
  return tiers.length ? tiers[tiers.length - 1] : null;
};

/** "from $4.50 at 100+" */
export const formatTier = (tier: PriceTier): string =>
  `from ${formatDollars(centsToDollars(tier.priceCents))} at ${tier.minUnits}+`;

/** A price break as the admin's form sends it: units and a unit price in dollars. */
export interface PriceTierInput {
  minUnits: unknown;
  price: unknown;
}

/**
 * Checks the quantity breaks of a part whose base price is `priceCents` and minimum order `minOrder`:
 * whole units, ascending, each at or above the minimum order, unit prices positive, each below the one before
 * (the first below the base). Answers the breaks in cents, or a message per failing field (`priceTiers.1.price`).
 */
export function checkPriceTiers(
  input: readonly PriceTierInput[] | null | undefined,
  { priceCents, minOrder }: { priceCents: number; minOrder: number },
): { ok: true; value: PriceTier[] } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const tiers: PriceTier[] = [];
  const list: readonly PriceTierInput[] = input ?? [];
  if (!Array.isArray(input ?? [])) return { ok: false, errors: { priceTiers: pricingMessages.tierUnitsRequired } };
  if (list.length > maxPriceTiers) return { ok: false, errors: { priceTiers: pricingMessages.tooManyTiers } };
  let lastUnits = 0;
  let lastPrice = priceCents;
  list.forEach((tier, i) => {
    const at = `priceTiers.${i}`;
    const units = tier?.minUnits;
    const price = tier?.price;
    if (typeof units !== 'number' || !Number.isInteger(units) || units < 1 || units > maxQuantity) {
      errors[`${at}.minUnits`] = pricingMessages.tierUnitsRequired;
    } else if (units < minOrder) errors[`${at}.minUnits`] = pricingMessages.tierUnitsTooFew(minOrder);
    else if (units <= lastUnits) errors[`${at}.minUnits`] = pricingMessages.tierUnitsNotAscending;
    if (typeof price !== 'number' || !Number.isFinite(price)) errors[`${at}.price`] = pricingMessages.tierPriceRequired;
    else if (dollarsToCents(price) < 1) errors[`${at}.price`] = pricingMessages.tierPriceTooLow;
    else if (dollarsToCents(price) >= lastPrice) errors[`${at}.price`] = pricingMessages.tierPriceNotLower;
    if (typeof units === 'number' && Number.isInteger(units)) lastUnits = Math.max(lastUnits, units);
    if (typeof price === 'number' && Number.isFinite(price)) lastPrice = Math.min(lastPrice, dollarsToCents(price));
    if (typeof units === 'number' && typeof price === 'number')
      tiers.push({ minUnits: units, priceCents: dollarsToCents(price) });
  });
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value: tiers };
}

/** Checks a pack size (null or missing: 1, no packs). */
export function checkPackSize(input: unknown): { ok: true; value: number } | { ok: false; error: string } {
  if (input === null || input === undefined) return { ok: true, value: 1 };
  if (typeof input !== 'number' || !Number.isInteger(input) || input < 1)
    return { ok: false, error: pricingMessages.packSizeTooSmall };
  if (input > maxQuantity) return { ok: false, error: pricingMessages.packSizeTooLarge(maxQuantity) };
  return { ok: true, value: input };
}

/**
 * Company prices (issue 35 point 3, docs/companies.md): what a company's price list says of one part. A fixed
 * unit price for the part, with its own quantity breaks, wins over the list's percentage off; without one, the
 * percentage off (in basis points: 1,250 = 12.5 %) applies to the list price at the amount.
 */
export interface CompanyPrice {
  /** Off the list unit price at the amount, in basis points (1 to 9,000); null or missing: none. */
  percentOffBasisPoints?: number | null;
  /** The part's fixed unit price for the company, with its own breaks; null or missing: none. */
  fixed?: Priced | null;
}

/** The most a price list may take off the list price, in basis points (90 %). */
export const maxPercentOffBasisPoints = 9000;

/**
 * The company's unit price for `amount` units, or null when its price list says nothing of the part: the fixed
 * price at its own breaks, else the list unit price at the amount less the percentage, rounded to the nearest
 * cent (half a cent up) and never below 1 cent.
 */
export function companyUnitPriceCents(part: Priced, amount: number, company: CompanyPrice | null): number | null {
  if (!company) return null;
  if (company.fixed) return unitPriceCents(company.fixed, amount);
  const off = company.percentOffBasisPoints ?? 0;
  if (off <= 0) return null;
  const list = unitPriceCents(part, amount);
  if (list < 1) return list;
  return Math.max(1, Math.round((list * (10000 - Math.min(off, maxPercentOffBasisPoints))) / 10000));
}

/**
 * THE one rule of a buyer's unit price (the server charges it; the web shows it): the lower of the list price at
 * that quantity and the company price at that quantity. `companyPriced` says the company's price is the one
 * charged (strictly lower than the list's), to mark it "Your company price".
 */
export function buyerPrice(
  part: Priced,
  amount: number,
  company: CompanyPrice | null,
): { unitPriceCents: number; companyPriced: boolean } {
  const list = unitPriceCents(part, amount);
  const theirs = companyUnitPriceCents(part, amount, company);
  return theirs !== null && list >= 1 && theirs < list
    ? { unitPriceCents: theirs, companyPriced: true }
    : { unitPriceCents: list, companyPriced: false };
}

/** The buyer's unit price in cents (see `buyerPrice`). */
export const buyerUnitPriceCents = (part: Priced, amount: number, company: CompanyPrice | null): number =>
  buyerPrice(part, amount, company).unitPriceCents;

/**
 * The next break above `amount` by the buyer's rule (`buyerPrice`): the fewest units above it whose unit price is
 * lower than today's, looked for at the list's breaks and the company's own, with that price and what it saves per
 * unit. Without a company price it is `nextTier`. A member whose company price already beats the list's next break
 * is not promised a saving the rule will not give.
 */
export function nextBuyerBreak(
  part: Priced,
  amount: number,
  company: CompanyPrice | null,
): { tier: PriceTier; unitsMore: number; savesPerUnitCents: number } | null {
  if (!company) return nextTier(part, amount);
  const now = buyerUnitPriceCents(part, amount, company);
  const steps = [...tiersOf(part), ...(company.fixed ? tiersOf(company.fixed) : [])]
    .map((tier) => tier.minUnits)
    .filter((units) => units > amount)
    .sort((a, b) => a - b);
  for (const units of steps) {
    const price = buyerUnitPriceCents(part, units, company);
    if (price < now)
      return {
        tier: { minUnits: units, priceCents: price },
        unitsMore: units - amount,
        savesPerUnitCents: now - price,
      };
  }
  return null;
}

export const companyPriceMessages = {
  percentOffRange: 'The percentage off is a number above 0 and at most 90 (up to two decimals), or empty for none',
  priceRequired: 'Give the company’s unit price in dollars (at least $0.01)',
  // Read when asked, not when this module loads: the web's bundle may evaluate this chunk before messages.ts's.
  get priceTooHigh(): string {
    return messages.priceTooHigh;
  },
  notCheaper: 'A company price above the list price is never charged (the lower one is): give a lower price',
} as const;

/** Checks a percentage off as an admin gives it (12.5 = 12.5 %): basis points, or null for none. */
export function checkPercentOff(input: unknown): { ok: true; value: number | null } | { ok: false; error: string } {
  if (input === null || input === undefined || input === '') return { ok: true, value: null };
  if (typeof input !== 'number' || !Number.isFinite(input))
    return { ok: false, error: companyPriceMessages.percentOffRange };
  const basisPoints = Math.round(input * 100);
  if (Math.abs(basisPoints - input * 100) > 1e-6 || basisPoints < 1 || basisPoints > maxPercentOffBasisPoints)
    return { ok: false, error: companyPriceMessages.percentOffRange };
  return { ok: true, value: basisPoints };
}
