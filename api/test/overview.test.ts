import { eq, sql } from 'drizzle-orm';
import { orders } from '../src/db/schema';
import type { Actor } from '../src/services/actor';
import { createOverviewService } from '../src/services/overviewService';
import { actorOf, addPartAs, expectAppError, placeOrderAs, signUp, testCard } from './services/helpers';
import { databaseKinds } from './support/env';
import { captureLogs } from './support/logs';
import { startTestApp, type TestApp, type TestUser } from './support/testApp';

/**
 * The admin overview (issue 14, point 5): its figures against ones computed by hand from a small shop whose
 * every order is known. "Time passes" by moving an order's paid_at or expires_at, as the database's clock sees it.
 */

describe.each(databaseKinds)('the admin overview (%s)', (kind) => {
  let app: TestApp;
  let admin: Actor;
  let adminUser: TestUser;
  let customerUser: TestUser;
  let one: Actor;
  let two: Actor;
  const ids: Record<string, string> = {};

  const db = () => app.server.database.db;
  const services = () => app.server.services;

  async function pay(actor: Actor, orderId: string) {
    const intent = await services().payments.createPaymentIntent(actor, orderId);
    await services().payments.payWithTestCard(actor, intent.id, testCard());
    await services().payments.confirmPayment(actor, orderId, intent.id);
  }
  const setPaidAt = (orderId: string, at: ReturnType<typeof sql>) =>
    db().update(orders).set({ paidAt: at }).where(eq(orders.id, orderId));

  beforeAll(async () => {
    app = await startTestApp(kind);
    adminUser = await signUp(app, { admin: true });
    admin = await actorOf(app, adminUser);
    customerUser = await signUp(app);
    one = await actorOf(app, customerUser);
    two = await actorOf(app, await signUp(app));
    const logs = captureLogs();
    try {
      const a = await addPartAs(app, admin, { name: 'Part A', price: 2.5, minOrder: 1, available: 100 });
      const b = await addPartAs(app, admin, { name: 'Part B', price: 10, minOrder: 5, available: 100 });
      ids.c = (await addPartAs(app, admin, { name: 'Part C', price: 1, minOrder: 10, available: 15 })).id;
      ids.d = (await addPartAs(app, admin, { name: 'Part D', price: 1, minOrder: 3, available: 5 })).id;
      await addPartAs(app, admin, { name: 'Part E', price: 1, minOrder: 4, available: 8 }); // exactly twice: not low

      const o1 = await placeOrderAs(app, one, a.id, { orderAmount: 10 }); // $25 paid today
      await pay(one, o1.id);
      const o2 = await placeOrderAs(app, two, b.id, { orderAmount: 5 }); // $50 paid today, shipped
      await pay(two, o2.id);
      await services().orders.markShipped(admin, o2.id);
      await placeOrderAs(app, one, a.id, { orderAmount: 4 }); // unpaid: 4 units reserved
      const o4 = await placeOrderAs(app, two, b.id, { orderAmount: 6 }); // expired
      const o5 = await placeOrderAs(app, one, a.id, { orderAmount: 8 }); // $20 paid three days ago
      await pay(one, o5.id);
      const o6 = await placeOrderAs(app, two, b.id, { orderAmount: 5 }); // $50 paid 40 days ago: outside
      await pay(two, o6.id);
      const o7 = await placeOrderAs(app, one, a.id, { orderAmount: 3 }); // unpaid, due, not swept yet
      await setPaidAt(o5.id, sql`now() - interval '3 days'`);
      await setPaidAt(o6.id, sql`now() - interval '40 days'`);
      await db()
        .update(orders)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(orders.id, o4.id));
      await services().orders.expireDueOrders();
      await db()
        .update(orders)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(orders.id, o7.id));
      for (let i = 1; i <= 6; i++) {
        await services().contact.sendMessage({
          firstName: `Writer${i}`,
          lastName: 'Test',
          phone: '',
          email: `writer${i}@example.test`,
          message: `Question ${i}`,
        });
      }
    } finally {
      logs.restore();
    }
  });
  afterAll(() => app?.close());

  it('figures match the ones computed by hand', async () => {
    const overview = await services().overview.overview(admin);
    const [{ today }] = await db()
      .select({ today: sql<string>`to_char(now() at time zone 'UTC', 'YYYY-MM-DD')` })
      .from(orders)
      .limit(1);
    const threeDaysAgo = new Date(`${today}T00:00:00Z`);
    threeDaysAgo.setUTCDate(threeDaysAgo.getUTCDate() - 3);

    // Revenue per UTC day: 30 days, today last; $25 + $50 today, $20 three days ago, the $50 of day -40 outside.
    expect(overview.revenueByDay).toHaveLength(30);
    expect(overview.revenueByDay[29]).toEqual({ day: today, revenueCents: 7500, orders: 2 });
    expect(overview.revenueByDay[26]).toEqual({
      day: threeDaysAgo.toISOString().slice(0, 10),
      revenueCents: 2000,
      orders: 1,
    });
    expect(overview.revenueByDay.filter((d) => d.revenueCents > 0)).toHaveLength(2);
    expect(overview.revenueCents).toBe(9500);

    expect(overview.ordersByStatus).toEqual([
      { status: 'unpaid', count: 2 },
      { status: 'paid', count: 3 },
      { status: 'shipped', count: 1 },
      { status: 'expired', count: 1 },
      { status: 'awaiting_approval', count: 0 },
      { status: 'declined', count: 0 },
    ]);
    // Only the unpaid order still holding its stock counts (the due one is about to expire).
    expect({ units: overview.unitsReserved, orders: overview.unpaidOrders }).toEqual({ units: 4, orders: 1 });

    expect(overview.topParts).toEqual([
      { partId: expect.any(String), name: 'Part B', revenueCents: 5000, units: 5 },
      { partId: expect.any(String), name: 'Part A', revenueCents: 4500, units: 18 },
    ]);

    // Below twice the minimum order, the fewest orders' worth first: C (15 of 2 x 10), D (5 of 2 x 3); not E (8 = 2 x 4).
    expect(overview.lowStock.map((p) => [p.name, p.available, p.minOrder])).toEqual([
      ['Part C', 15, 10],
      ['Part D', 5, 3],
    ]);
    expect(overview.lowStockTotal).toBe(2);

    expect(overview.latestMessages.map((m) => m.message)).toEqual([
      'Question 6',
      'Question 5',
      'Question 4',
      'Question 3',
      'Question 2',
    ]);
  });

  it('is for admins only, and GraphQL gives money in dollars', async () => {
    await expectAppError(services().overview.overview(one), 'FORBIDDEN');
    const query =
      '{ adminOverview { revenueLast30Days revenueByDay { day revenue orders } topParts { name revenue units } unitsReserved ordersByStatus { status count } lowStockTotal computedAt } }';
    const refused = await app.gql(query, {}, customerUser.token);
    expect(refused.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const { data } = await app.gql<{
      adminOverview: {
        revenueLast30Days: number;
        revenueByDay: { revenue: number; orders: number }[];
        topParts: { name: string; revenue: number; units: number }[];
        ordersByStatus: { status: string; count: number }[];
        computedAt: string;
      };
    }>(query, {}, adminUser.token);
    expect(Math.abs(Date.parse(data?.adminOverview.computedAt ?? '') - Date.now())).toBeLessThan(60_000);
    expect(data?.adminOverview.revenueLast30Days).toBe(95);
    expect(data?.adminOverview.revenueByDay[29]).toMatchObject({ revenue: 75, orders: 2 });
    expect(data?.adminOverview.topParts[0]).toEqual({ name: 'Part B', revenue: 50, units: 5 });
    expect(data?.adminOverview.ordersByStatus[0]).toEqual({ status: 'UNPAID', count: 2 });
  });

  it('a deleted part’s paid orders stay in the top parts, on one line named after the orders', async () => {
    const logs = captureLogs();
    try {
      const gone = await addPartAs(app, admin, { name: 'Part Gone', price: 100, minOrder: 1, available: 10 });
      const order = await placeOrderAs(app, one, gone.id, { orderAmount: 2 }); // $200: the most sold now
      await pay(one, order.id);
      await services().parts.deletePart(admin, gone.id);
    } finally {
      logs.restore();
    }
    const overview = await services().overview.overview(admin);
    expect(overview.topParts[0]).toEqual({ partId: null, name: 'Part Gone', revenueCents: 20000, units: 2 });
    expect(overview.topParts.map((p) => p.name)).toEqual(['Part Gone', 'Part B', 'Part A']);
  });
});

/**
 * One computed overview answers every admin (issue 15): until its max age, while no write has been made through
 * any replica. Each caller's right is still checked on every request.
 */
describe.each(databaseKinds)('the admin overview reused (%s)', (kind) => {
  let app: TestApp;
  let admin: Actor;
  let customer: Actor;

  beforeAll(async () => {
    app = await startTestApp(kind, { overviewMaxAgeMs: 60_000 });
    const adminUser = await signUp(app, { admin: true });
    admin = await actorOf(app, adminUser);
    customer = await actorOf(app, await signUp(app));
  });
  afterAll(() => app?.close());

  const messages = (overview: { latestMessages: { message: string }[] }) =>
    overview.latestMessages.map((m) => m.message);
  const write = (message: string) =>
    app.server.services.contact.sendMessage({
      firstName: 'Reuse',
      lastName: 'Test',
      phone: '',
      email: 'reuse@example.test',
      message,
    });

  it('is computed once for the admins asking within its age, and afresh after it or a write', async () => {
    let generation = 1;
    let clock = 1_000_000;
    const service = createOverviewService(app.server.database.db, {
      maxAgeMs: 5_000,
      generation: () => generation,
      now: () => clock,
    });
    await write('first');
    // Asked at once: one computation, the same answer.
    const [a, b] = await Promise.all([service.overview(admin), service.overview(admin)]);
    expect(b).toBe(a);
    expect(messages(a)[0]).toBe('first');
    expect(a.computedAt).toBe(new Date(1_000_000).toISOString()); // the page's "Figures as of"

    // A message no request announced: not seen within the age; seen after it.
    await write('second');
    clock += 4_999;
    expect(await service.overview(admin)).toBe(a);
    await expectAppError(service.overview(customer), 'FORBIDDEN'); // the right, every time
    clock += 1;
    const c = await service.overview(admin);
    expect(messages(c)[0]).toBe('second');
    expect(c.computedAt).toBe(new Date(1_005_000).toISOString());

    // A write (this process's or a replica's) makes the next one afresh, at once.
    await write('third');
    generation = 2;
    const d = await service.overview(admin);
    expect(messages(d)[0]).toBe('third');
    expect(await service.overview(admin)).toBe(d);

    // One computed while a write changes something is not answered after that change.
    clock += 5_000;
    const during = service.overview(admin);
    generation = 3;
    const after = service.overview(admin);
    expect(await after).not.toBe(await during);
    expect(await service.overview(admin)).toBe(await after);
  });

  it('through the app: an order placed over GraphQL shows at once, a change made in SQL waits for the age', async () => {
    const adminUser = await signUp(app, { admin: true });
    const customerUser = await signUp(app);
    const part = await addPartAs(app, admin, { name: 'Reuse Part', price: 1, minOrder: 1, available: 50 });
    const query = '{ adminOverview { ordersByStatus { status count } latestMessages { message } } }';
    type Answer = { adminOverview: { ordersByStatus: { status: string; count: number }[] } };
    const unpaid = async () =>
      (await app.gql<Answer>(query, {}, adminUser.token)).data?.adminOverview.ordersByStatus.find(
        (s) => s.status === 'UNPAID',
      )?.count;

    const before = await unpaid();
    expect(before).toEqual(expect.any(Number));
    // Behind the app's back: the kept overview is answered.
    await app.server.database.db.insert(orders).values({
      partId: part.id,
      partName: part.name,
      userId: customer.userId,
      email: 'reuse@example.test',
      name: 'Reuse',
      phone: '01712345678',
      orderAmount: 1,
      unitPriceCents: 100,
      totalCents: 100,
      status: 'unpaid',
      expiresAt: sql`now() + interval '1 hour'`,
    });
    expect(await unpaid()).toBe(before);
    // A mutation through the app: the next overview is computed afresh (and counts both).
    const placed = await app.gql(
      'mutation ($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
      { input: { partId: part.id, name: 'Reuse', phone: '01712345678', orderAmount: 1 } },
      customerUser.token,
    );
    expect(placed.errors).toBeUndefined();
    expect(await unpaid()).toBe((before as number) + 2);
    // A customer is refused even while an overview is kept.
    const refused = await app.gql(query, {}, customerUser.token);
    expect(refused.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });
});
