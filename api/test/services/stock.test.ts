import { eq, sql } from 'drizzle-orm';
import { orders, parts, payments, users } from '../../src/db/schema';
import { AppError } from '../../src/errors';
import type { Actor } from '../../src/services/actor';
import { databaseKinds } from '../support/env';
import { orderInput } from '../support/fixtures';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';
import {
  actorOf,
  addPartAs,
  expectAppError,
  expectConstraintViolation,
  orderRow,
  partRow,
  placeOrderAs,
  signUp,
  testCard,
} from './helpers';

describe.each(databaseKinds)('stock and database constraints on %s', (kind) => {
  let app: TestApp;
  let admin: Actor;
  let customer: Actor;
  let otherCustomer: Actor;
  let customerUser: TestUser;

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = await actorOf(app, await signUp(app, { admin: true }));
    customerUser = await signUp(app);
    customer = await actorOf(app, customerUser);
    otherCustomer = await actorOf(app, await signUp(app));
  });
  afterAll(() => app?.close());

  const services = () => app.server.services;
  const db = () => app.server.database.db;

  /** Pays an order on the test gateway through the services. */
  async function pay(actor: Actor, orderId: string) {
    const intent = await services().payments.createPaymentIntent(actor, orderId);
    const outcome = await services().payments.payWithTestCard(actor, intent.id, testCard());
    expect(outcome.succeeded).toBe(true);
    return services().payments.confirmPayment(actor, orderId, intent.id);
  }

  describe('placing orders concurrently', () => {
    it('50 concurrent orders of 1 on a part with 30 in stock: exactly 30 are accepted and stock ends at 0', async () => {
      const part = await addPartAs(app, admin, { minOrder: 1, available: 30 });
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) =>
          placeOrderAs(app, i % 2 ? customer : otherCustomer, part.id, { orderAmount: 1 }),
        ),
      );
      const accepted = results.filter((r) => r.status === 'fulfilled');
      const refused = results.filter((r) => r.status === 'rejected');
      expect(accepted).toHaveLength(30);
      expect(refused).toHaveLength(20);
      for (const r of refused) {
        expect(r.reason).toBeInstanceOf(AppError);
        expect((r.reason as AppError).code).toBe('BAD_USER_INPUT');
        expect((r.reason as AppError).fields).toEqual({ orderAmount: 'Only 0 items available' });
      }
      const after = await partRow(app, part.id);
      expect(after.available).toBe(0);
      expect(after.sold).toBe(30);
      const [{ n }] = await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(orders)
        .where(eq(orders.partId, part.id));
      expect(n).toBe(30);
    });

    it('50 concurrent orders of mixed amounts: stock never goes below 0 and ends at start - sum(accepted amounts)', async () => {
      const start = 200;
      const part = await addPartAs(app, admin, { minOrder: 2, available: start, price: 3.25 });
      const amounts = Array.from({ length: 50 }, (_, i) => 2 + ((i * 7) % 11)); // 2..12, sum far above 200
      expect(amounts.reduce((a, b) => a + b, 0)).toBeGreaterThan(start);
      const results = await Promise.allSettled(
        amounts.map((orderAmount, i) => placeOrderAs(app, i % 3 ? customer : otherCustomer, part.id, { orderAmount })),
      );
      const acceptedAmounts = results.flatMap((r, i) => (r.status === 'fulfilled' ? [amounts[i]] : []));
      const acceptedSum = acceptedAmounts.reduce((a, b) => a + b, 0);
      for (const r of results) {
        if (r.status === 'rejected') {
          expect((r.reason as AppError).code).toBe('BAD_USER_INPUT');
          expect((r.reason as AppError).fields?.orderAmount).toMatch(/^Only \d+ items available$/);
        }
      }
      expect(acceptedAmounts.length).toBeGreaterThan(0);
      const after = await partRow(app, part.id);
      expect(after.available).toBeGreaterThanOrEqual(0);
      expect(after.available).toBe(start - acceptedSum);
      expect(after.sold).toBe(acceptedSum);
      // Whatever was left is smaller than every refused amount (an order is only refused when it did not fit).
      const refusedAmounts = results.flatMap((r, i) => (r.status === 'rejected' ? [amounts[i]] : []));
      for (const amount of refusedAmounts) expect(amount).toBeGreaterThan(after.available);
      // The orders written are exactly the accepted ones, each charged the server's price.
      const written = await db().select().from(orders).where(eq(orders.partId, part.id));
      expect(written.map((o) => o.orderAmount).sort()).toEqual([...acceptedAmounts].sort());
      for (const o of written) expect(o.totalCents).toBe(325 * o.orderAmount);
    });

    it('50 concurrent orders through GraphQL never oversell either', async () => {
      const part = await addPartAs(app, admin, { minOrder: 1, available: 17 });
      const results = await Promise.all(
        Array.from({ length: 50 }, () =>
          app.gql<{ placeOrder: { id: string } }>(
            'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
            { input: orderInput(part.id, { orderAmount: 1 }) },
            customerUser.token,
          ),
        ),
      );
      expect(results.filter((r) => r.data?.placeOrder.id)).toHaveLength(17);
      const refused = results.filter((r) => r.errors);
      expect(refused).toHaveLength(33);
      for (const r of refused) expect(r.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
      expect((await partRow(app, part.id)).available).toBe(0);
    });

    it('an order is refused and nothing is written when the amount is below minOrder or above the stock', async () => {
      const part = await addPartAs(app, admin, { minOrder: 10, available: 40 });
      const below = await expectAppError(placeOrderAs(app, customer, part.id, { orderAmount: 9 }), 'BAD_USER_INPUT');
      expect(below.fields).toEqual({ orderAmount: 'Must order more than 10 items' });
      const above = await expectAppError(placeOrderAs(app, customer, part.id, { orderAmount: 41 }), 'BAD_USER_INPUT');
      expect(above.fields).toEqual({ orderAmount: 'Only 40 items available' });
      expect((await partRow(app, part.id)).available).toBe(40);
      const written = await db().select().from(orders).where(eq(orders.partId, part.id));
      expect(written).toHaveLength(0);
    });

    it('the price is the server’s: a price sent by the client is ignored', async () => {
      const part = await addPartAs(app, admin, { price: 12.5, minOrder: 1, available: 10 });
      const order = await placeOrderAs(app, customer, part.id, { orderAmount: 4, price: 0.01, totalCents: 1 });
      expect(order.unitPriceCents).toBe(1250);
      expect(order.totalCents).toBe(5000);
      expect(order.email).toBe(customer.email);
    });
  });

  describe('giving stock back', () => {
    it('cancelling an unpaid order gives its amount back to the stock', async () => {
      const part = await addPartAs(app, admin, { minOrder: 5, available: 50 });
      const order = await placeOrderAs(app, customer, part.id, { orderAmount: 20 });
      expect((await partRow(app, part.id)).available).toBe(30);
      await expect(services().orders.cancelOrder(customer, order.id)).resolves.toBe(order.id);
      const after = await partRow(app, part.id);
      expect(after.available).toBe(50);
      expect(after.sold).toBe(0);
      expect(await orderRow(app, order.id)).toBeUndefined();
    });

    it('an admin may cancel anyone’s unpaid order, and the stock comes back', async () => {
      const part = await addPartAs(app, admin, { minOrder: 1, available: 10 });
      const order = await placeOrderAs(app, customer, part.id, { orderAmount: 4 });
      await services().orders.cancelOrder(admin, order.id);
      expect((await partRow(app, part.id)).available).toBe(10);
    });

    it('another customer cannot cancel my order, and the stock stays taken', async () => {
      const part = await addPartAs(app, admin, { minOrder: 1, available: 10 });
      const order = await placeOrderAs(app, customer, part.id, { orderAmount: 4 });
      await expectAppError(services().orders.cancelOrder(otherCustomer, order.id), 'FORBIDDEN');
      expect((await partRow(app, part.id)).available).toBe(6);
      expect(await orderRow(app, order.id)).toBeDefined();
    });

    it('cancelling the same order many times at once gives its stock back exactly once', async () => {
      const part = await addPartAs(app, admin, { minOrder: 1, available: 10 });
      const order = await placeOrderAs(app, customer, part.id, { orderAmount: 7 });
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, () => services().orders.cancelOrder(customer, order.id)),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) {
        if (r.status === 'rejected') expect(['CONFLICT', 'NOT_FOUND']).toContain((r.reason as AppError).code);
      }
      expect((await partRow(app, part.id)).available).toBe(10);
    });

    it('a paid order cannot be cancelled and its stock stays sold', async () => {
      const part = await addPartAs(app, admin, { minOrder: 1, available: 10 });
      const order = await placeOrderAs(app, customer, part.id, { orderAmount: 3 });
      await pay(customer, order.id);
      await expectAppError(services().orders.cancelOrder(customer, order.id), 'CONFLICT');
      await expectAppError(services().orders.cancelOrder(admin, order.id), 'CONFLICT');
      expect((await partRow(app, part.id)).available).toBe(7);
      expect((await orderRow(app, order.id))?.status).toBe('paid');
    });

    it("deleting a user cancels the user's unpaid orders, gives their stock back and keeps paid orders", async () => {
      const leavingUser = await signUp(app);
      const leaving = await actorOf(app, leavingUser);
      const part = await addPartAs(app, admin, { minOrder: 1, available: 100 });
      const otherPart = await addPartAs(app, admin, { minOrder: 1, available: 20 });
      const unpaidA = await placeOrderAs(app, leaving, part.id, { orderAmount: 10 });
      const unpaidB = await placeOrderAs(app, leaving, otherPart.id, { orderAmount: 5 });
      const paid = await placeOrderAs(app, leaving, part.id, { orderAmount: 3 });
      await pay(leaving, paid.id);
      const someoneElses = await placeOrderAs(app, customer, part.id, { orderAmount: 2 });
      expect((await partRow(app, part.id)).available).toBe(85);

      await expect(services().users.deleteUser(admin, leaving.userId)).resolves.toBe(leaving.userId);

      expect((await partRow(app, part.id)).available).toBe(95); // 100 - 3 paid - 2 of someone else
      expect((await partRow(app, otherPart.id)).available).toBe(20);
      expect(await orderRow(app, unpaidA.id)).toBeUndefined();
      expect(await orderRow(app, unpaidB.id)).toBeUndefined();
      // Kept for the books without the email; the paid order keeps where it is to be delivered until shipped.
      const keptPaid = await orderRow(app, paid.id);
      expect(keptPaid).toMatchObject({ status: 'paid', userId: null, email: '', phone: '01712345678' });
      expect(keptPaid?.name).not.toBe('');
      expect(await orderRow(app, someoneElses.id)).toMatchObject({ status: 'unpaid', userId: customer.userId });
      const [payment] = await db().select().from(payments).where(eq(payments.orderId, paid.id));
      expect(payment).toMatchObject({ userId: null, email: '' });
      expect(await db().select().from(users).where(eq(users.id, leaving.userId))).toHaveLength(0);
      await services().orders.markShipped(admin, paid.id);
      expect(await orderRow(app, paid.id)).toMatchObject({
        status: 'shipped',
        email: '',
        name: '',
        phone: '',
        address: '',
      });
    });

    it("shipping a current customer's order keeps their details", async () => {
      const part = await addPartAs(app, admin, { minOrder: 1, available: 10 });
      const order = await placeOrderAs(app, customer, part.id, { orderAmount: 1, address: 'Road 5, Dhaka' });
      await pay(customer, order.id);
      await services().orders.markShipped(admin, order.id);
      expect(await orderRow(app, order.id)).toMatchObject({
        status: 'shipped',
        email: customer.email,
        phone: '01712345678',
        address: 'Road 5, Dhaka',
      });
    });

    it('only an admin may delete a user, and never themselves', async () => {
      await expectAppError(services().users.deleteUser(customer, otherCustomer.userId), 'FORBIDDEN');
      await expectAppError(services().users.deleteUser(admin, admin.userId), 'CONFLICT');
      expect(await db().select().from(users).where(eq(users.id, otherCustomer.userId))).toHaveLength(1);
    });
  });

  describe('the database keeps the data valid even if the code is wrong', () => {
    const rawPart = (overrides: Partial<typeof parts.$inferInsert> = {}) => ({
      name: 'Raw part',
      description: 'Inserted directly',
      priceCents: 100,
      minOrder: 1,
      available: 5,
      ...overrides,
    });

    it('refuses a part with negative stock, on insert and on update', async () => {
      await expectConstraintViolation(
        db()
          .insert(parts)
          .values(rawPart({ available: -1 })),
        'parts_available_check',
        '23514',
      );
      const [row] = await db()
        .insert(parts)
        .values(rawPart({ available: 3 }))
        .returning();
      await expectConstraintViolation(
        db()
          .update(parts)
          .set({ available: sql`${parts.available} - 4` })
          .where(eq(parts.id, row.id)),
        'parts_available_check',
        '23514',
      );
      expect((await partRow(app, row.id)).available).toBe(3);
    });

    it('refuses a minOrder of 0', async () => {
      await expectConstraintViolation(
        db()
          .insert(parts)
          .values(rawPart({ minOrder: 0 })),
        'parts_min_order_check',
        '23514',
      );
      const [row] = await db().insert(parts).values(rawPart()).returning();
      await expectConstraintViolation(
        db().update(parts).set({ minOrder: 0 }).where(eq(parts.id, row.id)),
        'parts_min_order_check',
        '23514',
      );
    });

    it('refuses a negative price', async () => {
      await expectConstraintViolation(
        db()
          .insert(parts)
          .values(rawPart({ priceCents: -1 })),
        'parts_price_check',
        '23514',
      );
    });

    it('refuses a second user with the same email', async () => {
      const email = `dupe-${Date.now()}@example.test`;
      await db().insert(users).values({ email });
      await expectConstraintViolation(db().insert(users).values({ email }), 'users_email_key', '23505');
    });

    it('refuses an email that is not lower-case (so case variants cannot make a second account)', async () => {
      await expectConstraintViolation(
        db().insert(users).values({ email: 'Mixed@Example.test' }),
        'users_email_lower_check',
        '23514',
      );
    });

    it('refuses an order whose total is not unit price x amount', async () => {
      const [part] = await db().insert(parts).values(rawPart()).returning();
      const order = {
        email: customer.email ?? '',
        name: 'Raw',
        phone: '01712345678',
        partId: part.id,
        partName: part.name,
        orderAmount: 3,
        unitPriceCents: 100,
      };
      await expectConstraintViolation(
        db()
          .insert(orders)
          .values({ ...order, totalCents: 299 }),
        'orders_price_check',
        '23514',
      );
      const [ok] = await db()
        .insert(orders)
        .values({ ...order, totalCents: 300 })
        .returning();
      await expectConstraintViolation(
        db().update(orders).set({ totalCents: 1 }).where(eq(orders.id, ok.id)),
        'orders_price_check',
        '23514',
      );
      await expectConstraintViolation(
        db()
          .insert(orders)
          .values({ ...order, orderAmount: 0, totalCents: 0 }),
        'orders_amount_check',
        '23514',
      );
    });

    it('refuses a paid order without a transaction id, and an unpaid one with one', async () => {
      const [part] = await db().insert(parts).values(rawPart()).returning();
      const base = {
        email: customer.email ?? '',
        name: 'Raw',
        phone: '01712345678',
        partId: part.id,
        partName: part.name,
        orderAmount: 1,
        unitPriceCents: 100,
        totalCents: 100,
      };
      await expectConstraintViolation(
        db()
          .insert(orders)
          .values({ ...base, status: 'paid' }),
        'orders_paid_has_transaction_check',
        '23514',
      );
      await expectConstraintViolation(
        db()
          .insert(orders)
          .values({ ...base, transactionId: 'pi_raw_unpaid' }),
        'orders_paid_has_transaction_check',
        '23514',
      );
    });

    it('refuses a second payment with the same transaction id', async () => {
      const [part] = await db().insert(parts).values(rawPart()).returning();
      const base = {
        email: customer.email ?? '',
        name: 'Raw',
        phone: '01712345678',
        partId: part.id,
        partName: part.name,
        orderAmount: 1,
        unitPriceCents: 100,
        totalCents: 100,
      };
      const [first, second] = await db()
        .insert(orders)
        .values([
          { ...base, status: 'paid', transactionId: `pi_raw_${Date.now()}_a` },
          { ...base, status: 'paid', transactionId: `pi_raw_${Date.now()}_b` },
        ])
        .returning();
      const payment = {
        email: customer.email ?? '',
        partId: part.id,
        partName: part.name,
        transactionId: `pi_raw_dupe_${Date.now()}`,
        amountCents: 100,
        gateway: 'test' as const,
      };
      await db()
        .insert(payments)
        .values({ ...payment, orderId: first.id });
      await expectConstraintViolation(
        db()
          .insert(payments)
          .values({ ...payment, orderId: second.id }),
        'payments_transaction_id_key',
        '23505',
      );
      // ... and a second payment for the same order, whatever its transaction id.
      await expectConstraintViolation(
        db()
          .insert(payments)
          .values({ ...payment, orderId: first.id, transactionId: `pi_raw_other_${Date.now()}` }),
        'payments_order_id_key',
        '23505',
      );
    });

    it('refuses two orders with the same transaction id', async () => {
      const [part] = await db().insert(parts).values(rawPart()).returning();
      const row = {
        email: customer.email ?? '',
        name: 'Raw',
        phone: '01712345678',
        partId: part.id,
        partName: part.name,
        orderAmount: 1,
        unitPriceCents: 100,
        totalCents: 100,
        status: 'paid' as const,
        transactionId: `pi_raw_same_${Date.now()}`,
      };
      await db().insert(orders).values(row);
      await expectConstraintViolation(db().insert(orders).values(row), 'orders_transaction_id_key', '23505');
    });

    it('refuses a payment of 0 or less', async () => {
      const [part] = await db().insert(parts).values(rawPart()).returning();
      const [order] = await db()
        .insert(orders)
        .values({
          email: customer.email ?? '',
          name: 'Raw',
          phone: '01712345678',
          partId: part.id,
          partName: part.name,
          orderAmount: 1,
          unitPriceCents: 100,
          totalCents: 100,
          status: 'paid',
          transactionId: `pi_raw_zero_${Date.now()}`,
        })
        .returning();
      await expectConstraintViolation(
        db()
          .insert(payments)
          .values({
            orderId: order.id,
            email: customer.email ?? '',
            partName: part.name,
            transactionId: `pi_raw_zero_pay_${Date.now()}`,
            amountCents: 0,
            gateway: 'test',
          }),
        'payments_amount_check',
        '23514',
      );
    });
  });
});
