import fc from 'fast-check';
import {
  buyerPrice,
  buyerUnitPriceCents,
  checkPercentOff,
  companyUnitPriceCents,
  maxPercentOffBasisPoints,
  nextBuyerBreak,
  nextTier,
  unitPriceCents,
  type CompanyPrice,
  type Priced,
} from '../src';

/** The one rule of company prices (issue 35 point 3): the lower of the list price and the company's, at the amount. */
describe('company prices', () => {
  const part: Priced = {
    priceCents: 1000,
    priceTiers: [
      { minUnits: 50, priceCents: 900 },
      { minUnits: 100, priceCents: 700 },
    ],
  };

  it('a percentage off applies to the list price at the amount, rounded to the nearest cent', () => {
    const tenOff: CompanyPrice = { percentOffBasisPoints: 1000 };
    expect([1, 50, 100].map((n) => buyerUnitPriceCents(part, n, tenOff))).toEqual([900, 810, 630]);
    expect(companyUnitPriceCents({ priceCents: 333 }, 1, { percentOffBasisPoints: 1250 })).toBe(291); // 291.375
    expect(companyUnitPriceCents({ priceCents: 1 }, 1, { percentOffBasisPoints: 9000 })).toBe(1);
    expect(buyerPrice(part, 1, tenOff)).toEqual({ unitPriceCents: 900, companyPriced: true });
  });

  it('a fixed price with its own breaks wins over the percentage, and a lower list break beats it', () => {
    const fixed: CompanyPrice = {
      percentOffBasisPoints: 5000,
      fixed: { priceCents: 850, priceTiers: [{ minUnits: 20, priceCents: 800 }] },
    };
    expect([1, 20, 50, 100].map((n) => buyerPrice(part, n, fixed))).toEqual([
      { unitPriceCents: 850, companyPriced: true },
      { unitPriceCents: 800, companyPriced: true },
      { unitPriceCents: 800, companyPriced: true },
      { unitPriceCents: 700, companyPriced: false }, // the list's break of 100 is lower
    ]);
  });

  it('without a company, or with nothing for the part, the list price', () => {
    expect(buyerPrice(part, 60, null)).toEqual({ unitPriceCents: 900, companyPriced: false });
    expect(buyerPrice(part, 60, {})).toEqual({ unitPriceCents: 900, companyPriced: false });
    expect(buyerPrice(part, 60, { percentOffBasisPoints: null, fixed: null })).toEqual({
      unitPriceCents: 900,
      companyPriced: false,
    });
  });

  it('a percentage off is read from an admin’s number (two decimals, above 0, at most 90)', () => {
    expect(checkPercentOff(12.5)).toEqual({ ok: true, value: 1250 });
    expect(checkPercentOff(null)).toEqual({ ok: true, value: null });
    expect(checkPercentOff(90)).toEqual({ ok: true, value: 9000 });
    for (const bad of [0, -1, 90.01, 12.345, Number.NaN, '10', Infinity]) expect(checkPercentOff(bad).ok).toBe(false);
  });

  const tiers = fc
    .uniqueArray(fc.integer({ min: 2, max: 1000 }), { maxLength: 4 })
    .chain((units) =>
      fc
        .array(fc.integer({ min: 1, max: 50 }), { minLength: units.length, maxLength: units.length })
        .map((steps) => ({ units: [...units].sort((a, b) => a - b), steps })),
    );
  const priced = fc
    .record({ base: fc.integer({ min: 200, max: 100_000 }), tiers })
    .map(({ base, tiers: { units, steps } }): Priced => {
      let price = base;
      return {
        priceCents: base,
        priceTiers: units.map((minUnits, i) => ({ minUnits, priceCents: (price = Math.max(1, price - steps[i])) })),
      };
    });
  const company = fc.record({
    percentOffBasisPoints: fc.option(fc.integer({ min: 1, max: maxPercentOffBasisPoints })),
    fixed: fc.option(priced),
  });

  it('property: never above the list price, never below 1 cent, and the company’s price whenever it is lower', () => {
    fc.assert(
      fc.property(priced, company, fc.integer({ min: 1, max: 5000 }), (p, c, amount) => {
        const { unitPriceCents: unit, companyPriced } = buyerPrice(p, amount, c);
        const list = unitPriceCents(p, amount);
        const theirs = companyUnitPriceCents(p, amount, c);
        expect(unit).toBeLessThanOrEqual(list);
        expect(unit).toBeGreaterThanOrEqual(1);
        expect(unit).toBe(theirs === null ? list : Math.min(list, theirs));
        expect(companyPriced).toBe(unit < list);
        expect(buyerPrice(p, amount, null).unitPriceCents).toBe(list);
      }),
    );
  });

  it('the next break promises a member only what their rule gives', () => {
    // The company pays $8.50 (and $8.00 from 20): the list's break at 50 ($9.00) saves them nothing; 100 ($7.00) does.
    const fixed: CompanyPrice = { fixed: { priceCents: 850, priceTiers: [{ minUnits: 20, priceCents: 800 }] } };
    expect(nextBuyerBreak(part, 1, fixed)).toEqual({
      tier: { minUnits: 20, priceCents: 800 },
      unitsMore: 19,
      savesPerUnitCents: 50,
    });
    expect(nextBuyerBreak(part, 20, fixed)).toEqual({
      tier: { minUnits: 100, priceCents: 700 },
      unitsMore: 80,
      savesPerUnitCents: 100,
    });
    expect(nextBuyerBreak(part, 100, fixed)).toBeNull();
    expect(nextBuyerBreak(part, 10, null)).toEqual(nextTier(part, 10));
  });

  it('property: the next break is the fewest units above the amount at a lower unit price, by the rule', () => {
    fc.assert(
      fc.property(priced, fc.option(company), fc.integer({ min: 1, max: 1200 }), (p, c, amount) => {
        const now = buyerUnitPriceCents(p, amount, c);
        const next = nextBuyerBreak(p, amount, c);
        const lastStep = Math.max(amount, ...(p.priceTiers ?? []).map((t) => t.minUnits), 1000) + 1;
        let first: number | null = null;
        for (let units = amount + 1; units <= lastStep && first === null; units++)
          if (buyerUnitPriceCents(p, units, c) < now) first = units;
        if (first === null) expect(next).toBeNull();
        else
          expect(next).toEqual({
            tier: { minUnits: first, priceCents: buyerUnitPriceCents(p, first, c) },
            unitsMore: first - amount,
            savesPerUnitCents: now - buyerUnitPriceCents(p, first, c),
          });
        if (!c) expect(next === null ? null : next.tier.minUnits).toBe(nextTier(p, amount)?.tier.minUnits ?? null);
      }),
      { numRuns: 300 },
    );
  });
});
