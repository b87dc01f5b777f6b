import { maxChargeCents } from '@partsyard/common';
import { eq } from 'drizzle-orm';
import { orders, parts } from '../../src/db/schema';
import type { Actor } from '../../src/services/actor';
import { databaseKinds } from '../support/env';
import { orderInput, partInput } from '../support/fixtures';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';
import { FakeStripe, stripeSettings } from './fakeStripe';
import {
  actorOf,
  addPartAs,
  expectAppError,
  paymentsOfOrder,
  partRow,
  placeOrderAs,
  signUp,
  testCard,
} from './helpers';

const placeOrderDocument = 'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id price } }';
const addPartDocument = 'mutation($input: PartInput!) { addPart(input: $input) { id price } }';

describe.each(databaseKinds)('money: exact totals that fit one card payment (%s)', (kind) => {
  let app: TestApp;
  let admin: Actor;
  let adminUser: TestUser;
  let customerUser: TestUser;
  let customer: Actor;

  beforeAll(async () => {
    app = await startTestApp(kind);
    adminUser = await signUp(app, { admin: true });
    admin = await actorOf(app, adminUser);
    customerUser = await signUp(app);
    customer = await actorOf(app, customerUser);
  });
  afterAll(() => app?.close());

  const services = () => app.server.services;
  const db = () => app.server.database.db;

  it('the limit is Stripe’s: 99,999,999 cents per charge', () => {
    expect(maxChargeCents).toBe(99_999_999);
  });

  it('a part priced 0 is refused (GraphQL and REST) and nothing is written', async () => {
    const before = await db().select({ id: parts.id }).from(parts);
    const graphql = await app.gql(addPartDocument, { input: partInput({ price: 0 }) }, adminUser.token);
    expect(graphql.errors?.[0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: { price: 'Price must be at least $0.01' },
    });
    const rest = await app.rest('POST', '/parts', partInput({ price: 0.001 }), adminUser.token);
    expect(rest).toEqual({
      status: 400,
      body: { message: 'Price must be at least $0.01', errors: { price: 'Price must be at least $0.01' } },
    });
    expect(await db().select({ id: parts.id }).from(parts)).toHaveLength(before.length);
  });

  it('a $1,000,000 part is refused with the limit; $999,999.99 is accepted', async () => {
    const refused = await app.gql(addPartDocument, { input: partInput({ price: 1_000_000 }) }, adminUser.token);
    expect(refused.status).toBe(200);
    expect(refused.errors?.[0].extensions?.fields).toEqual({
      price: 'Price must be $999,999.99 or less, the most one card payment can be',
    });
    const accepted = await app.gql<{ addPart: { price: number } }>(
      addPartDocument,
      { input: partInput({ price: 999_999.99, minOrder: 1 }) },
      adminUser.token,
    );
    expect(accepted.data?.addPart.price).toBe(999_999.99);
  });

  it('22 units of a $999,999.99 part: BAD_USER_INPUT naming how many fit, never a 500, and the stock is untouched', async () => {
    const part = await addPartAs(app, admin, { price: 999_999.99, minOrder: 1, available: 100 });
    const result = await app.gql(
      placeOrderDocument,
      { input: orderInput(part.id, { orderAmount: 22 }) },
      customerUser.token,
    );
    expect(result.status).toBe(200);
    expect(result.errors?.[0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: {
        orderAmount: 'An order can cost at most $999,999.99, the most one card payment can be: order at most 1 item',
      },
    });
    const rest = await app.rest('POST', '/orders', orderInput(part.id, { orderAmount: 2 }), customerUser.token);
    expect(rest.status).toBe(400);
    expect((await partRow(app, part.id)).available).toBe(100);
  });

  it('an order of exactly the limit is placed, paid and recorded to the cent', async () => {
    const part = await addPartAs(app, admin, { price: 999_999.99, minOrder: 1, available: 3 });
    const order = await placeOrderAs(app, customer, part.id, { orderAmount: 1 });
    expect(order.totalCents).toBe(maxChargeCents);
    const intent = await services().payments.createPaymentIntent(customer, order.id);
    expect(intent.amountCents).toBe(maxChargeCents);
    expect((await services().payments.payWithTestCard(customer, intent.id, testCard())).succeeded).toBe(true);
    const paid = await services().payments.confirmPayment(customer, order.id, intent.id);
    expect(paid.status).toBe('paid');
    const [payment] = await paymentsOfOrder(app, order.id);
    expect(payment.amountCents).toBe(maxChargeCents);
    const read = await app.gql<{ order: { price: number } }>(
      'query($id: ID!) { order(id: $id) { price } }',
      { id: order.id },
      customerUser.token,
    );
    expect(read.data?.order.price).toBe(999_999.99);
  });

  it('the 64-bit columns keep totals beyond 32 bits exactly (an order written before the bounds)', async () => {
    // 5,000,000 cents x 1,000 = 5,000,000,000 cents: more than a 32-bit integer holds (2,147,483,647).
    const part = await addPartAs(app, admin, { price: 50_000, minOrder: 1, available: 10 });
    const [legacy] = await db()
      .insert(orders)
      .values({
        userId: customer.userId,
        email: customer.email ?? '',
        name: 'Rider One',
        phone: '01712345678',
        partId: part.id,
        partName: part.name,
        orderAmount: 1000,
        unitPriceCents: 5_000_000,
        totalCents: 5_000_000_000,
      })
      .returning();
    expect(legacy.totalCents).toBe(5_000_000_000);
    const read = await app.gql<{ order: { price: number } }>(
      'query($id: ID!) { order(id: $id) { price } }',
      { id: legacy.id },
      customerUser.token,
    );
    expect(read.data?.order.price).toBe(50_000_000);
    // It cannot be paid in one card payment: a clear 409, the gateway never asked.
    const refused = await expectAppError(services().payments.createPaymentIntent(customer, legacy.id), 'CONFLICT');
    expect(refused.message).toBe(
      'This order costs more than $999,999.99, the most one card payment can be: cancel it and order fewer items',
    );
    const rest = await app.rest('POST', '/create-payment-intent', { orderId: legacy.id }, customerUser.token);
    expect(rest.status).toBe(409);
  });

  it('a part priced 0 before prices had to be positive cannot be ordered, and its free orders cannot be paid', async () => {
    const [free] = await db()
      .insert(parts)
      .values({ name: 'Free Sticker', description: 'Old row.', priceCents: 0, minOrder: 1, available: 50 })
      .returning();
    const refused = await expectAppError(placeOrderAs(app, customer, free.id, { orderAmount: 1 }), 'BAD_USER_INPUT');
    expect(refused.fields).toEqual({ partId: 'This part has no price yet and cannot be ordered' });
    expect((await partRow(app, free.id)).available).toBe(50);
    const [freeOrder] = await db()
      .insert(orders)
      .values({
        userId: customer.userId,
        email: customer.email ?? '',
        name: 'Rider One',
        phone: '01712345678',
        partId: free.id,
        partName: free.name,
        orderAmount: 2,
        unitPriceCents: 0,
        totalCents: 0,
      })
      .returning();
    const unpayable = await expectAppError(services().payments.createPaymentIntent(customer, freeOrder.id), 'CONFLICT');
    expect(unpayable.message).toBe('This order has a total of $0.00, so there is nothing to pay: cancel it');
    await services().orders.cancelOrder(customer, freeOrder.id);
    expect(await db().select().from(orders).where(eq(orders.id, freeOrder.id))).toEqual([]);
  });
});

describe.each(databaseKinds)('money at the bound, through Stripe (a local Stripe-compatible API, %s)', (kind) => {
  let fake: FakeStripe;
  let app: TestApp;
  let admin: Actor;
  let customer: Actor;

  beforeAll(async () => {
    fake = new FakeStripe();
    await fake.start();
    app = await startTestApp(kind, { stripe: stripeSettings(fake.port) });
    admin = await actorOf(app, await signUp(app, { admin: true }));
    customer = await actorOf(app, await signUp(app));
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  it('an order of exactly 99,999,999 cents gets an intent Stripe accepts, and is recorded to the cent', async () => {
    const part = await addPartAs(app, admin, { price: 333_333.33, minOrder: 1, available: 10 });
    const order = await placeOrderAs(app, customer, part.id, { orderAmount: 3 });
    expect(order.totalCents).toBe(maxChargeCents);
    const intent = await app.server.services.payments.createPaymentIntent(customer, order.id);
    expect(fake.intents.get(intent.id)).toMatchObject({ amount: maxChargeCents, currency: 'usd' });
    fake.succeed(intent.id);
    const paid = await app.server.services.payments.confirmPayment(customer, order.id, intent.id);
    expect(paid.status).toBe('paid');
    expect((await paymentsOfOrder(app, order.id))[0].amountCents).toBe(maxChargeCents);
    // One cent more is refused by the rules before Stripe is asked (it would refuse it too).
    await expectAppError(placeOrderAs(app, customer, part.id, { orderAmount: 4 }), 'BAD_USER_INPUT');
  });
});
