import { eq } from 'drizzle-orm';
import { gatewayIntents, testPaymentIntents } from '../../src/db/schema';
import { adapterDatabaseKinds, testEnv } from '../support/env';
import { addPart, orderInput, payOrder, placeCheckout, placeOrder } from '../support/fixtures';
import type { TestUser } from '../support/testApp';
import {
  confirm,
  createIntent,
  dataOf,
  declinedCard,
  expectBadInput,
  expectConflict,
  expectForbidden,
  expectNotFound,
  expectRefused,
  expectUnauthenticated,
  isoDate,
  orderFields,
  paymentFields,
  payWithCard,
  readOrder,
  readPart,
  startHarness,
  successCard,
  tag,
  unknownId,
  type Harness,
  type OrderData,
  type PaymentData,
} from './helpers';

// Starting an app and signing users up takes seconds; jest's 5 s default is too short.
jest.setTimeout(120_000);

interface OrderPage {
  items: OrderData[];
  total: number;
}

describe.each(adapterDatabaseKinds)('orders and payments over GraphQL on %s', (kind) => {
  let h: Harness;
  let admin: TestUser;
  let customer: TestUser;
  let otherCustomer: TestUser;

  beforeAll(async () => {
    h = await startHarness(kind);
    admin = await h.signUp({ admin: true });
    customer = await h.signUp({ name: 'Rider Customer' });
    otherCustomer = await h.signUp({ name: 'Other Rider' });
  });
  afterAll(() => h?.app.close());

  const placeOrderAs = (input: Record<string, unknown>, token?: string) =>
    h.app.gql<{ placeOrder: OrderData }>(
      `mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { ${orderFields} } }`,
      { input },
      token,
    );
  const cancel = (id: string, token?: string) =>
    h.app.gql<{ cancelOrder: string }>('mutation($id: ID!) { cancelOrder(id: $id) }', { id }, token);
  const ship = (id: string, token?: string) =>
    h.app.gql<{ markOrderShipped: OrderData }>(
      `mutation($id: ID!) { markOrderShipped(id: $id) { ${orderFields} } }`,
      { id },
      token,
    );
  const myOrders = (token?: string, variables: Record<string, unknown> = {}) =>
    h.app.gql<{ myOrders: OrderPage }>(
      `query($offset: Int, $limit: Int) { myOrders(offset: $offset, limit: $limit) { items { ${orderFields} } total } }`,
      variables,
      token,
    );
  const allOrders = (token?: string, variables: Record<string, unknown> = {}) =>
    h.app.gql<{ orders: OrderPage }>(
      `query($status: OrderStatus, $offset: Int, $limit: Int) {
        orders(status: $status, offset: $offset, limit: $limit) { items { ${orderFields} } total }
      }`,
      variables,
      token,
    );
  const myPayments = (token?: string) =>
    h.app.gql<{ myPayments: PaymentData[] }>(`{ myPayments { ${paymentFields} } }`, {}, token);
  const availableOf = async (partId: string) => (await readPart(h.app, partId))?.available;

  /** An order of `owner`'s, paid with 4242 and confirmed. */
  const paidOrder = async (owner: TestUser, overrides: Record<string, unknown> = {}) => {
    const partId = await addPart(h.app, admin.token, overrides);
    const order = await placeOrder(h.app, owner.token, partId);
    const { intentId, confirm: confirmed } = await payOrder(h.app, owner.token, order.id);
    expect(confirmed.data?.confirmPayment.status).toBe('PAID');
    return { partId, orderId: order.id, intentId, price: order.price };
  };

  describe('Mutation.placeOrder', () => {
    it("places the customer's order: their email, the server's unit price, price = unitPrice x orderAmount, unpaid", async () => {
      const partId = await addPart(h.app, admin.token, { name: 'Chain Kit 520', price: 12.5, minOrder: 10 });
      const order = dataOf(
        await placeOrderAs(
          orderInput(partId, { name: 'Rider One', phone: '01712345678', orderAmount: 12, address: 'Road 5' }),
          customer.token,
        ),
      ).placeOrder;
      expect(order).toEqual({
        id: expect.any(String),
        name: 'Rider One',
        email: customer.email,
        phone: '01712345678',
        address: 'Road 5',
        partId,
        partName: 'Chain Kit 520',
        partImage: '/images/parts/default.svg',
        orderAmount: 12,
        unitPrice: 12.5,
        price: 150,
        paid: false,
        status: 'UNPAID',
        transactionId: null,
        createdAt: isoDate,
        paidAt: null,
        shippedAt: null,
      });
      expect(await readPart(h.app, partId)).toMatchObject({ available: 88, sold: 12 });
    });

    it('keeps cents exact: 3 units at $19.99 cost $59.97', async () => {
      const partId = await addPart(h.app, admin.token, { price: 19.99, minOrder: 1 });
      const order = dataOf(await placeOrderAs(orderInput(partId, { orderAmount: 3 }), customer.token)).placeOrder;
      expect({ unitPrice: order.unitPrice, price: order.price }).toEqual({ unitPrice: 19.99, price: 59.97 });
    });

    it('accepts a Bangladeshi number with the +88 prefix and no address', async () => {
      const partId = await addPart(h.app, admin.token);
      const input = { partId, name: 'Rider Two', phone: '+8801812345678', orderAmount: 10 };
      expect(dataOf(await placeOrderAs(input, customer.token)).placeOrder).toMatchObject({
        phone: '+8801812345678',
        address: '',
      });
    });

    it.each([
      ['an empty name', { name: '' }, { name: 'Name is required' }],
      ['an empty phone', { phone: '' }, { phone: 'Phone is required' }],
      ['a phone shorter than 11 characters', { phone: '0171234567' }, { phone: 'Must be 11 characters' }],
      ['a phone that is not Bangladeshi', { phone: '02123456789' }, { phone: 'Provide a Bangladeshi number' }],
      ['an amount below the minimum order', { orderAmount: 9 }, { orderAmount: 'Must order more than 10 items' }],
      ['an amount above the stock', { orderAmount: 101 }, { orderAmount: 'Only 100 items available' }],
      [
        'several bad fields at once',
        { name: ' ', phone: '', orderAmount: 1 },
        { name: 'Name is required', phone: 'Phone is required', orderAmount: 'Must order more than 10 items' },
      ],
    ])("refuses %s with the spec's message and takes no stock", async (_case, overrides, fields) => {
      const partId = await addPart(h.app, admin.token, { minOrder: 10, available: 100 });
      expectBadInput(await placeOrderAs(orderInput(partId, overrides), customer.token), fields);
      expect(await readPart(h.app, partId)).toMatchObject({ available: 100, sold: 0 });
      expect(dataOf(await myOrders(customer.token, { limit: 200 })).myOrders.items.map((o) => o.partId)).not.toContain(
        partId,
      );
    });

    it('does not let the client set the price', async () => {
      const partId = await addPart(h.app, admin.token, { price: 12.5 });
      const result = await placeOrderAs({ ...orderInput(partId), price: 0.01 }, customer.token);
      expectRefused(result, 'BAD_USER_INPUT');
      expect(await availableOf(partId)).toBe(100);
    });

    it('answers NOT_FOUND for an unknown part', async () => {
      expectNotFound(await placeOrderAs(orderInput(unknownId()), customer.token));
      expectNotFound(await placeOrderAs(orderInput('not-an-id'), customer.token));
    });

    it('is refused to a visitor (401), and takes no stock', async () => {
      const partId = await addPart(h.app, admin.token);
      expectUnauthenticated(await placeOrderAs(orderInput(partId)));
      expectUnauthenticated(await placeOrderAs(orderInput(partId), h.badTokens.random));
      expect(await availableOf(partId)).toBe(100);
    });
  });

  describe('Query.order', () => {
    it('answers the owner their own order', async () => {
      const partId = await addPart(h.app, admin.token);
      const { id } = await placeOrder(h.app, customer.token, partId);
      expect(dataOf(await readOrder(h.app, id, customer.token)).order).toMatchObject({
        id,
        email: customer.email,
        status: 'UNPAID',
      });
    });

    it("refuses a customer another customer's order: FORBIDDEN, 403", async () => {
      const partId = await addPart(h.app, admin.token);
      const { id } = await placeOrder(h.app, customer.token, partId);
      expectForbidden(await readOrder(h.app, id, otherCustomer.token));
    });

    it("lets an admin read any customer's order", async () => {
      const partId = await addPart(h.app, admin.token);
      const { id } = await placeOrder(h.app, customer.token, partId);
      expect(dataOf(await readOrder(h.app, id, admin.token)).order).toMatchObject({ id, email: customer.email });
    });

    it('answers NOT_FOUND for an unknown or malformed id', async () => {
      expectNotFound(await readOrder(h.app, unknownId(), customer.token));
      expectNotFound(await readOrder(h.app, 'not-an-id', admin.token));
    });

    it('is refused to a visitor and to an expired token (401)', async () => {
      const partId = await addPart(h.app, admin.token);
      const { id } = await placeOrder(h.app, customer.token, partId);
      expectUnauthenticated(await readOrder(h.app, id));
      expectUnauthenticated(await readOrder(h.app, id, h.badTokens.expired(customer)));
    });
  });

  describe('Query.myOrders', () => {
    it("answers only the caller's own orders, newest first, with their total, and pages them", async () => {
      const buyer = await h.signUp();
      const partId = await addPart(h.app, admin.token);
      const first = await placeOrder(h.app, buyer.token, partId);
      await placeOrder(h.app, otherCustomer.token, partId);
      const second = await placeOrder(h.app, buyer.token, partId);

      const page = dataOf(await myOrders(buyer.token)).myOrders;
      expect({ total: page.total, ids: page.items.map((o) => o.id) }).toEqual({
        total: 2,
        ids: [second.id, first.id],
      });
      expect(page.items.every((o) => o.email === buyer.email)).toBe(true);
      const paged = dataOf(await myOrders(buyer.token, { offset: 1, limit: 1 })).myOrders;
      expect({ total: paged.total, ids: paged.items.map((o) => o.id) }).toEqual({ total: 2, ids: [first.id] });
    });

    it('answers an empty page to a customer without orders', async () => {
      const newcomer = await h.signUp();
      expect(dataOf(await myOrders(newcomer.token)).myOrders).toEqual({ items: [], total: 0 });
    });

    it('refuses a limit above 200', async () => {
      expectBadInput(await myOrders(customer.token, { limit: 201 }), { limit: 'Must be a whole number from 1 to 200' });
    });

    it('is refused to a visitor (401)', async () => {
      expectUnauthenticated(await myOrders());
    });
  });

  describe('Query.orders', () => {
    it("lets an admin list every customer's orders, newest first, filtered by status", async () => {
      const partId = await addPart(h.app, admin.token);
      const unpaid = await placeOrder(h.app, customer.token, partId);
      const paid = await paidOrder(otherCustomer);

      const all = dataOf(await allOrders(admin.token, { limit: 200 })).orders;
      const ids = all.items.map((o) => o.id);
      expect(ids).toEqual(expect.arrayContaining([unpaid.id, paid.orderId]));
      expect(ids.indexOf(paid.orderId)).toBeLessThan(ids.indexOf(unpaid.id));
      expect(all.total).toBeGreaterThanOrEqual(all.items.length);

      const paidOnly = dataOf(await allOrders(admin.token, { status: 'PAID', limit: 200 })).orders;
      expect(paidOnly.items.every((o) => o.status === 'PAID' && o.paid)).toBe(true);
      expect(paidOnly.items.map((o) => o.id)).toContain(paid.orderId);
      expect(paidOnly.items.map((o) => o.id)).not.toContain(unpaid.id);
      expect(paidOnly.total).toBe(paidOnly.items.length);

      const unpaidOnly = dataOf(await allOrders(admin.token, { status: 'UNPAID', limit: 200 })).orders;
      expect(unpaidOnly.items.every((o) => o.status === 'UNPAID' && !o.paid)).toBe(true);
      expect(unpaidOnly.items.map((o) => o.id)).toContain(unpaid.id);
      expect(paidOnly.total + unpaidOnly.total).toBeLessThanOrEqual(all.total);
    });

    it('is refused to a customer (403) and to a visitor (401)', async () => {
      expectForbidden(await allOrders(customer.token));
      expectUnauthenticated(await allOrders());
    });
  });

  describe('Mutation.cancelOrder', () => {
    it('lets a customer cancel their own unpaid order; the order is gone and the stock comes back', async () => {
      const partId = await addPart(h.app, admin.token, { available: 50 });
      const order = await placeOrder(h.app, customer.token, partId, { orderAmount: 20 });
      expect(await readPart(h.app, partId)).toMatchObject({ available: 30, sold: 20 });

      expect(dataOf(await cancel(order.id, customer.token))).toEqual({ cancelOrder: order.id });
      expect(await readPart(h.app, partId)).toMatchObject({ available: 50, sold: 0 });
      expectNotFound(await readOrder(h.app, order.id, customer.token));
    });

    it("refuses a customer another customer's order (403); it and its stock stay", async () => {
      const partId = await addPart(h.app, admin.token, { available: 50 });
      const order = await placeOrder(h.app, customer.token, partId, { orderAmount: 20 });
      expectForbidden(await cancel(order.id, otherCustomer.token));
      expect(dataOf(await readOrder(h.app, order.id, customer.token)).order.status).toBe('UNPAID');
      expect(await availableOf(partId)).toBe(30);
    });

    it("lets an admin cancel any customer's unpaid order, giving the stock back", async () => {
      const partId = await addPart(h.app, admin.token, { available: 50 });
      const order = await placeOrder(h.app, customer.token, partId, { orderAmount: 20 });
      expect(dataOf(await cancel(order.id, admin.token))).toEqual({ cancelOrder: order.id });
      expect(await availableOf(partId)).toBe(50);
    });

    it('refuses to cancel a paid order, for its owner and for an admin: CONFLICT, and it stays paid', async () => {
      const { orderId } = await paidOrder(customer);
      expectConflict(await cancel(orderId, customer.token));
      expectConflict(await cancel(orderId, admin.token));
      expect(dataOf(await readOrder(h.app, orderId, customer.token)).order).toMatchObject({
        status: 'PAID',
        paid: true,
      });
    });

    it('answers NOT_FOUND for an unknown order and for one cancelled already', async () => {
      expectNotFound(await cancel(unknownId(), customer.token));
      const partId = await addPart(h.app, admin.token);
      const order = await placeOrder(h.app, customer.token, partId);
      dataOf(await cancel(order.id, customer.token));
      expectNotFound(await cancel(order.id, customer.token));
    });

    it('is refused to a visitor (401), and the order stays', async () => {
      const partId = await addPart(h.app, admin.token);
      const order = await placeOrder(h.app, customer.token, partId);
      expectUnauthenticated(await cancel(order.id));
      expect(dataOf(await readOrder(h.app, order.id, customer.token)).order.status).toBe('UNPAID');
    });
  });

  describe('Mutation.createPaymentIntent', () => {
    it("creates a test-gateway intent for the order's total in dollars", async () => {
      const partId = await addPart(h.app, admin.token, { price: 12.5 });
      const order = await placeOrder(h.app, customer.token, partId, { orderAmount: 12 });
      const intent = dataOf(await createIntent(h.app, order.id, customer.token)).createPaymentIntent;
      expect(intent).toEqual({
        id: expect.stringMatching(/^pi_test_/),
        clientSecret: expect.stringContaining(`${intent.id}_secret_`),
        amount: 150,
        currency: 'usd',
      });
    });

    it('asked again, answers the same open intent and client secret, also after a declined card (issue 32)', async () => {
      const partId = await addPart(h.app, admin.token);
      const order = await placeOrder(h.app, customer.token, partId);
      const first = dataOf(await createIntent(h.app, order.id, customer.token)).createPaymentIntent;
      const again = dataOf(await createIntent(h.app, order.id, customer.token)).createPaymentIntent;
      expect(again).toEqual(first);
      dataOf(await payWithCard(h.app, first.id, declinedCard, customer.token));
      expect(dataOf(await createIntent(h.app, order.id, customer.token)).createPaymentIntent).toEqual(first);
      const made = await h.app.server.database.db
        .select()
        .from(testPaymentIntents)
        .where(eq(testPaymentIntents.orderId, order.id));
      expect(made.map((i) => i.id)).toEqual([first.id]);
    });

    it("every order of a checkout answers the checkout's one open intent (issue 32)", async () => {
      const parts = [await addPart(h.app, admin.token), await addPart(h.app, admin.token)];
      const { orderIds } = await placeCheckout(h.app, customer.token, parts);
      const intents = [];
      for (const id of [...orderIds, ...orderIds]) {
        intents.push(dataOf(await createIntent(h.app, id, customer.token)).createPaymentIntent);
      }
      expect(new Set(intents.map((i) => i.clientSecret)).size).toBe(1);
    });

    it("refuses another customer's order and an admin paying for a customer: FORBIDDEN, 403", async () => {
      const partId = await addPart(h.app, admin.token);
      const order = await placeOrder(h.app, customer.token, partId);
      expectForbidden(await createIntent(h.app, order.id, otherCustomer.token));
      expectForbidden(await createIntent(h.app, order.id, admin.token));
    });

    it('refuses a paid order: CONFLICT', async () => {
      const { orderId } = await paidOrder(customer);
      expectConflict(await createIntent(h.app, orderId, customer.token));
    });

    it('answers NOT_FOUND for an unknown order', async () => {
      expectNotFound(await createIntent(h.app, unknownId(), customer.token));
    });

    it('is refused to a visitor (401)', async () => {
      const partId = await addPart(h.app, admin.token);
      const order = await placeOrder(h.app, customer.token, partId);
      expectUnauthenticated(await createIntent(h.app, order.id));
    });
  });

  describe('Mutation.payWithTestCard and Mutation.confirmPayment', () => {
    const newIntent = async (owner: TestUser) => {
      const partId = await addPart(h.app, admin.token, { price: 12.5 });
      const order = await placeOrder(h.app, owner.token, partId, { orderAmount: 10 });
      const intent = dataOf(await createIntent(h.app, order.id, owner.token)).createPaymentIntent;
      return { partId, orderId: order.id, intentId: intent.id };
    };

    it('4242 4242 4242 4242 succeeds, and confirming marks the order paid with the transaction id', async () => {
      const { orderId, intentId } = await newIntent(customer);
      expect(dataOf(await payWithCard(h.app, intentId, successCard, customer.token)).payWithTestCard).toEqual({
        succeeded: true,
        paymentIntentId: intentId,
        error: null,
      });
      const order = dataOf(await confirm(h.app, orderId, intentId, customer.token)).confirmPayment;
      expect(order).toMatchObject({
        id: orderId,
        paid: true,
        status: 'PAID',
        transactionId: intentId,
        paidAt: isoDate,
        shippedAt: null,
        price: 125,
      });
      expect(dataOf(await readOrder(h.app, orderId, customer.token)).order).toMatchObject({
        paid: true,
        transactionId: intentId,
      });
    });

    it("4000 0000 0000 0002 is declined with 'Your card was declined.'; the order stays unpaid until a good card", async () => {
      const { orderId, intentId } = await newIntent(customer);
      expect(dataOf(await payWithCard(h.app, intentId, declinedCard, customer.token)).payWithTestCard).toEqual({
        succeeded: false,
        paymentIntentId: intentId,
        error: 'Your card was declined.',
      });
      expectBadInput(await confirm(h.app, orderId, intentId, customer.token), {
        paymentIntentId: 'The payment has not succeeded',
      });
      expect(dataOf(await readOrder(h.app, orderId, customer.token)).order).toMatchObject({
        paid: false,
        status: 'UNPAID',
        transactionId: null,
      });

      expect(dataOf(await payWithCard(h.app, intentId, successCard, customer.token)).payWithTestCard.succeeded).toBe(
        true,
      );
      expect(dataOf(await confirm(h.app, orderId, intentId, customer.token)).confirmPayment.status).toBe('PAID');
    });

    it.each([
      ['4000 0000 0000 9995', 'Your card has insufficient funds.'],
      ['4000 0000 0000 0069', 'Your card has expired.'],
      ['4000 0000 0000 0127', "Your card's security code is incorrect."],
      ['4242 4242 4242 4241', 'Your card number is invalid.'],
    ])('card %s fails with %p', async (number, error) => {
      const { intentId } = await newIntent(customer);
      expect(dataOf(await payWithCard(h.app, intentId, number, customer.token)).payWithTestCard).toEqual({
        succeeded: false,
        paymentIntentId: intentId,
        error,
      });
    });

    it("refuses to let another customer pay a customer's intent (403); the intent stays unpaid", async () => {
      const { orderId, intentId } = await newIntent(customer);
      expectForbidden(await payWithCard(h.app, intentId, successCard, otherCustomer.token));
      expectBadInput(await confirm(h.app, orderId, intentId, customer.token), {
        paymentIntentId: 'The payment has not succeeded',
      });
    });

    it('answers NOT_FOUND for an unknown intent', async () => {
      expectNotFound(await payWithCard(h.app, 'pi_test_0000', successCard, customer.token));
    });

    it('refuses to charge a second intent of an order that is paid already: CONFLICT', async () => {
      const { orderId, intentId } = await newIntent(customer);
      // Asking again hands the open intent again (issue 32): a second one is made at the gateway, as two payment
      // pages opened at the same instant could.
      const second = `pi_test_${tag()}${tag()}`;
      await h.app.server.database.db
        .insert(testPaymentIntents)
        .values({ id: second, clientSecret: `${second}_secret_x`, amountCents: 12500, currency: 'usd', orderId });
      dataOf(await payWithCard(h.app, intentId, successCard, customer.token));
      dataOf(await confirm(h.app, orderId, intentId, customer.token));

      expectConflict(await payWithCard(h.app, second, successCard, customer.token));
      expectConflict(await confirm(h.app, orderId, second, customer.token));
      expect(dataOf(await readOrder(h.app, orderId, customer.token)).order.transactionId).toBe(intentId);
    });

    it('confirming again is idempotent: the same order comes back and one payment is recorded', async () => {
      const buyer = await h.signUp();
      const { orderId, intentId } = await newIntent(buyer);
      dataOf(await payWithCard(h.app, intentId, successCard, buyer.token));
      const once = dataOf(await confirm(h.app, orderId, intentId, buyer.token)).confirmPayment;
      const twice = dataOf(await confirm(h.app, orderId, intentId, buyer.token)).confirmPayment;
      expect(twice).toEqual(once);
      // Paying the same intent again charges nothing new either.
      expect(dataOf(await payWithCard(h.app, intentId, successCard, buyer.token)).payWithTestCard.succeeded).toBe(true);
      expect(dataOf(await myPayments(buyer.token)).myPayments.map((p) => p.transactionId)).toEqual([intentId]);
    });

    it("refuses to confirm another customer's order, or for an admin: FORBIDDEN, 403", async () => {
      const { orderId, intentId } = await newIntent(customer);
      dataOf(await payWithCard(h.app, intentId, successCard, customer.token));
      expectForbidden(await confirm(h.app, orderId, intentId, otherCustomer.token));
      expectForbidden(await confirm(h.app, orderId, intentId, admin.token));
      expect(dataOf(await readOrder(h.app, orderId, customer.token)).order.status).toBe('UNPAID');
    });

    it('refuses an unknown intent, or one created for another order: BAD_USER_INPUT', async () => {
      const a = await newIntent(customer);
      const b = await newIntent(customer);
      dataOf(await payWithCard(h.app, b.intentId, successCard, customer.token));
      expectBadInput(await confirm(h.app, a.orderId, 'pi_test_unknown', customer.token), {
        paymentIntentId: 'No such payment',
      });
      expectBadInput(await confirm(h.app, a.orderId, b.intentId, customer.token), {
        paymentIntentId: 'The payment is not for this order',
      });
      expect(dataOf(await readOrder(h.app, a.orderId, customer.token)).order.paid).toBe(false);
    });

    it('answers NOT_FOUND when confirming an unknown order', async () => {
      expectNotFound(await confirm(h.app, unknownId(), 'pi_test_unknown', customer.token));
    });

    it('both are refused to a visitor (401), and nothing is paid', async () => {
      const { orderId, intentId } = await newIntent(customer);
      expectUnauthenticated(await payWithCard(h.app, intentId, successCard));
      expectUnauthenticated(await confirm(h.app, orderId, intentId));
      expectBadInput(await confirm(h.app, orderId, intentId, customer.token), {
        paymentIntentId: 'The payment has not succeeded',
      });
    });
  });

  describe("a payment for someone else's checkout (issue 32)", () => {
    /** A checkout of two lines by `victim`, its intent paid with 4242 but not confirmed yet. */
    const victimsPaidCheckout = async (victim: TestUser) => {
      const parts = [await addPart(h.app, admin.token), await addPart(h.app, admin.token)];
      const checkout = await placeCheckout(h.app, victim.token, parts, {
        name: 'Victim Rider',
        address: '12 Secret Lane, Dhaka',
      });
      const intent = dataOf(await createIntent(h.app, checkout.orderIds[0], victim.token)).createPaymentIntent;
      dataOf(await payWithCard(h.app, intent.id, successCard, victim.token));
      return { ...checkout, intentId: intent.id };
    };
    const ledgerRow = async (intentId: string) =>
      (await h.app.server.database.db.select().from(gatewayIntents).where(eq(gatewayIntents.id, intentId)))[0];

    it("confirming by the checkout's id: a stranger is answered NOT_FOUND, learns nothing, and nothing is recorded; again once it is paid", async () => {
      const victim = await h.signUp({ name: 'Victim Rider' });
      const { checkoutId, orderIds, intentId } = await victimsPaidCheckout(victim);
      const ledgerBefore = await ledgerRow(intentId);

      for (const stranger of [otherCustomer, admin]) {
        const answer = await confirm(h.app, checkoutId, intentId, stranger.token);
        expectNotFound(answer);
        expect(JSON.stringify(answer)).not.toMatch(/Victim Rider|Secret Lane|01712345678/);
        expect(JSON.stringify(answer)).not.toContain(victim.email);
      }
      // Nothing recorded: the orders are unpaid, no payment, the intent's ledger row as it was.
      for (const id of orderIds) expect(dataOf(await readOrder(h.app, id, victim.token)).order.status).toBe('UNPAID');
      expect(await ledgerRow(intentId)).toEqual(ledgerBefore);
      expect(dataOf(await myPayments(victim.token)).myPayments).toEqual([]);

      // The owner pays; the stranger still learns nothing.
      expect(dataOf(await confirm(h.app, orderIds[0], intentId, victim.token)).confirmPayment.status).toBe('PAID');
      const afterwards = await confirm(h.app, checkoutId, intentId, otherCustomer.token);
      expectNotFound(afterwards);
      expect(JSON.stringify(afterwards)).not.toMatch(/Victim Rider|Secret Lane/);
    });

    it("the owner may confirm by the checkout's id, as by any of its orders' ids", async () => {
      const buyer = await h.signUp();
      const { checkoutId, orderIds, intentId } = await victimsPaidCheckout(buyer);
      const paid = dataOf(await confirm(h.app, checkoutId, intentId, buyer.token)).confirmPayment;
      expect(paid).toMatchObject({ status: 'PAID', transactionId: intentId });
      expect(orderIds).toContain(paid.id);
    });

    it('an order cancelled after its card was charged: a stranger is answered NOT_FOUND and nothing is refunded or recorded; its owner is told it is refunded', async () => {
      const buyer = await h.signUp();
      const partId = await addPart(h.app, admin.token);
      const order = await placeOrder(h.app, buyer.token, partId);
      const intentId = dataOf(await createIntent(h.app, order.id, buyer.token)).createPaymentIntent.id;
      dataOf(await payWithCard(h.app, intentId, successCard, buyer.token));
      dataOf(await cancel(order.id, buyer.token));
      const ledgerBefore = await ledgerRow(intentId);

      expectNotFound(await confirm(h.app, order.id, intentId, otherCustomer.token));
      expect(await ledgerRow(intentId)).toEqual(ledgerBefore);
      expect(ledgerBefore.status).toBe('open');

      const owner = await confirm(h.app, order.id, intentId, buyer.token);
      expectConflict(owner);
      expect(owner.errors?.[0]?.message).toMatch(/has been refunded/);
      expect((await ledgerRow(intentId)).status).toBe('refunded');
    });
  });

  describe('Query.myPayments', () => {
    it("answers only the caller's own recorded payments, in dollars", async () => {
      const buyer = await h.signUp();
      const partId = await addPart(h.app, admin.token, { name: 'Fork Oil 10W', price: 4.2, minOrder: 5 });
      const order = await placeOrder(h.app, buyer.token, partId, { orderAmount: 5 });
      const { intentId } = await payOrder(h.app, buyer.token, order.id);
      await paidOrder(otherCustomer);

      expect(dataOf(await myPayments(buyer.token)).myPayments).toEqual([
        {
          id: expect.any(String),
          orderId: order.id,
          partId,
          partName: 'Fork Oil 10W',
          email: buyer.email,
          transactionId: intentId,
          amount: 21,
          createdAt: isoDate,
        },
      ]);
    });

    it('answers nothing for an unpaid order', async () => {
      const buyer = await h.signUp();
      const partId = await addPart(h.app, admin.token);
      await placeOrder(h.app, buyer.token, partId);
      expect(dataOf(await myPayments(buyer.token)).myPayments).toEqual([]);
    });

    it('is refused to a visitor (401)', async () => {
      expectUnauthenticated(await myPayments());
    });
  });

  describe('Mutation.markOrderShipped', () => {
    it('lets an admin mark a paid order shipped; shipping again changes nothing', async () => {
      const { orderId } = await paidOrder(customer);
      const shipped = dataOf(await ship(orderId, admin.token)).markOrderShipped;
      expect(shipped).toMatchObject({ id: orderId, status: 'SHIPPED', paid: true, shippedAt: isoDate });
      expect(dataOf(await readOrder(h.app, orderId, customer.token)).order).toMatchObject({
        status: 'SHIPPED',
        shippedAt: shipped.shippedAt,
      });
      expect(dataOf(await ship(orderId, admin.token)).markOrderShipped.shippedAt).toBe(shipped.shippedAt);
    });

    it('refuses an unpaid order: CONFLICT', async () => {
      const partId = await addPart(h.app, admin.token);
      const order = await placeOrder(h.app, customer.token, partId);
      expectConflict(await ship(order.id, admin.token));
      expect(dataOf(await readOrder(h.app, order.id, customer.token)).order.status).toBe('UNPAID');
    });

    it('answers NOT_FOUND for an unknown order', async () => {
      expectNotFound(await ship(unknownId(), admin.token));
    });

    it('is refused to a customer, even the owner (403), and to a visitor (401); the order stays paid', async () => {
      const { orderId } = await paidOrder(customer);
      expectForbidden(await ship(orderId, customer.token));
      expectUnauthenticated(await ship(orderId));
      expect(dataOf(await readOrder(h.app, orderId, customer.token)).order.status).toBe('PAID');
    });
  });

  describe('Query.paymentSettings and Query.clientSettings', () => {
    it('tell anyone that the shop takes test cards: mode TEST, no publishable key', async () => {
      for (const token of [undefined, customer.token, admin.token]) {
        expect(dataOf(await h.app.gql('{ paymentSettings { mode publishableKey } }', {}, token))).toEqual({
          paymentSettings: { mode: 'TEST', publishableKey: null },
        });
      }
    });

    it('clientSettings gives the web its Firebase configuration and the payment mode', async () => {
      const result = await h.app.gql(
        '{ clientSettings { demoMode firebase { apiKey authDomain projectId emulatorUrl } payments { mode publishableKey } } }',
      );
      expect(dataOf(result)).toEqual({
        clientSettings: {
          demoMode: false,
          firebase: {
            apiKey: 'demo-api-key',
            authDomain: 'demo-partsyard.firebaseapp.com',
            projectId: testEnv.firebaseProjectId,
            emulatorUrl: `http://${testEnv.authEmulatorHost}`,
          },
          payments: { mode: 'TEST', publishableKey: null },
        },
      });
    });
  });
});
