import { check, limits, orderAmountSchema } from '@partsyard/common';
import type { PartRow } from '../../src/db/schema';
import { amountProblem } from '../../src/services/cartLines';

/**
 * The cart's amount rule asks the one rule (common/src/orderAmount.ts) without building the forms' schema: it must
 * say what the schema (common/rules.ts, orderAmountSchema) says on every amount around every bound.
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

  it('says what the schema says, for every amount around every bound', () => {
    for (const p of parts) {
      for (const amount of amounts) {
        const byRule = check(orderAmountSchema(p), { orderAmount: amount });
        const message = byRule.ok ? null : (byRule.errors.orderAmount ?? null);
        expect([p, amount, amountProblem(p, amount)]).toEqual([p, amount, message]);
      }
    }
  });
});
