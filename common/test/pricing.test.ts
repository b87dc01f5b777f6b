import {
  check,
  formatTier,
  lowestTier,
  nextTier,
  orderAmountSchema,
  packProblem,
  tierFor,
  unitPriceCents,
} from '../src';

/** The one pricing rule (issue 14): quantity breaks and packs, as the server charges and the web shows them. */
describe('quantity breaks', () => {
  const part = {
    priceCents: 1000,
    priceTiers: [
      { minUnits: 50, priceCents: 900 },
      { minUnits: 100, priceCents: 850 },
    ],
    packSize: 10,
  };

  it('the unit price is the deepest break the amount reaches, else the base price', () => {
    expect([10, 49, 50, 99, 100, 1000].map((n) => unitPriceCents(part, n))).toEqual([1000, 1000, 900, 900, 850, 850]);
    expect(tierFor(part, 49)).toBeNull();
    expect(unitPriceCents({ priceCents: 700 }, 5000)).toBe(700);
  });

  it('the next break says how many more units reach it and what each would cost less', () => {
    expect(nextTier(part, 40)).toEqual({ tier: part.priceTiers[0], unitsMore: 10, savesPerUnitCents: 100 });
    expect(nextTier(part, 60)).toEqual({ tier: part.priceTiers[1], unitsMore: 40, savesPerUnitCents: 50 });
    expect(nextTier(part, 100)).toBeNull();
  });

  it('a card shows the cheapest break as "from $P at N+"', () => {
    expect(formatTier(lowestTier(part) ?? part.priceTiers[0])).toBe('from $8.50 at 100+');
    expect(lowestTier({ priceCents: 1 })).toBeNull();
  });

  it('an amount that is not whole packs is refused with the nearest amounts that are', () => {
    expect(packProblem(part, 55)).toBe('Sold in packs of 10: order a multiple of 10 (50 or 60)');
    expect(packProblem(part, 60)).toBeNull();
    const result = check(orderAmountSchema({ minOrder: 10, available: 500, packSize: 10 }), { orderAmount: 25 });
    expect(result).toEqual({
      ok: false,
      errors: { orderAmount: 'Sold in packs of 10: order a multiple of 10 (20 or 30)' },
    });
  });
});
