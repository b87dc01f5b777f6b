import { sql } from 'drizzle-orm';
import { databaseKinds } from './support/env';
import { addPart, payOrder, placeOrder } from './support/fixtures';
import { generousOrderLimits, startTestApp, type TestApp, type TestUser } from './support/testApp';

/**
 * All Orders' totals come from `order_counts`, kept by triggers (migration 0010). Whatever writes orders
 * (placing, at once and concurrently, a checkout, paying, shipping, expiring, cancelling, deleting an account,
 * an operator's own SQL, a truncate), the kept counts equal a count of the rows, and the API's totals say so.
 */
jest.setTimeout(180_000);

type Counts = Record<string, number>;

describe.each(databaseKinds)('kept order counts on %s', (kind) => {
  let app: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    app = await startTestApp(kind, { orders: { ...generousOrderLimits, unpaidPerCustomer: 1000 } });
    admin = await app.signUp({ admin: true });
  });
  afterAll(() => app?.close());

  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await app.server.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const counted = async (): Promise<Counts> =>
    Object.fromEntries(
      (
        await rows<{ status: string; n: number }>(sql`select status, count(*)::int as n from orders group by status`)
      ).map((r) => [r.status, r.n]),
    );
  const kept = async (): Promise<Counts> =>
    Object.fromEntries(
      (
        await rows<{ status: string; n: number }>(
          sql`select status, sum(orders)::int as n from order_counts group by status having sum(orders) <> 0`,
        )
      ).map((r) => [r.status, r.n]),
    );
  /** The API's totals: every status and all. */
  const totals = async (): Promise<Counts> => {
    const answer = await app.gql<Record<string, { total: number }>>(
      `{ all: orders(limit: 1) { total } unpaid: orders(status: UNPAID, limit: 1) { total }
         paid: orders(status: PAID, limit: 1) { total } shipped: orders(status: SHIPPED, limit: 1) { total }
         expired: orders(status: EXPIRED, limit: 1) { total } }`,
      {},
      admin.token,
    );
    expect(answer.errors).toBeUndefined();
    return Object.fromEntries(Object.entries(answer.data ?? {}).map(([k, v]) => [k, v.total]));
  };
  const expectAgree = async () => {
    const real = await counted();
    expect(await kept()).toEqual(real);
    const all = Object.values(real).reduce((a, b) => a + b, 0);
    expect(await totals()).toEqual({
      all,
      unpaid: real.unpaid ?? 0,
      paid: real.paid ?? 0,
      shipped: real.shipped ?? 0,
      expired: real.expired ?? 0,
    });
  };

  it('agree with a count of the orders after every kind of write', async () => {
    await expectAgree();
    const partId = await addPart(app, admin.token, { available: 100_000, minOrder: 1, price: 3 });
    const customers = await Promise.all([1, 2, 3, 4].map(() => app.signUp()));

    // Concurrent placing (each customer's own transactions on their own connections), then paying some.
    const placed = await Promise.all(
      customers.flatMap((c) => [1, 2, 3, 4, 5].map(() => placeOrder(app, c.token, partId, { orderAmount: 2 }))),
    );
    await expectAgree();
    await Promise.all(placed.slice(0, 8).map((o, i) => payOrder(app, customers[Math.floor(i / 5)].token, o.id)));
    await expectAgree();

    // A checkout: one statement inserts every line.
    const buyer = customers[3];
    await app.gql(
      'mutation($p: ID!) { addToCart(partId: $p, amount: 3) { lines { amount } } }',
      { p: partId },
      buyer.token,
    );
    const checkout = await app.gql<{ checkout: { orders: { id: string }[] } }>(
      'mutation($i: CheckoutInput!) { checkout(input: $i) { orders { id } } }',
      { i: { name: 'Buyer', phone: '01712345678', address: 'Dhaka' } },
      buyer.token,
    );
    expect(checkout.errors).toBeUndefined();
    await expectAgree();

    // Shipping, cancelling (a delete), expiring (an update of many rows), an account deleted (its unpaid orders go).
    await app.gql('mutation($id: ID!) { markOrderShipped(id: $id) { id } }', { id: placed[0].id }, admin.token);
    await app.gql('mutation($id: ID!) { cancelOrder(id: $id) }', { id: placed[10].id }, customers[2].token);
    await expectAgree();
    await rows(
      sql`update orders set expires_at = now() - interval '1 second' where status = 'unpaid' and id = ${placed[11].id}`,
    );
    await app.server.services.orders.expireDueOrders();
    await expectAgree();
    await app.gql('mutation($id: ID!) { deleteUser(id: $id) }', { id: customers[1].userId }, admin.token);
    await expectAgree();

    // An operator's own SQL, many rows in one statement, and a status moved by hand.
    await rows(sql`insert into orders (email, name, phone, part_id, part_name, order_amount, unit_price_cents, total_cents, status, transaction_id)
                   select 'ops@rows.test', 'Ops', '01712345678', ${partId}, 'Part', 1, 300, 300, 'shipped', 'ops_tx_' || g
                   from generate_series(1, 250) g`);
    await rows(sql`update orders set status = 'paid' where email = 'ops@rows.test' and random() < 0.5`);
    await expectAgree();
    await rows(sql`delete from orders where email = 'ops@rows.test' and status = 'paid'`);
    await expectAgree();

    await rows(sql`truncate orders cascade`);
    expect(await kept()).toEqual({});
    await expectAgree();
  });
});
