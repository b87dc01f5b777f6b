import { messages } from '@partsyard/common';
import { adapterDatabaseKinds } from '../support/env';
import type { TestApp, TestUser } from '../support/testApp';
import {
  expectRefusal,
  orderSpecKeys,
  restAddPart,
  restOrder,
  restOrderInput,
  restPart,
  restPayOrder,
  restPlaceOrder,
  startRestApp,
  unknownId,
  uuidPattern,
  type Deleted,
  type Inserted,
  type OrderDoc,
  type Updated,
} from './restSupport';

describe.each(adapterDatabaseKinds)('REST orders (/api/orders, /api/order/{id}) on %s', (kind) => {
  let app: TestApp;
  let admin: TestUser;
  let customer: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    app = await startRestApp(kind);
    admin = await app.signUp({ admin: true });
    customer = await app.signUp({ name: 'Karim Rider' });
    other = await app.signUp({ name: 'Other Rider' });
  });
  afterAll(() => app?.close());

  const availableOf = async (partId: string) => (await restPart(app, partId)).available;
  const orderIdsOf = async (email: string) =>
    (
      await app.rest<OrderDoc[]>('GET', `/orders/filter?email=${encodeURIComponent(email)}`, undefined, admin.token)
    ).body
      .map((o) => o._id)
      .sort();

  describe('POST /api/orders', () => {
    it("places an order for the signed-in user: {acknowledged, insertedId}, the server's price and the stock taken", async () => {
      const partId = await restAddPart(app, admin.token, { name: 'Brake Lever', price: 12.5, available: 100 });
      const result = await app.rest<Inserted>(
        'POST',
        '/orders',
        {
          ...restOrderInput(partId, { orderAmount: 12 }),
          email: customer.email,
          price: 0.01,
          partName: 'Anything Else',
          partImage: 'https://evil.test/x.png',
        },
        customer.token,
      );
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ acknowledged: true, insertedId: expect.stringMatching(uuidPattern) });
      expect(await availableOf(partId)).toBe(88);
      const order = await restOrder(app, customer.token, result.body.insertedId);
      expect(order.body).toMatchObject({
        _id: result.body.insertedId,
        name: 'Rider One',
        email: customer.email,
        phone: '01712345678',
        price: 150,
        orderAmount: 12,
        address: 'Road 5, Dhaka',
        partName: 'Brake Lever',
        partImage: '/images/parts/default.svg',
        partId,
        paid: false,
      });
    });

    it('refuses a visitor with 401 and takes no stock', async () => {
      const partId = await restAddPart(app, admin.token, { available: 100 });
      expectRefusal(await app.rest('POST', '/orders', restOrderInput(partId)), 401);
      expect(await availableOf(partId)).toBe(100);
    });

    it("refuses an order placed with another user's email with 400 and takes no stock", async () => {
      const partId = await restAddPart(app, admin.token, { available: 100 });
      const before = await orderIdsOf(customer.email);
      const result = await app.rest(
        'POST',
        '/orders',
        { ...restOrderInput(partId), email: other.email },
        customer.token,
      );
      expectRefusal(result, 400, { email: 'Orders are placed with your own email' });
      expect(await availableOf(partId)).toBe(100);
      expect(await orderIdsOf(customer.email)).toEqual(before);
      expect(await orderIdsOf(other.email)).toEqual([]);
    });

    it.each([
      ['below minOrder', { orderAmount: 5 }, { orderAmount: 'Must order more than 10 items' }],
      ['above the stock', { orderAmount: 101 }, { orderAmount: 'Only 100 items available' }],
      ['without an amount', { orderAmount: '' }, { orderAmount: "Order can't be empty" }],
      ['without a name', { name: '' }, { name: 'Name is required' }],
      ['without a phone', { phone: '' }, { phone: 'Phone is required' }],
      ['with a short phone', { phone: '0171234' }, { phone: 'Must be 11 characters' }],
      ['with a foreign phone', { phone: '+15551234567' }, { phone: 'Provide a Bangladeshi number' }],
    ])("refuses an order %s with 400 and spec §5's message, taking no stock", async (_label, overrides, errors) => {
      const partId = await restAddPart(app, admin.token, { minOrder: 10, available: 100 });
      const before = await orderIdsOf(customer.email);
      expectRefusal(await app.rest('POST', '/orders', restOrderInput(partId, overrides), customer.token), 400, errors);
      expect(await availableOf(partId)).toBe(100);
      expect(await orderIdsOf(customer.email)).toEqual(before);
    });

    it('reports every failing field at once, with the shared messages', async () => {
      const partId = await restAddPart(app, admin.token, { minOrder: 10, available: 100 });
      const result = await app.rest('POST', '/orders', { partId }, customer.token);
      expectRefusal(result, 400, {
        name: messages.nameRequired,
        phone: messages.phoneRequired,
        orderAmount: messages.orderAmountRequired,
      });
    });

    it('answers 404 for an unknown part and writes nothing', async () => {
      const before = await orderIdsOf(customer.email);
      expectRefusal(
        await app.rest('POST', '/orders', restOrderInput(unknownId), customer.token),
        404,
        'Part not found',
      );
      expect(await orderIdsOf(customer.email)).toEqual(before);
    });
  });

  describe('GET /api/orders', () => {
    it("lets an admin list every customer's orders as order documents", async () => {
      const partId = await restAddPart(app, admin.token);
      const mine = await restPlaceOrder(app, customer.token, partId);
      const theirs = await restPlaceOrder(app, other.token, partId);
      const result = await app.rest<OrderDoc[]>('GET', '/orders', undefined, admin.token);
      expect(result.status).toBe(200);
      const ids = result.body.map((o) => o._id);
      expect(ids).toEqual(expect.arrayContaining([mine, theirs]));
      for (const order of result.body) {
        expect(Object.keys(order)).toEqual(expect.arrayContaining(orderSpecKeys));
        expect(typeof order._id).toBe('string');
      }
    });

    it('refuses a visitor with 401 and a customer with 403', async () => {
      expectRefusal(await app.rest('GET', '/orders'), 401);
      expectRefusal(await app.rest('GET', '/orders', undefined, customer.token), 403);
    });
  });

  describe('GET /api/orders/filter?email=', () => {
    it("answers the user's own orders, and only those", async () => {
      const partId = await restAddPart(app, admin.token);
      const mine = await restPlaceOrder(app, customer.token, partId);
      const theirs = await restPlaceOrder(app, other.token, partId);
      const result = await app.rest<OrderDoc[]>(
        'GET',
        `/orders/filter?email=${customer.email}`,
        undefined,
        customer.token,
      );
      expect(result.status).toBe(200);
      const ids = result.body.map((o) => o._id);
      expect(ids).toContain(mine);
      expect(ids).not.toContain(theirs);
      expect(result.body.every((o) => o.email === customer.email)).toBe(true);
    });

    it("lets an admin read any user's orders", async () => {
      const partId = await restAddPart(app, admin.token);
      const theirs = await restPlaceOrder(app, other.token, partId);
      const result = await app.rest<OrderDoc[]>('GET', `/orders/filter?email=${other.email}`, undefined, admin.token);
      expect(result.status).toBe(200);
      expect(result.body.map((o) => o._id)).toContain(theirs);
      expect(result.body.every((o) => o.email === other.email)).toBe(true);
    });

    it("refuses another customer's email with 403 and a visitor with 401", async () => {
      expectRefusal(await app.rest('GET', `/orders/filter?email=${other.email}`, undefined, customer.token), 403);
      expectRefusal(await app.rest('GET', `/orders/filter?email=${customer.email}`), 401);
    });

    it("refuses a missing or malformed email with 400 and spec §5's message", async () => {
      expectRefusal(await app.rest('GET', '/orders/filter', undefined, admin.token), 400, {
        email: 'Email is required',
      });
      expectRefusal(await app.rest('GET', '/orders/filter?email=not-an-email', undefined, admin.token), 400, {
        email: 'Provide a valid email',
      });
    });
  });

  describe('GET /api/order/{id}', () => {
    it('answers one order document to its owner and to an admin', async () => {
      const partId = await restAddPart(app, admin.token, { price: 3 });
      const id = await restPlaceOrder(app, customer.token, partId, { orderAmount: 10 });
      const own = await restOrder(app, customer.token, id);
      expect(own.status).toBe(200);
      expect(Object.keys(own.body)).toEqual(expect.arrayContaining(orderSpecKeys));
      expect(own.body).toMatchObject({ _id: id, email: customer.email, price: 30, paid: false, partId });
      expect(own.body.transactionId).toBeUndefined();
      const asAdmin = await restOrder(app, admin.token, id);
      expect(asAdmin.status).toBe(200);
      expect(asAdmin.body).toEqual(own.body);
    });

    it("refuses another customer's order with 403 and a visitor with 401", async () => {
      const partId = await restAddPart(app, admin.token);
      const id = await restPlaceOrder(app, customer.token, partId);
      expectRefusal(await restOrder(app, other.token, id), 403);
      expectRefusal(await app.rest('GET', `/order/${id}`), 401);
    });

    it('answers 404 for an unknown order', async () => {
      expectRefusal(await restOrder(app, customer.token, unknownId), 404, 'Order not found');
      expectRefusal(await restOrder(app, admin.token, 'not-a-uuid'), 404, 'Order not found');
    });
  });

  describe('DELETE /api/order/{id}', () => {
    it('lets the owner cancel an unpaid order: {acknowledged, deletedCount: 1}, the stock comes back', async () => {
      const partId = await restAddPart(app, admin.token, { available: 50 });
      const id = await restPlaceOrder(app, customer.token, partId, { orderAmount: 20 });
      expect(await availableOf(partId)).toBe(30);
      const result = await app.rest<Deleted>('DELETE', `/order/${id}`, undefined, customer.token);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ acknowledged: true, deletedCount: 1 });
      expect(await availableOf(partId)).toBe(50);
      expect((await restOrder(app, customer.token, id)).status).toBe(404);
    });

    it("lets an admin delete a customer's unpaid order", async () => {
      const partId = await restAddPart(app, admin.token, { available: 50 });
      const id = await restPlaceOrder(app, customer.token, partId, { orderAmount: 10 });
      const result = await app.rest<Deleted>('DELETE', `/order/${id}`, undefined, admin.token);
      expect(result.body).toEqual({ acknowledged: true, deletedCount: 1 });
      expect(await availableOf(partId)).toBe(50);
    });

    it('refuses another customer (403) and a visitor (401); the order and the stock stay', async () => {
      const partId = await restAddPart(app, admin.token, { available: 50 });
      const id = await restPlaceOrder(app, customer.token, partId, { orderAmount: 10 });
      expectRefusal(await app.rest('DELETE', `/order/${id}`, undefined, other.token), 403);
      expectRefusal(await app.rest('DELETE', `/order/${id}`), 401);
      expect((await restOrder(app, customer.token, id)).status).toBe(200);
      expect(await availableOf(partId)).toBe(40);
    });

    it('refuses to delete a paid order with 409; the order stays paid and the stock stays taken', async () => {
      const partId = await restAddPart(app, admin.token, { available: 50 });
      const id = await restPlaceOrder(app, customer.token, partId, { orderAmount: 10 });
      await restPayOrder(app, customer.token, id);
      expectRefusal(await app.rest('DELETE', `/order/${id}`, undefined, customer.token), 409);
      expectRefusal(await app.rest('DELETE', `/order/${id}`, undefined, admin.token), 409);
      expect((await restOrder(app, customer.token, id)).body.paid).toBe(true);
      expect(await availableOf(partId)).toBe(40);
    });

    it('answers 404 for an unknown order', async () => {
      expectRefusal(await app.rest('DELETE', `/order/${unknownId}`, undefined, customer.token), 404, 'Order not found');
    });
  });

  describe('PATCH /api/order/{id}/shipped', () => {
    it('lets an admin mark a paid order shipped: modifiedCount 1, then 0 when it already is', async () => {
      const partId = await restAddPart(app, admin.token);
      const id = await restPlaceOrder(app, customer.token, partId);
      await restPayOrder(app, customer.token, id);
      const first = await app.rest<Updated>('PATCH', `/order/${id}/shipped`, undefined, admin.token);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ acknowledged: true, matchedCount: 1, modifiedCount: 1 });
      expect((await restOrder(app, customer.token, id)).body).toMatchObject({ status: 'shipped', paid: true });
      const again = await app.rest<Updated>('PATCH', `/order/${id}/shipped`, undefined, admin.token);
      expect(again.body).toEqual({ acknowledged: true, matchedCount: 1, modifiedCount: 0 });
    });

    it('refuses to ship an unpaid order with 409; it stays unpaid', async () => {
      const partId = await restAddPart(app, admin.token);
      const id = await restPlaceOrder(app, customer.token, partId);
      expectRefusal(await app.rest('PATCH', `/order/${id}/shipped`, undefined, admin.token), 409);
      expect((await restOrder(app, customer.token, id)).body).toMatchObject({ status: 'unpaid', paid: false });
    });

    it('refuses the owner (403) and a visitor (401); the order stays paid, not shipped', async () => {
      const partId = await restAddPart(app, admin.token);
      const id = await restPlaceOrder(app, customer.token, partId);
      await restPayOrder(app, customer.token, id);
      expectRefusal(await app.rest('PATCH', `/order/${id}/shipped`, undefined, customer.token), 403);
      expectRefusal(await app.rest('PATCH', `/order/${id}/shipped`), 401);
      expect((await restOrder(app, customer.token, id)).body.status).toBe('paid');
    });

    it('answers 404 for an unknown order', async () => {
      expectRefusal(await app.rest('PATCH', `/order/${unknownId}/shipped`, undefined, admin.token), 404);
    });
  });
});
