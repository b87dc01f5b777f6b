import fc from 'fast-check';
import { maxChargeCents, maxQuantity, messages } from '../src/messages';
import { orderAmountProblem, readOrderAmount, sentAmountProblem, type StockLimits } from '../src/orderAmount';
import { check, orderAmountSchema } from '../src/rules';

/*
 * The amount rule without yup (orderAmount.ts, what the cart's pages use) and the forms' and API's yup schema
 * (rules.ts, which casts and then asks the same rule) must answer every amount alike: one rule, two doors.
 */
const stockArb: fc.Arbitrary<StockLimits> = fc.record({
  minOrder: fc.integer({ min: 1, max: 500 }),
  available: fc.integer({ min: 0, max: 2_000_000 }),
  priceCents: fc.option(fc.integer({ min: 1, max: maxChargeCents }), { nil: undefined }),
  packSize: fc.option(fc.integer({ min: 1, max: 50 }), { nil: null }),
});
const amountArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: -10, max: 2_000_000 }),
  fc.double(),
  fc.integer({ min: 0, max: 3_000 }).map((n) => ` ${n} `),
  fc.integer({ min: 0, max: 3_000 }).map((n) => `${n}`.replace(/(\d)(\d)/, '$1 $2')),
  fc.string(),
  fc.constantFrom(
    null,
    undefined,
    '',
    ' ',
    'NaN',
    'Infinity',
    '-0',
    '1e3',
    '0x10',
    '12abc',
    true,
    false,
    [5],
    {},
    [],
    1.5,
  ),
);
const viaSchema = (stock: StockLimits, amount: unknown) => {
  const result = check(orderAmountSchema(stock), { orderAmount: amount });
  return result.ok ? null : (result.errors.orderAmount ?? null);
};

describe('the order amount rule (common/src/orderAmount.ts)', () => {
  it('answers every amount as the yup schema of the forms and the API does, by property', () => {
    fc.assert(
      fc.property(stockArb, amountArb, (stock, amount) => {
        expect(sentAmountProblem(stock, amount)).toBe(viaSchema(stock, amount));
      }),
      { numRuns: 2_000 },
    );
  });

  it('says the first rule broken, in the forms’ order', () => {
    const stock = { minOrder: 10, available: 100, priceCents: 1_000, packSize: 4 };
    expect(orderAmountProblem(stock, 12)).toBeNull();
    expect(orderAmountProblem(stock, 9.5)).toBe(messages.wholeNumber);
    expect(orderAmountProblem(stock, 8)).toBe(messages.orderAmountBelowMin(10));
    expect(orderAmountProblem(stock, 104)).toBe(messages.orderAmountAboveAvailable(100));
    expect(orderAmountProblem(stock, 13)).toBe(messages.notPackMultiple(4, 12, 16));
    expect(orderAmountProblem({ minOrder: 1, available: 2 * maxQuantity }, maxQuantity + 1)).toBe(
      messages.tooLarge(maxQuantity),
    );
    expect(orderAmountProblem({ minOrder: 1, available: 10, priceCents: maxChargeCents }, 2)).toBe(
      messages.orderTotalTooLarge(1),
    );
  });

  it('reads an amount as the forms send it', () => {
    expect(readOrderAmount(' 1 200 ')).toBe(1200);
    expect(readOrderAmount('')).toBeNull();
    expect(readOrderAmount('many')).toBeNull();
    expect(readOrderAmount(null)).toBeNull();
    expect(readOrderAmount(7)).toBe(7);
    expect(sentAmountProblem({ minOrder: 1, available: 5 }, undefined)).toBe(messages.orderAmountRequired);
  });
});
