import { messages, quickOrderMessages } from '@partsyard/common';
import { eq } from 'drizzle-orm';
import { cartLines, orders, parts } from '../../src/db/schema';
import { savedListMessages } from '../../src/ordering/savedListsService';
import type { Actor } from '../../src/services/actor';
import { cartFullMessage, maxCartLines } from '../../src/services/cartLines';
import { addNumber, insertPart, uniqueCode } from '../catalog/catalogSupport';
import { actorOf, expectAppError, placeOrderAs, signUp } from '../services/helpers';
import { databaseKinds } from '../support/env';
import { generousOrderLimits, startTestApp, type TestApp } from '../support/testApp';

/**
 * Issue 34: quick order's check (every line outcome), adding all or nothing (a line losing a stock race changes
 * nothing), order again, and saved lists, through the services.
 */
describe.each(databaseKinds)('ordering by part number (%s)', (kind) => {
  let app: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    app = await startTestApp(kind, { orders: generousOrderLimits });
    admin = await actorOf(app, await signUp(app, { admin: true }));
  });
  afterAll(() => app?.close());

  const db = () => app.server.database.db;
  const quick = () => app.server.services.quickOrder;
  const lists = () => app.server.services.savedLists;
  const customer = async () => actorOf(app, await signUp(app));
  const cartOf = (actor: Actor) => app.server.services.cart.cart(actor);
  const part = (name: string, values: Partial<typeof parts.$inferInsert> = {}) =>
    insertPart(db(), `${name} ${uniqueCode()}`, { available: 100, ...values });

  describe('the check: each line outcome', () => {
    it('finds parts by SKU or any number, prices each line at its quantity break, and totals the good lines', async () => {
      const pads = await part('Pads', {
        priceCents: 1000,
        priceTiers: [
          { minUnits: 10, priceCents: 900 },
          { minUnits: 50, priceCents: 800 },
        ],
      });
      const oem = `22201-${uniqueCode()}-000`;
      await addNumber(db(), pads.id, 'oem', oem);
      const chain = await part('Chain', { priceCents: 2500 });
      const view = await quick().check(null, [
        { number: pads.sku.toLowerCase(), quantity: '12' },
        { number: chain.sku.replace('-', ' '), quantity: 2 },
      ]);
      expect(
        view.lines.map((l) => [l.line, l.part?.id, l.amount, l.unitPriceCents, l.lineTotalCents, l.problem]),
      ).toEqual([
        [1, pads.id, 12, 900, 10_800, null],
        [2, chain.id, 2, 2500, 5000, null],
      ]);
      expect(view).toMatchObject({ totalCents: 15_800, problemCount: 0, ready: true });
      // The OEM number, written with other separators, finds the same part.
      const byOem = await quick().check(null, [{ number: oem.replace(/-/g, '.'), quantity: '50' }]);
      expect(byOem.lines[0]).toMatchObject({ part: { id: pads.id }, unitPriceCents: 800, problem: null });
    });

    it('says an unknown number with the nearest numbers, a superseded one with its replacement, an ambiguous one with its parts', async () => {
      const code = uniqueCode();
      const old = await part('Old filter');
      const current = await part('New filter');
      await db().update(parts).set({ replacedById: current.id }).where(eq(parts.id, old.id));
      const a = await part('Lever A');
      const b = await part('Lever B');
      await addNumber(db(), a.id, 'interchange', `IC-${code}`);
      await addNumber(db(), b.id, 'interchange', `IC-${code}`);
      await addNumber(db(), a.id, 'manufacturer', `MFR-${code}-77`);
      const view = await quick().check(null, [
        { number: `MFR-${code}-78`, quantity: '1', line: 4 },
        { number: old.sku, quantity: '3', line: 5 },
        { number: `ic ${code}`, quantity: '1', line: 6 },
        { number: 'NO-SUCH-NUMBER-AT-ALL-9Q9Q9Q', quantity: '1', line: 7 },
      ]);
      const [unknown, superseded, ambiguous, nothing] = view.lines;
      expect(unknown).toMatchObject({ line: 4, problem: { kind: 'unknown_number' } });
      expect(unknown.suggestions.map((s) => [s.number, s.part.id])).toContainEqual([`MFR-${code}-77`, a.id]);
      expect(unknown.problem?.message).toContain(`MFR-${code}-77`);
      expect(superseded).toMatchObject({
        line: 5,
        part: { id: old.id },
        replacement: { id: current.id },
        replacementProblem: null,
        problem: { kind: 'superseded' },
      });
      expect(superseded.problem?.message).toContain(`replaced by ${current.sku}`);
      expect(ambiguous.problem?.kind).toBe('ambiguous');
      expect(ambiguous.candidates.map((p) => p.id).sort()).toEqual([a.id, b.id].sort());
      expect(nothing).toMatchObject({ problem: { kind: 'unknown_number' }, suggestions: [] });
      expect(view).toMatchObject({ totalCents: 0, problemCount: 4, ready: false });
    });

    it('suggests the numbers sharing the longest start or ending with an unknown one, for every unknown line', async () => {
      const code = uniqueCode();
      const disc = await part('Brake disc');
      const lever = await part('Lever');
      const discNumber = `${code}-448-907`;
      const leverNumber = `${code}-448-100`;
      await addNumber(db(), disc.id, 'oem', discNumber);
      await addNumber(db(), lever.id, 'oem', leverNumber);
      const wrongFirst = code[0] === 'Q' ? 'W' : 'Q';
      const view = await quick().check(null, [
        // The last digit wrong: the numbers sharing the longest start, the closest first.
        { number: `${code}-448-908`, quantity: '1' },
        // The first character wrong: the number sharing the longest ending (the lever's shares too little).
        { number: `${wrongFirst}${code.slice(1)}-448-907`, quantity: '1' },
        // Cut short: the numbers it is the start of.
        { number: `${code}-448`, quantity: '1' },
        // Sixty more unknown lines (more than the 50 that once had suggestions): each gets its own.
        ...Array.from({ length: 60 }, (_, i) => ({ number: `${discNumber}-${i}`, quantity: '1' })),
      ]);
      const suggested = view.lines.map((l) => l.suggestions.map((s) => [s.number, s.part.id]));
      expect(suggested[0]).toEqual([
        [discNumber, disc.id],
        [leverNumber, lever.id],
      ]);
      expect(view.lines[0].problem).toEqual({
        kind: 'unknown_number',
        message: `No part has this number; did you mean ${discNumber}, ${leverNumber}?`,
      });
      expect(suggested[1]).toEqual([[discNumber, disc.id]]);
      expect(suggested[2]).toEqual([
        [leverNumber, lever.id],
        [discNumber, disc.id],
      ]);
      expect(suggested.slice(3).every((s) => s.length >= 1 && s[0][0] === discNumber)).toBe(true);
      expect(view.problemCount).toBe(63);
    });

    it('suggests the current part for a near number of a replaced one', async () => {
      const code = uniqueCode();
      const old = await part('Old chain');
      const current = await part('New chain');
      await db().update(parts).set({ replacedById: current.id }).where(eq(parts.id, old.id));
      await addNumber(db(), old.id, 'manufacturer', `CH-${code}-520`);
      const view = await quick().check(null, [{ number: `CH-${code}-521`, quantity: '1' }]);
      expect(view.lines[0].suggestions.map((s) => [s.number, s.part.id])).toEqual([[`CH-${code}-520`, current.id]]);
    });

    it("says below the minimum, not a multiple of the pack, more than the stock (how many there are), in the cart's words", async () => {
      const min = await part('Min', { minOrder: 5 });
      const pack = await part('Pack', { packSize: 6 });
      const few = await part('Few', { available: 3 });
      const unpriced = await part('Unpriced', { priceCents: 0 });
      const view = await quick().check(null, [
        { number: min.sku, quantity: '4' },
        { number: pack.sku, quantity: '8' },
        { number: few.sku, quantity: '4' },
        { number: unpriced.sku, quantity: '1' },
      ]);
      expect(view.lines.map((l) => l.problem)).toEqual([
        { kind: 'below_minimum', message: messages.orderAmountBelowMin(5) },
        { kind: 'not_pack_multiple', message: messages.notPackMultiple(6, 6, 12) },
        { kind: 'not_enough_stock', message: messages.orderAmountAboveAvailable(3) },
        { kind: 'not_for_sale', message: messages.partNotForSale },
      ]);
      // The price is still shown for a line the rules refuse (the grid shows it while it is fixed).
      expect(view.lines[0].unitPriceCents).toBe(1000);
    });

    it('says a bad quantity or a bad number on its line: negative, huge, fractions, words, formulas, 10 kB, odd Unicode', async () => {
      const p = await part('Bolt');
      const view = await quick().check(null, [
        { number: p.sku, quantity: '-3' },
        { number: p.sku, quantity: '99999999999999999999' },
        { number: p.sku, quantity: '2.5' },
        { number: p.sku, quantity: '=1+1' },
        { number: p.sku, quantity: 1e12 },
        { number: 'x'.repeat(10_000), quantity: '1' },
        { number: 'A\u0000B', quantity: '1' },
        { number: '--//', quantity: '1' },
        { number: '', quantity: '1' },
        { number: '=HYPERLINK("http://evil","x")', quantity: '1' },
        { number: '\ud800\u202eé🔧', quantity: '1' },
        { number: { toString: 'x' }, quantity: [] },
      ]);
      expect(view.lines.map((l) => l.problem?.kind)).toEqual([
        'bad_quantity',
        'bad_quantity',
        'bad_quantity',
        'bad_quantity',
        'not_enough_stock',
        'bad_number',
        'bad_number',
        'bad_number',
        'bad_number',
        'unknown_number',
        'unknown_number',
        'bad_number',
      ]);
      expect(view.lines[0].problem?.message).toBe(quickOrderMessages.quantityTooSmall);
      expect(view.lines[5].number).toHaveLength(200);
      expect(view.lines[4].problem?.message).toBe(messages.orderAmountAboveAvailable(100));
    });

    it('merges the same part sent twice (by SKU and by another number) onto the first line, checking the sum, and says so', async () => {
      const p = await part('Spark plug', { available: 10 });
      const number = `NGK-${uniqueCode()}`;
      await addNumber(db(), p.id, 'manufacturer', number);
      const fits = await quick().check(null, [
        { number: p.sku, quantity: '4', line: 1 },
        { number, quantity: '5', line: 2 },
      ]);
      expect(fits.lines.map((l) => [l.amount, l.mergedInto, l.mergedLines, l.lineTotalCents, l.problem])).toEqual([
        [9, null, [2], 9000, null],
        [5, 1, [], null, null],
      ]);
      expect(fits.lines.map((l) => l.note)).toEqual([
        'Same part as line 2: merged, 9 in all',
        'Same part as line 1: merged into it',
      ]);
      expect(fits.totalCents).toBe(9000);
      const tooMany = await quick().check(null, [
        { number: p.sku, quantity: '6' },
        { number, quantity: '6' },
      ]);
      // Each alone fits the stock; the sum does not: both lines stay with the problem.
      expect(tooMany.lines.map((l) => l.problem?.kind)).toEqual(['not_enough_stock', 'not_enough_stock']);
    });

    it('refuses no lines and 1,001 lines as a whole, and writes nothing', async () => {
      const none = await expectAppError(quick().check(null, []), 'BAD_USER_INPUT');
      expect(none.fields).toEqual({ lines: quickOrderMessages.noLines });
      const many = Array.from({ length: 1001 }, () => ({ number: 'X', quantity: '1' }));
      const over = await expectAppError(quick().check(null, many), 'BAD_USER_INPUT');
      expect(over.fields).toEqual({ lines: quickOrderMessages.tooManyLines(1001) });
      await expectAppError(quick().check(null, 'PY-1 4'), 'BAD_USER_INPUT');
      await expectAppError(quick().check(null, [null]), 'BAD_USER_INPUT');
      await expectAppError(quick().check(null, [{ number: 'A', quantity: '1', line: -1 }]), 'BAD_USER_INPUT');
    });

    it('checks 1,000 lines in a handful of statements', async () => {
      const p = await part('Washer', { available: 100_000 });
      const statements: string[] = [];
      const { db: database } = app.server.database;
      const execute = database.execute.bind(database);
      const lines = Array.from({ length: 1000 }, (_, i) => ({
        number: i % 2 ? p.sku : `UNKNOWN-${i}`,
        quantity: '1',
      }));
      const spy = jest.spyOn(database, 'execute').mockImplementation((query) => {
        statements.push('execute');
        return execute(query as never) as never;
      });
      const started = Date.now();
      const view = await quick().check(null, lines);
      spy.mockRestore();
      expect(view.lines).toHaveLength(1000);
      expect(view.lines[1]).toMatchObject({ amount: 500, mergedLines: expect.any(Array) });
      // exactMatches, nearestNumbers and (for replaced parts only) the supersession chain are raw statements; the
      // parts are selects.
      expect(statements.length).toBeLessThanOrEqual(3);
      expect(Date.now() - started).toBeLessThan(20_000);
    });

    it('writes the problem lines as CSV, formula-looking cells as text', async () => {
      const csv = await quick().problemsCsv(null, [
        { number: '=HYPERLINK("http://evil","x")', quantity: '+1', line: 3 },
        { number: 'ok, "quoted"', quantity: '-2', line: 9 },
      ]);
      expect(csv.split('\r\n')).toEqual([
        'line,number,quantity,problem',
        `3,"'=HYPERLINK(""http://evil"",""x"")",'+1,No part has this number`,
        `9,"ok, ""quoted""",'-2,${quickOrderMessages.quantityTooSmall}`,
        '',
      ]);
    });
  });

  describe('adding to the cart: all or nothing', () => {
    it('adds every line at once, summed with what the cart holds', async () => {
      const buyer = await customer();
      const a = await part('A');
      const b = await part('B', { priceTiers: [{ minUnits: 10, priceCents: 700 }] });
      await app.server.services.cart.addToCart(buyer, a.id, 2);
      const result = await quick().addToCart(buyer, [
        { number: a.sku, quantity: '3' },
        { number: b.sku, quantity: '10' },
      ]);
      expect(result.added).toBe(true);
      expect(result.cart.lines.map((l) => [l.partId, l.amount, l.unitPriceCents])).toEqual([
        [a.id, 5, 1000],
        [b.id, 10, 700],
      ]);
    });

    it('changes nothing when any line has a problem, and says which', async () => {
      const buyer = await customer();
      const a = await part('A');
      const result = await quick().addToCart(buyer, [
        { number: a.sku, quantity: '1' },
        { number: 'NOPE-NOPE-NOPE-1', quantity: '1' },
      ]);
      expect(result.added).toBe(false);
      expect(result.check.lines.map((l) => l.problem?.kind ?? null)).toEqual([null, 'unknown_number']);
      expect((await cartOf(buyer)).lines).toEqual([]);
    });

    it('a line that loses a stock race after its check makes nothing change, and the answer names it', async () => {
      const buyer = await customer();
      const rival = await customer();
      const a = await part('A', { available: 100 });
      const scarce = await part('Scarce', { available: 5 });
      const lines = [
        { number: a.sku, quantity: '10', line: 1 },
        { number: scarce.sku, quantity: '5', line: 2 },
      ];
      expect((await quick().check(buyer, lines)).ready).toBe(true);
      // Between the check and the add, another customer buys the scarce part.
      await placeOrderAs(app, rival, scarce.id, { orderAmount: 3 });
      const result = await quick().addToCart(buyer, lines);
      expect(result.added).toBe(false);
      expect(result.check.lines.map((l) => [l.line, l.problem])).toEqual([
        [1, null],
        [2, { kind: 'not_enough_stock', message: messages.orderAmountAboveAvailable(2) }],
      ]);
      expect(await db().select().from(cartLines).where(eq(cartLines.userId, buyer.userId))).toEqual([]);
    });

    it("the stock race inside the add's own transaction: what the cart holds already counts, and nothing is written", async () => {
      const buyer = await customer();
      const a = await part('A', { available: 50 });
      const b = await part('B', { available: 8 });
      await app.server.services.cart.addToCart(buyer, b.id, 5);
      const result = await quick().addToCart(buyer, [
        { number: a.sku, quantity: '1' },
        { number: b.sku, quantity: '4' },
      ]);
      expect(result.added).toBe(false);
      expect(result.check.lines[1].problem).toEqual({
        kind: 'not_enough_stock',
        message: `Your cart holds 5 already, and with these: ${messages.orderAmountAboveAvailable(8)}`,
      });
      expect((await cartOf(buyer)).lines.map((l) => [l.partId, l.amount])).toEqual([[b.id, 5]]);
    });

    it("keeps to the cart's size: past it nothing is added", async () => {
      const buyer = await customer();
      const many = await Promise.all(Array.from({ length: maxCartLines + 1 }, (_, i) => part(`P${i}`)));
      const result = await quick().addToCart(
        buyer,
        many.map((p) => ({ number: p.sku, quantity: '1' })),
      );
      expect(result.added).toBe(false);
      expect(result.check.lines.filter((l) => l.problem).map((l) => l.problem?.message)).toEqual([cartFullMessage]);
      expect((await cartOf(buyer)).lines).toEqual([]);
    });

    it('needs a signed-in caller', async () => {
      await expectAppError(quick().addToCart(null, [{ number: 'X', quantity: '1' }]), 'UNAUTHENTICATED');
    });
  });

  describe('order again', () => {
    it("puts a past order back into the cart; a past checkout's orders all at once", async () => {
      const buyer = await customer();
      const a = await part('A');
      const order = await placeOrderAs(app, buyer, a.id, { orderAmount: 4 });
      const again = await quick().orderAgain(buyer, { orderId: order.id });
      expect(again.added).toBe(true);
      expect(again.cart.lines.map((l) => [l.partId, l.amount])).toEqual([[a.id, 4]]);
    });

    it('a superseded part offers its replacement, a part now gone says so, and nothing changes', async () => {
      const buyer = await customer();
      const old = await part('Old');
      const gone = await part('Gone');
      const replacement = await part('New');
      const first = await placeOrderAs(app, buyer, old.id, { orderAmount: 2 });
      const second = await placeOrderAs(app, buyer, gone.id, { orderAmount: 1 });
      await db().update(parts).set({ replacedById: replacement.id }).where(eq(parts.id, old.id));
      await db().update(orders).set({ partId: null }).where(eq(orders.id, second.id));
      const oldAgain = await quick().orderAgain(buyer, { orderId: first.id });
      expect(oldAgain.added).toBe(false);
      expect(oldAgain.check.lines[0]).toMatchObject({
        problem: { kind: 'superseded' },
        replacement: { id: replacement.id },
      });
      const goneAgain = await quick().orderAgain(buyer, { orderId: second.id });
      expect(goneAgain.check.lines[0]).toMatchObject({ number: gone.name, problem: { kind: 'part_gone' } });
      expect((await cartOf(buyer)).lines).toEqual([]);
    });

    it("refuses another customer's order and an admin, and an order that is not there", async () => {
      const buyer = await customer();
      const order = await placeOrderAs(app, buyer, (await part('A')).id, { orderAmount: 1 });
      await expectAppError(quick().orderAgain(await customer(), { orderId: order.id }), 'FORBIDDEN');
      await expectAppError(quick().orderAgain(admin, { orderId: order.id }), 'FORBIDDEN');
      await expectAppError(quick().orderAgain(buyer, { checkoutId: order.id }), 'NOT_FOUND');
      await expectAppError(quick().orderAgain(buyer, {}), 'BAD_USER_INPUT');
    });
  });

  describe('saved lists', () => {
    it('are created, renamed, filled from a part, the cart, quick-order lines and a past order, and put into the cart', async () => {
      const owner = await customer();
      const a = await part('A');
      const b = await part('B');
      const c = await part('C');
      const list = await lists().createSavedList(owner, '  Workshop consumables ');
      expect(list).toMatchObject({ name: 'Workshop consumables', lines: [] });
      await expectAppError(lists().createSavedList(owner, 'workshop CONSUMABLES'), 'CONFLICT');
      await lists().setSavedListLine(owner, list.id, a.id, 2);
      await app.server.services.cart.addToCart(owner, b.id, 3);
      await lists().addCartToSavedList(owner, list.id);
      const fromGrid = await lists().addQuickOrderToSavedList(owner, list.id, [
        { number: a.sku, quantity: '1', line: 1 },
        { number: 'NOT-A-NUMBER-ZZ', quantity: '1', line: 2 },
      ]);
      expect(fromGrid.skipped.map((s) => s.line)).toEqual([2]);
      const order = await placeOrderAs(app, owner, c.id, { orderAmount: 1 });
      await lists().addOrderToSavedList(owner, list.id, { orderId: order.id });
      const renamed = await lists().renameSavedList(owner, list.id, 'Service kit');
      expect(renamed.lines.map((l) => [l.partId, l.quantity])).toEqual([
        [a.id, 3],
        [b.id, 3],
        [c.id, 1],
      ]);
      expect((await lists().myLists(owner)).map((l) => [l.name, l.lineCount])).toEqual([['Service kit', 3]]);
      await app.server.services.cart.removeCartLine(owner, b.id);
      const inCart = await lists().savedListToCart(owner, list.id);
      expect(inCart.added).toBe(true);
      expect(inCart.cart.lines.map((l) => [l.partId, l.amount])).toEqual([
        [a.id, 3],
        [b.id, 3],
        [c.id, 1],
      ]);
      await lists().removeSavedListLine(owner, list.id, { partId: a.id });
      expect(await lists().deleteSavedList(owner, list.id)).toBe(list.id);
      await expectAppError(lists().savedList(owner, list.id), 'NOT_FOUND');
    });

    it('a line whose part was deleted says so, blocks the list, and is removed by its own id; then the list goes in', async () => {
      const owner = await customer();
      const kept = await part('Kept');
      const doomed = await part('Doomed');
      const list = await lists().createSavedList(owner, 'Old kit');
      await lists().setSavedListLine(owner, list.id, kept.id, 2);
      await lists().setSavedListLine(owner, list.id, doomed.id, 1);
      // A part deleted from the catalog leaves its line without a part id (saved_list_lines.part_id: set null).
      await db().delete(parts).where(eq(parts.id, doomed.id));
      const view = await lists().savedList(owner, list.id);
      const goneLine = view.lines.find((l) => l.partId === null);
      expect(goneLine).toMatchObject({ sku: doomed.sku, problem: savedListMessages.partGone });
      expect((await lists().savedListToCart(owner, list.id)).added).toBe(false);
      // Named by neither or both: refused; by another list's line: not in this list.
      await expectAppError(lists().removeSavedListLine(owner, list.id, {}), 'BAD_USER_INPUT');
      await expectAppError(
        lists().removeSavedListLine(owner, list.id, { partId: kept.id, lineId: goneLine!.id }),
        'BAD_USER_INPUT',
      );
      const stranger = await customer();
      await expectAppError(lists().removeSavedListLine(stranger, list.id, { lineId: goneLine!.id }), 'FORBIDDEN');
      const after = await lists().removeSavedListLine(owner, list.id, { lineId: goneLine!.id });
      expect(after.lines.map((l) => l.partId)).toEqual([kept.id]);
      expect((await lists().savedListToCart(owner, list.id)).added).toBe(true);
    });

    it('a list with a part that loses its stock goes into the cart not at all', async () => {
      const owner = await customer();
      const a = await part('A');
      const scarce = await part('Scarce', { available: 4 });
      const list = await lists().createSavedList(owner, 'Kit');
      await lists().setSavedListLine(owner, list.id, a.id, 1);
      await lists().setSavedListLine(owner, list.id, scarce.id, 4);
      await db().update(parts).set({ available: 1 }).where(eq(parts.id, scarce.id));
      const result = await lists().savedListToCart(owner, list.id);
      expect(result.added).toBe(false);
      expect(result.check.lines.map((l) => l.problem?.kind ?? null)).toEqual([null, 'not_enough_stock']);
      expect((await cartOf(owner)).lines).toEqual([]);
      await expectAppError(
        lists().savedListToCart(owner, (await lists().createSavedList(owner, 'Empty')).id),
        'BAD_USER_INPUT',
      );
    });

    it('are private: another customer and an admin are refused every operation, a visitor must sign in', async () => {
      const owner = await customer();
      const a = await part('A');
      const list = await lists().createSavedList(owner, 'Mine');
      await lists().setSavedListLine(owner, list.id, a.id, 1);
      for (const stranger of [await customer(), admin]) {
        const attempts = [
          lists().savedList(stranger, list.id),
          lists().renameSavedList(stranger, list.id, 'Theirs'),
          lists().deleteSavedList(stranger, list.id),
          lists().setSavedListLine(stranger, list.id, a.id, 5),
          lists().removeSavedListLine(stranger, list.id, { partId: a.id }),
          lists().addCartToSavedList(stranger, list.id),
          lists().addQuickOrderToSavedList(stranger, list.id, [{ number: a.sku, quantity: '1' }]),
          lists().savedListToCart(stranger, list.id),
        ];
        for (const attempt of attempts) await expectAppError(attempt, 'FORBIDDEN');
        expect(await lists().myLists(stranger)).toEqual([]);
      }
      await expectAppError(lists().myLists(null), 'UNAUTHENTICATED');
      await expectAppError(lists().savedList(null, list.id), 'UNAUTHENTICATED');
      const still = await lists().savedList(owner, list.id);
      expect(still).toMatchObject({ name: 'Mine', lines: [{ partId: a.id, quantity: 1 }] });
    });

    it('refuse bad names and quantities with a message', async () => {
      const owner = await customer();
      const list = await lists().createSavedList(owner, 'Kit');
      const p = await part('A');
      expect((await expectAppError(lists().createSavedList(owner, '  '), 'BAD_USER_INPUT')).fields).toEqual({
        name: savedListMessages.nameRequired,
      });
      await expectAppError(lists().createSavedList(owner, 'x'.repeat(10_000)), 'BAD_USER_INPUT');
      await expectAppError(lists().renameSavedList(owner, list.id, 'a\u0000b'), 'BAD_USER_INPUT');
      for (const quantity of [0, -1, 2.5, 1e12, '3'])
        await expectAppError(lists().setSavedListLine(owner, list.id, p.id, quantity), 'BAD_USER_INPUT');
      await expectAppError(lists().setSavedListLine(owner, list.id, 'nope', 1), 'NOT_FOUND');
      expect((await lists().savedList(owner, list.id)).lines).toEqual([]);
    });
  });
});
