import { check, limits, orderAmountSchema } from '@partsyard/common';
import type { PartRow } from '../../src/db/schema';
import { amountProblem, passesPlainly } from '../../src/services/cartLines';

/**
 * The cart's amount rule answers the common case (an amount that passes) without building the rule's schema: the
 * shortcut must agree with the rule itself (common/rules.ts, orderAmountRule) on every amount around every bound.
 */
describe("the cart's amount rule", () => {
  const part = (values: Partial<PartRow>) =>
    ({ minOrder: 1, available: 10, priceCents: 500, packSize: 1, ...values }) as PartRow;
  const chargeBound = Math.floor(limits.maxChargeCents / 7_000_000);
  const parts = [
    part({}),
    part({ minOrder: 5 }),
    part({ available: 0 }),
    part({ available: 3, minOrder: 5 }),
    part({ packSize: 6, available: 100 }),
    part({ packSize: 5, minOrder: 5, available: 20 }),
    part({ available: limits.maxQuantity + 10, priceCents: 1 }),
    part({ available: 1000, priceCents: 7_000_000 }),
  ];
  const amounts = [
    -1,
    0,
    1,
    2,
    3,
    4,
    5,
    6,
    9,
    10,
    11,
    12,
    19,
    20,
    21,
    chargeBound,
    chargeBound + 1,
    limits.maxQuantity,
    limits.maxQuantity + 1,
    2.5,
    Number.NaN,
  ];

  it('passes an amount plainly exactly when the rule passes it', () => {
    for (const p of parts) {
      for (const amount of amounts) {
        const byRule = check(orderAmountSchema(p), { orderAmount: amount }).ok;
        expect([p, amount, passesPlainly(p, amount)]).toEqual([p, amount, byRule]);
        expect(amountProblem(p, amount) === null).toBe(byRule);
      }
    }
  });
});
