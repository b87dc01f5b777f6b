import { messages, pricingMessages } from '@partsyard/common';
import { eq, sql } from 'drizzle-orm';
import { cartLines, orders, outbox, parts, payments } from '../../src/db/schema';
import type { Actor } from '../../src/services/actor';
import { maxCartLines, mergeIdMessage } from '../../src/services/cartService';
import {
  checkoutTooLargeMessage,
  partGoneMessage,
  stockTakenMessage,
  tooManyUnpaidOrders,
} from '../../src/services/ordersService';
import { databaseKinds } from '../support/env';
import { generousOrderLimits, startTestApp, type TestApp, type TestUser } from '../support/testApp';
import { actorOf, addPartAs, expectAppError, partRow, placeOrderAs, signUp, testCard } from './helpers';
import { deliverWebhook, FakeStripe, stripeSettings } from './fakeStripe';

/**
 * Issue 14: the cart (rules and merge), checkout (all or nothing, one checkout id, the unpaid cap), one payment
 * for a checkout (test gateway and Stripe), quantity breaks and packs priced by the server.
 */

const contact = { name: 'Rider One', phone: '01712345678', address: 'Road 5, Dhaka' };

describe.each(databaseKinds)('the cart and checkout (%s)', (kind) => {
  let app: TestApp;
  let admin: Actor;
  let user: TestUser;
  let customer: Actor;

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = await actorOf(app, await signUp(app, { admin: true }));
    user = await signUp(app);
    customer = await actorOf(app, user);
  });
  afterAll(() => app?.close());

  const cart = () => app.server.services.cart;
  const db = () => app.server.database.db;
  /** A new customer with an empty cart. */
  const newCustomer = async () => actorOf(app, await signUp(app));
  const part = (overrides: Record<string, unknown> = {}) =>
    addPartAs(app, admin, { price: 10, minOrder: 5, available: 50, ...overrides });

  describe('adding to the cart follows the purchase rules, with the spec’s messages', () => {
    it('refuses less than the minimum order, more than is available and a fraction, and keeps nothing', async () => {
      const buyer = await newCustomer();
      const p = await part();
      const below = await expectAppError(cart().addToCart(buyer, p.id, 4), 'BAD_USER_INPUT');
      expect(below.fields).toEqual({ amount: messages.orderAmountBelowMin(5) });
      const above = await expectAppError(cart().addToCart(buyer, p.id, 51), 'BAD_USER_INPUT');
      expect(above.fields).toEqual({ amount: messages.orderAmountAboveAvailable(50) });
      const fraction = await expectAppError(cart().addToCart(buyer, p.id, 5.5), 'BAD_USER_INPUT');
      expect(fraction.fields).toEqual({ amount: messages.wholeNumber });
      expect((await cart().cart(buyer)).lines).toEqual([]);
    });

    it('adding a part twice sums the amounts, checked as one amount; the badge counts lines and units', async () => {
      const buyer = await newCustomer();
      const p = await part();
      await cart().addToCart(buyer, p.id, 20);
      const twice = await cart().addToCart(buyer, p.id, 25);
      expect(twice.lines.map((l) => [l.partId, l.amount])).toEqual([[p.id, 45]]);
      expect(twice).toMatchObject({ units: 45, totalCents: 45_000, ready: true });
      const tooMany = await expectAppError(cart().addToCart(buyer, p.id, 10), 'BAD_USER_INPUT');
      expect(tooMany.fields).toEqual({ amount: messages.orderAmountAboveAvailable(50) });
    });

    it('the stepper sets an amount by the same rules; remove takes the line out', async () => {
      const buyer = await newCustomer();
      const p = await part();
      await cart().addToCart(buyer, p.id, 5);
      expect((await cart().setCartLineAmount(buyer, p.id, 7)).lines[0].amount).toBe(7);
      await expectAppError(cart().setCartLineAmount(buyer, p.id, 0), 'BAD_USER_INPUT');
      expect((await cart().removeCartLine(buyer, p.id)).lines).toEqual([]);
      await expectAppError(cart().setCartLineAmount(buyer, p.id, 7), 'NOT_FOUND');
      await expectAppError(cart().removeCartLine(buyer, p.id), 'NOT_FOUND');
    });

    it('a line says when its stock fell below its amount or its price changed since it was added', async () => {
      const buyer = await newCustomer();
      const p = await part();
      await cart().addToCart(buyer, p.id, 30);
      await db().update(parts).set({ available: 12, priceCents: 1200 }).where(eq(parts.id, p.id));
      const [line] = (await cart().cart(buyer)).lines;
      expect(line.problem).toBe(messages.orderAmountAboveAvailable(12));
      expect(line.priceChange).toBe('The price changed from $10.00 to $12.00 since you added it');
      expect((await cart().cart(buyer)).ready).toBe(false);
      // Setting the amount again accepts the price now.
      const [after] = (await cart().setCartLineAmount(buyer, p.id, 10)).lines;
      expect(after).toMatchObject({ problem: null, priceChange: null, seenUnitPriceCents: 1200 });
    });

    it('a cart whose total no one card payment can carry is not ready, and says why (as checkout does)', async () => {
      const buyerUser = await signUp(app);
      const buyer = await actorOf(app, buyerUser);
      // Each line fits one card payment ($600,000); together ($1,200,000) they do not.
      const a = await part({ price: 600_000, minOrder: 1, available: 5 });
      const b = await part({ price: 600_000, minOrder: 1, available: 5 });
      await cart().addToCart(buyer, a.id, 1);
      const now = await cart().addToCart(buyer, b.id, 1);
      expect(now.lines.map((l) => l.problem)).toEqual([null, null]);
      expect(now).toMatchObject({ ready: false, problem: checkoutTooLargeMessage });
      const shown = await app.gql<{ cart: { ready: boolean; problem: string | null } }>(
        '{ cart { ready problem } }',
        {},
        buyerUser.token,
      );
      expect(shown.data?.cart).toEqual({ ready: false, problem: checkoutTooLargeMessage });
      const refused = await expectAppError(cart().checkout(buyer, contact), 'CONFLICT');
      expect(refused.message).toBe(checkoutTooLargeMessage);
      await cart().removeCartLine(buyer, b.id);
      expect(await cart().cart(buyer)).toMatchObject({ ready: true, problem: null });
    });

    it('a cart holds at most 50 parts', async () => {
      const buyer = await newCustomer();
      const p = await part();
      const rows = Array.from({ length: maxCartLines }, () => p.id);
      // Fifty lines written directly (fifty parts would only slow the test down).
      const many = await Promise.all(rows.map(() => part({ available: 10, minOrder: 1 })));
      await db()
        .insert(cartLines)
        .values(many.map((m) => ({ userId: buyer.userId, partId: m.id, amount: 1, seenUnitPriceCents: 1000 })));
      await expectAppError(cart().addToCart(buyer, p.id, 5), 'BAD_USER_INPUT');
    });
  });

  describe('a visitor’s cart merges into the signed-in cart at sign-in', () => {
    it('sums amounts of the same part, caps them at the stock in whole packs, leaves out what cannot be ordered, and says so', async () => {
      const buyer = await newCustomer();
      const both = await part({ available: 40 });
      const packs = await part({ available: 100, minOrder: 6 });
      await app.server.services.parts.setPartPricing(admin, packs.id, { priceTiers: [], packSize: 6 });
      const gone = await part({ available: 3, minOrder: 1 });
      await cart().addToCart(buyer, both.id, 25);
      await db().update(parts).set({ available: 0 }).where(eq(parts.id, gone.id));
      const { cart: merged, notes } = await cart().mergeCart(buyer, [
        { partId: both.id, amount: 25 },
        { partId: packs.id, amount: 13 },
        { partId: gone.id, amount: 2 },
        { partId: '00000000-0000-4000-8000-000000000000', amount: 5 },
      ]);
      expect(merged.lines.map((l) => [l.partId, l.amount])).toEqual([
        [both.id, 40],
        [packs.id, 12],
      ]);
      expect(notes.map((n) => n.partId)).toEqual([both.id, packs.id, gone.id, '00000000-0000-4000-8000-000000000000']);
      expect(notes[0].message).toContain(messages.orderAmountAboveAvailable(40));
    });

    it('every change a merge makes to an amount comes back as a note naming its real reason', async () => {
      const buyer = await newCustomer();
      const packs = await part({ name: 'Spoke Set', minOrder: 10, available: 500 });
      await app.server.services.parts.setPartPricing(admin, packs.id, { priceTiers: [], packSize: 10 });
      const stock = await part({ name: 'Chain Kit', minOrder: 1, available: 500 });
      const huge = await part({ name: 'Brake Pad', minOrder: 1, available: 500 });
      const negative = await part({ name: 'Fork Seal', minOrder: 1 });
      const zero = await part({ name: 'Clutch Cable', minOrder: 1 });
      // $400,000 a unit: one card payment carries 2, fewer than the 10 in stock.
      const dear = await part({ name: 'Race Engine', price: 400_000, minOrder: 1, available: 10 });
      const { cart: merged, notes } = await cart().mergeCart(buyer, [
        { partId: packs.id, amount: 25 },
        { partId: stock.id, amount: 600 },
        { partId: huge.id, amount: 2_147_483_647 },
        { partId: negative.id, amount: -40 },
        { partId: zero.id, amount: 0 },
        { partId: dear.id, amount: 5 },
      ]);
      expect(merged.lines.map((l) => [l.partId, l.amount])).toEqual([
        [packs.id, 20],
        [stock.id, 500],
        [huge.id, 500],
        [dear.id, 2],
      ]);
      expect(notes).toEqual([
        { partId: packs.id, message: 'Spoke Set: Sold in packs of 10; your cart holds 20' },
        { partId: stock.id, message: `Chain Kit: ${messages.orderAmountAboveAvailable(500)}; your cart holds 500` },
        { partId: huge.id, message: `Brake Pad: ${messages.orderAmountAboveAvailable(500)}; your cart holds 500` },
        { partId: negative.id, message: 'Fork Seal: an amount of -40 cannot be ordered; left out' },
        { partId: zero.id, message: 'Clutch Cable: an amount of 0 cannot be ordered; left out' },
        // The card payment's limit, not the stock, capped it.
        { partId: dear.id, message: `Race Engine: ${messages.orderTotalTooLarge(2)}; your cart holds 2` },
      ]);
    });

    it('a merge sent again with its id (a reload while the answer was on its way) counts once, at once or later', async () => {
      const buyerUser = await signUp(app);
      const buyer = await actorOf(app, buyerUser);
      const a = await part({ name: 'Chain Kit', minOrder: 1 });
      const b = await part({ name: 'Fork Seal', minOrder: 1 });
      await cart().addToCart(buyer, a.id, 10);
      const visitor = [
        { partId: a.id, amount: 10 },
        { partId: b.id, amount: 10 },
        { partId: b.id, amount: -40 },
      ];
      const mergeId = '6f1d7c2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f';
      const first = await cart().mergeCart(buyer, visitor, mergeId);
      expect(first.repeated).toBe(false);
      expect(first.cart.lines.map((l) => l.amount)).toEqual([20, 10]);
      const again = await cart().mergeCart(buyer, visitor, mergeId);
      expect(again).toMatchObject({ repeated: true, notes: first.notes });
      expect(again.notes).toEqual([
        { partId: b.id, message: 'Fork Seal: an amount of -40 cannot be ordered; left out' },
      ]);
      expect(again.cart.lines.map((l) => l.amount)).toEqual([20, 10]);
      // Sent twice at once over GraphQL (the browser reloaded within half a second): merged once.
      const other = await signUp(app);
      await app.gql('mutation($id: ID!) { addToCart(partId: $id, amount: 10) { units } }', { id: a.id }, other.token);
      const merge = () =>
        app.gql<{ mergeCart: { repeated: boolean; cart: { lines: { amount: number }[] } } }>(
          'mutation($lines: [CartLineInput!]!, $id: ID) { mergeCart(lines: $lines, mergeId: $id) { repeated cart { lines { amount } } } }',
          { lines: visitor.slice(0, 2), id: mergeId },
          other.token,
        );
      const both = await Promise.all([merge(), merge()]);
      expect(both.map((r) => r.data?.mergeCart.repeated).sort()).toEqual([false, true]);
      const lines = await db().select().from(cartLines).where(eq(cartLines.userId, other.userId));
      expect(lines.map((l) => [l.partId, l.amount]).sort()).toEqual(
        [
          [a.id, 20],
          [b.id, 10],
        ].sort(),
      );
      // Another merge (a new id) merges again; an id that is no UUID is refused and merges nothing.
      expect((await cart().mergeCart(buyer, visitor.slice(1, 2))).cart.lines.map((l) => l.amount)).toEqual([20, 20]);
      const bad = await expectAppError(cart().mergeCart(buyer, visitor, 'reload-1'), 'BAD_USER_INPUT');
      expect(bad.fields).toEqual({ mergeId: mergeIdMessage });
      expect((await cart().cart(buyer)).units).toBe(40);
    });

    it('the merged lines keep the visitor’s order, after the lines the cart held, whatever the clock’s tick', async () => {
      const buyer = await newCustomer();
      const held = await part();
      await cart().addToCart(buyer, held.id, 5);
      const five = [];
      for (let i = 0; i < 5; i++) five.push(await part());
      // However the part ids sort, the cart shows the order they were added in.
      const visitorOrder = [...five].sort((a, b) => (a.id < b.id ? 1 : -1));
      const { cart: merged } = await cart().mergeCart(
        buyer,
        visitorOrder.map((p) => ({ partId: p.id, amount: 5 })),
      );
      expect(merged.lines.map((l) => l.partId)).toEqual([held.id, ...visitorOrder.map((p) => p.id)]);
    });
  });

  describe('checkout', () => {
    it('places every line as an order with one checkout id, takes the stock, empties the cart', async () => {
      const buyer = await newCustomer();
      const a = await part({ available: 50 });
      const b = await part({ price: 2.5, available: 30 });
      await cart().addToCart(buyer, a.id, 10);
      await cart().addToCart(buyer, b.id, 8);
      const done = await cart().checkout(buyer, { ...contact, expectedTotal: 120 });
      expect(done.totalCents).toBe(12_000);
      expect(done.orders.map((o) => [o.partId, o.orderAmount, o.totalCents, o.checkoutId])).toEqual([
        [a.id, 10, 10_000, done.checkoutId],
        [b.id, 8, 2_000, done.checkoutId],
      ]);
      expect(new Set(done.orders.map((o) => o.expiresAt.getTime())).size).toBe(1);
      expect((await partRow(app, a.id)).available).toBe(40);
      expect((await partRow(app, b.id)).available).toBe(22);
      expect((await cart().cart(buyer)).lines).toEqual([]);
    });

    it('all or nothing: when a line cannot be taken nothing is, and the answer names each failing line', async () => {
      const buyer = await newCustomer();
      const ok = await part({ available: 50 });
      const short = await part({ name: 'Chain Kit', available: 50 });
      const gone = await part({ name: 'Air Filter', available: 50 });
      await cart().addToCart(buyer, ok.id, 10);
      await cart().addToCart(buyer, short.id, 20);
      await cart().addToCart(buyer, gone.id, 5);
      await db().update(parts).set({ available: 15 }).where(eq(parts.id, short.id));
      await db().update(parts).set({ available: 0 }).where(eq(parts.id, gone.id));
      const refused = await expectAppError(cart().checkout(buyer, contact), 'BAD_USER_INPUT');
      expect(refused.fields).toEqual({
        [`lines.${short.id}`]: `Chain Kit: ${messages.orderAmountAboveAvailable(15)}`,
        [`lines.${gone.id}`]: `Air Filter: ${messages.orderAmountAboveAvailable(0)}`,
      });
      expect(refused.message).toMatch(/^Nothing was ordered: 2 lines/);
      expect(await db().select().from(orders).where(eq(orders.userId, buyer.userId))).toEqual([]);
      expect((await partRow(app, ok.id)).available).toBe(50);
      expect((await cart().cart(buyer)).lines).toHaveLength(3);
    });

    it('a line whose stock racing orders took, though it looks orderable again afterwards, says so (not that the part is gone)', async () => {
      const buyer = await newCustomer();
      const ok = await part({ available: 50 });
      const raced = await part({ name: 'Brake Lever', available: 50 });
      await cart().addToCart(buyer, ok.id, 10);
      await cart().addToCart(buyer, raced.id, 20);
      // Losing the race, made certain: while the orders are written, taking this part's stock finds nothing to
      // take (as when racing orders took it first), and checked again afterwards the part looks fine (as when
      // one of those orders was cancelled in between).
      await db().execute(
        sql.raw('create function lose_stock_race() returns trigger language plpgsql as $$ begin return null; end $$'),
      );
      await db().execute(
        sql.raw(`create trigger lose_stock_race before update on parts for each row
          when (old.id = '${raced.id}' and new.available < old.available) execute function lose_stock_race()`),
      );
      try {
        const refused = await expectAppError(cart().checkout(buyer, contact), 'BAD_USER_INPUT');
        expect(refused.fields).toEqual({ [`lines.${raced.id}`]: `Brake Lever: ${stockTakenMessage(50)}` });
        expect(refused.message).toMatch(/^Nothing was ordered: 1 line /);
        expect(refused.message).not.toContain(partGoneMessage);
      } finally {
        await db().execute(sql.raw('drop trigger lose_stock_race on parts'));
        await db().execute(sql.raw('drop function lose_stock_race()'));
      }
      expect(await db().select().from(orders).where(eq(orders.userId, buyer.userId))).toEqual([]);
      expect((await partRow(app, ok.id)).available).toBe(50);
      // The race over, the same cart checks out.
      expect((await cart().checkout(buyer, contact)).orders).toHaveLength(2);
    });

    it('nothing is placed when the total the customer saw is not what the lines cost now', async () => {
      const buyer = await newCustomer();
      const p = await part();
      await cart().addToCart(buyer, p.id, 10);
      await expectAppError(cart().checkout(buyer, { ...contact, expectedTotal: 99 }), 'CONFLICT');
      expect((await partRow(app, p.id)).available).toBe(50);
    });

    it('the contact details follow the purchase form’s rules; an empty cart cannot be checked out', async () => {
      const buyer = await newCustomer();
      const bad = await expectAppError(cart().checkout(buyer, { name: '', phone: '123' }), 'BAD_USER_INPUT');
      expect(bad.fields).toMatchObject({ name: messages.nameRequired, phone: messages.phoneTooShort });
      await expectAppError(cart().checkout(buyer, contact), 'BAD_USER_INPUT');
    });
  });

  describe('paying a checkout: one intent for the sum, every order records its transaction id', () => {
    it('pays all orders of the checkout at once from any of its orders, and each can be reviewed', async () => {
      const buyerUser = await signUp(app);
      const buyer = await actorOf(app, buyerUser);
      const a = await part();
      const b = await part({ price: 4 });
      await cart().addToCart(buyer, a.id, 5);
      await cart().addToCart(buyer, b.id, 10);
      const { orders: placed } = await cart().checkout(buyer, contact);
      const pay = app.server.services.payments;
      const intent = await pay.createPaymentIntent(buyer, placed[1].id);
      expect(intent).toMatchObject({ amountCents: 9000, orderId: placed[0].checkoutId });
      expect((await pay.payWithTestCard(buyer, intent.id, testCard())).succeeded).toBe(true);
      const confirmed = await pay.confirmPayment(buyer, placed[1].id, intent.id);
      expect(confirmed).toMatchObject({ id: placed[1].id, status: 'paid', transactionId: intent.id });
      const rows = await db()
        .select()
        .from(orders)
        .where(eq(orders.checkoutId, placed[0].checkoutId ?? ''));
      expect(rows.map((o) => [o.status, o.transactionId])).toEqual([
        ['paid', intent.id],
        ['paid', intent.id],
      ]);
      const paid = await db().select().from(payments).where(eq(payments.transactionId, intent.id));
      expect(paid.map((p) => p.amountCents).sort()).toEqual([4000, 5000]);
      // One email when the checkout was placed, and one receipt for everything the payment paid.
      const mail = await db().select().from(outbox).where(eq(outbox.toAddress, buyerUser.email));
      expect(mail.filter((m) => m.kind === 'order_placed')).toHaveLength(1);
      const receipts = mail.filter((m) => m.kind === 'payment_receipt');
      expect(receipts).toHaveLength(1);
      for (const order of placed) expect(receipts[0].text).toContain(order.partName);
      expect(receipts[0].text).toContain(`Transaction id: ${intent.id}`);
      expect(receipts[0].text).toContain('Total paid: $90.00');
      // Any order of the checkout shows the whole checkout (the payment page).
      const shown = await app.gql<{
        order: { checkoutId: string; checkout: { total: number; orders: { id: string }[] } };
      }>(
        'query($id: ID!) { order(id: $id) { checkoutId checkout { id total orders { id unitPrice price } } } }',
        { id: placed[1].id },
        buyerUser.token,
      );
      expect(shown.errors).toBeUndefined();
      expect(shown.data?.order.checkout.total).toBe(90);
      expect(shown.data?.order.checkout.orders.map((o) => o.id).sort()).toEqual(placed.map((o) => o.id).sort());
      // Confirming again (or from the other order) records nothing twice.
      expect((await pay.confirmPaymentOutcome(buyer, placed[0].id, intent.id)).recorded).toBe(false);
      for (const p of [a, b]) {
        await app.server.services.reviews.addReview(buyer, { partId: p.id, text: 'Good parts, well packed.' });
      }
    });

    it('a checkout counts as one unpaid order against the cap, and its orders expire together', async () => {
      const small = await startTestApp(kind, { orders: { ...generousOrderLimits, unpaidPerCustomer: 2 } });
      try {
        const boss = await actorOf(small, await signUp(small, { admin: true }));
        const buyer = await actorOf(small, await signUp(small));
        const ps = await Promise.all(
          [1, 2, 3].map(() => addPartAs(small, boss, { price: 1, minOrder: 1, available: 10 })),
        );
        for (const p of ps) await small.server.services.cart.addToCart(buyer, p.id, 2);
        const { checkoutId } = await small.server.services.cart.checkout(buyer, contact);
        await placeOrderAs(small, buyer, ps[0].id, { orderAmount: 1 });
        const capped = await expectAppError(placeOrderAs(small, buyer, ps[0].id, { orderAmount: 1 }), 'CONFLICT');
        expect(capped.message).toBe(tooManyUnpaidOrders(2));
        const sdb = small.server.database.db;
        await sdb
          .update(orders)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(orders.checkoutId, checkoutId));
        await small.server.services.orders.expireDueOrders();
        const rows = await sdb.select().from(orders).where(eq(orders.checkoutId, checkoutId));
        expect(rows.map((o) => o.status)).toEqual(['expired', 'expired', 'expired']);
        expect((await partRow(small, ps[1].id)).available).toBe(10);
      } finally {
        await small.close();
      }
    });
  });

  describe('quantity breaks and packs, priced by the server', () => {
    it('charges the deepest break an amount reaches, and refuses an amount that is not whole packs', async () => {
      const p = await part({ price: 10, minOrder: 10, available: 1000 });
      await app.server.services.parts.setPartPricing(admin, p.id, {
        priceTiers: [
          { minUnits: 50, price: 9 },
          { minUnits: 100, price: 8.5 },
        ],
        packSize: 10,
      });
      const at = async (orderAmount: number) =>
        (await placeOrderAs(app, customer, p.id, { orderAmount })).unitPriceCents;
      expect(await at(40)).toBe(1000);
      expect(await at(50)).toBe(900);
      expect(await at(90)).toBe(900);
      expect(await at(100)).toBe(850);
      const packs = await expectAppError(placeOrderAs(app, customer, p.id, { orderAmount: 55 }), 'BAD_USER_INPUT');
      expect(packs.fields).toEqual({ orderAmount: pricingMessages.notPackMultiple(10, 50, 60) });
      const [line] = (await cart().addToCart(customer, p.id, 60)).lines;
      expect(line).toMatchObject({ unitPriceCents: 900, lineTotalCents: 54_000 });
    });

    it('refuses breaks that are not ascending, below the minimum order, not below the base price or not positive', async () => {
      const p = await part({ price: 10, minOrder: 10 });
      const set = (priceTiers: unknown[], packSize?: unknown) =>
        expectAppError(
          app.server.services.parts.setPartPricing(admin, p.id, { priceTiers, packSize }),
          'BAD_USER_INPUT',
        );
      expect((await set([{ minUnits: 5, price: 9 }])).fields).toEqual({
        'priceTiers.0.minUnits': pricingMessages.tierUnitsTooFew(10),
      });
      expect(
        (
          await set([
            { minUnits: 50, price: 9 },
            { minUnits: 40, price: 8 },
          ])
        ).fields,
      ).toEqual({ 'priceTiers.1.minUnits': pricingMessages.tierUnitsNotAscending });
      expect((await set([{ minUnits: 50, price: 10 }])).fields).toEqual({
        'priceTiers.0.price': pricingMessages.tierPriceNotLower,
      });
      expect((await set([{ minUnits: 50, price: 0 }])).fields).toEqual({
        'priceTiers.0.price': pricingMessages.tierPriceTooLow,
      });
      expect((await set([], 0)).fields).toEqual({ packSize: pricingMessages.packSizeTooSmall });
      expect((await partRow(app, p.id)).priceTiers).toEqual([]);
      // A customer may not set prices.
      await expectAppError(app.server.services.parts.setPartPricing(customer, p.id, { priceTiers: [] }), 'FORBIDDEN');
    });

    it('a part added with breaks and a pack size shows them over GraphQL', async () => {
      const result = await app.gql<{
        addPart: { priceTiers: { minUnits: number; price: number }[]; packSize: number };
      }>(
        'mutation($input: PartInput!) { addPart(input: $input) { priceTiers { minUnits price } packSize } }',
        {
          input: {
            name: 'Spark Plug',
            price: 3,
            minOrder: 20,
            available: 500,
            description: 'Iridium.',
            priceTiers: [{ minUnits: 100, price: 2.5 }],
            packSize: 4,
          },
        },
        (await signUp(app, { admin: true })).token,
      );
      expect(result.data?.addPart).toEqual({ priceTiers: [{ minUnits: 100, price: 2.5 }], packSize: 4 });
    });
  });

  describe('over GraphQL', () => {
    it('the cart shows the break that applies and what the next one saves; checkout places it, or names each failing line', async () => {
      const buyerUser = await signUp(app);
      const token = buyerUser.token;
      const p = await part({ name: 'Brake Pad Set', price: 10, minOrder: 10, available: 200 });
      await app.server.services.parts.setPartPricing(admin, p.id, {
        priceTiers: [
          { minUnits: 50, price: 9 },
          { minUnits: 100, price: 8.5 },
        ],
      });
      const q = await part({ name: 'Chain Lube', price: 4, minOrder: 1, available: 30 });
      const line =
        '{ amount unitPrice lineTotal problem tier { minUnits price } nextTier { unitsMore savesPerUnit tier { minUnits price } } part { id } }';
      const added = await app.gql<{ addToCart: { total: number; units: number; lines: unknown[] } }>(
        `mutation($id: ID!) { addToCart(partId: $id, amount: 60) { total units lines ${line} } }`,
        { id: p.id },
        token,
      );
      expect(added.errors).toBeUndefined();
      expect(added.data?.addToCart).toEqual({
        total: 540,
        units: 60,
        lines: [
          {
            amount: 60,
            unitPrice: 9,
            lineTotal: 540,
            problem: null,
            tier: { minUnits: 50, price: 9 },
            nextTier: { unitsMore: 40, savesPerUnit: 0.5, tier: { minUnits: 100, price: 8.5 } },
            part: { id: p.id },
          },
        ],
      });
      const refusedAdd = await app.gql(
        'mutation($id: ID!) { addToCart(partId: $id, amount: 5) { units } }',
        { id: p.id },
        token,
      );
      expect(refusedAdd.errors?.[0].extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        fields: { amount: messages.orderAmountBelowMin(10) },
      });
      await app.gql('mutation($id: ID!) { addToCart(partId: $id, amount: 20) { units } }', { id: q.id }, token);
      // Stock falls below a line's amount: nothing is placed, and the answer names that line.
      await db().update(parts).set({ available: 12 }).where(eq(parts.id, q.id));
      const checkout =
        'mutation($input: CheckoutInput!) { checkout(input: $input) { id total orders { partId orderAmount unitPrice price checkoutId } } }';
      const refused = await app.gql(checkout, { input: contact }, token);
      expect(refused.errors?.[0].extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        fields: { [`lines.${q.id}`]: `Chain Lube: ${messages.orderAmountAboveAvailable(12)}` },
      });
      expect(Object.keys(refused.errors?.[0].extensions?.fields as object)).toEqual([`lines.${q.id}`]);
      expect((await partRow(app, p.id)).available).toBe(200);
      await app.gql('mutation($id: ID!) { setCartLineAmount(partId: $id, amount: 12) { units } }', { id: q.id }, token);
      const placed = await app.gql<{
        checkout: { id: string; total: number; orders: { partId: string; unitPrice: number; checkoutId: string }[] };
      }>(checkout, { input: { ...contact, expectedTotal: 588 } }, token);
      expect(placed.errors).toBeUndefined();
      expect(placed.data?.checkout.total).toBe(588);
      expect(placed.data?.checkout.orders.map((o) => [o.partId, o.unitPrice, o.checkoutId])).toEqual([
        [p.id, 9, placed.data?.checkout.id],
        [q.id, 4, placed.data?.checkout.id],
      ]);
      const empty = await app.gql<{ cart: { lines: unknown[] } }>('{ cart { lines { amount } } }', {}, token);
      expect(empty.data?.cart.lines).toEqual([]);
      // A visitor has no server cart.
      expect((await app.gql('{ cart { units } }', {})).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    });
  });
});

describe.each(databaseKinds)('paying a checkout through Stripe (a local Stripe-compatible API, %s)', (kind) => {
  let fake: FakeStripe;
  let app: TestApp;

  beforeAll(async () => {
    fake = new FakeStripe();
    await fake.start();
    app = await startTestApp(kind, { stripe: stripeSettings(fake.port) });
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  it('one intent at Stripe for the sum, metadata naming the checkout; its success pays every order', async () => {
    const admin = await actorOf(app, await signUp(app, { admin: true }));
    const buyer = await actorOf(app, await signUp(app));
    const a = await addPartAs(app, admin, { price: 19.99, minOrder: 1, available: 10 });
    const b = await addPartAs(app, admin, { price: 5, minOrder: 2, available: 10 });
    await app.server.services.cart.addToCart(buyer, a.id, 3);
    await app.server.services.cart.addToCart(buyer, b.id, 2);
    const { checkoutId, orders: placed } = await app.server.services.cart.checkout(buyer, contact);
    const pay = app.server.services.payments;
    const intent = await pay.createPaymentIntent(buyer, placed[0].id);
    expect(fake.intents.get(intent.id)).toMatchObject({ amount: 6997, metadata: { orderId: checkoutId } });
    expect(fake.requestsFor('POST', '/v1/payment_intents')).toHaveLength(1);
    fake.succeed(intent.id);
    await pay.confirmPayment(buyer, placed[0].id, intent.id);
    const rows = await app.server.database.db.select().from(orders).where(eq(orders.checkoutId, checkoutId));
    expect(rows.map((o) => [o.status, o.transactionId])).toEqual([
      ['paid', intent.id],
      ['paid', intent.id],
    ]);
    expect(fake.refundsOf(intent.id)).toEqual([]);
  });

  it('Stripe’s signed webhook for a checkout’s intent pays every order of it, once', async () => {
    const admin = await actorOf(app, await signUp(app, { admin: true }));
    const buyer = await actorOf(app, await signUp(app));
    const a = await addPartAs(app, admin, { price: 3, minOrder: 1, available: 10 });
    const b = await addPartAs(app, admin, { price: 7, minOrder: 1, available: 10 });
    const c = await addPartAs(app, admin, { price: 1.5, minOrder: 2, available: 10 });
    for (const [p, n] of [
      [a, 2],
      [b, 1],
      [c, 4],
    ] as const)
      await app.server.services.cart.addToCart(buyer, p.id, n);
    const { checkoutId, orders: placed } = await app.server.services.cart.checkout(buyer, contact);
    const intent = await app.server.services.payments.createPaymentIntent(buyer, placed[2].id);
    expect(fake.intents.get(intent.id)).toMatchObject({ amount: 1900, metadata: { orderId: checkoutId } });
    const succeeded = fake.succeed(intent.id);
    const delivered = await deliverWebhook(app, succeeded);
    expect(delivered.status).toBe(200);
    expect(delivered.body).toMatchObject({ received: true, recorded: true });
    expect((await deliverWebhook(app, succeeded)).body).toEqual({ received: true, recorded: false });
    const db = app.server.database.db;
    const rows = await db.select().from(orders).where(eq(orders.checkoutId, checkoutId));
    expect(rows.map((o) => [o.status, o.transactionId])).toEqual([
      ['paid', intent.id],
      ['paid', intent.id],
      ['paid', intent.id],
    ]);
    const paid = await db.select().from(payments).where(eq(payments.transactionId, intent.id));
    expect(paid.map((p) => p.amountCents).sort((x, y) => x - y)).toEqual([600, 600, 700]);
    expect(fake.refundsOf(intent.id)).toEqual([]);
  });
});
