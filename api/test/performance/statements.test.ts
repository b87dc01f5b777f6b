import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { databaseKinds } from '../support/env';
import { grow, startCountingApp, type CountingApp } from './countingApp';

/**
 * No N+1: the SQL statements a GraphQL request costs do not depend on how many rows the lists hold. Each list
 * query is asked on full pages, then again after ten times as many rows were added: the same statements,
 * and at most three (the caller, the page, its total).
 */
jest.setTimeout(180_000);

const partFields = 'id name description image price minOrder available sold';
const orderFields =
  'id name email phone address partId partName partImage orderAmount unitPrice price paid status transactionId createdAt paidAt shippedAt';

interface Case {
  name: string;
  query: string;
  variables?: Record<string, unknown>;
  as: 'customer' | 'admin';
}

const cases: Case[] = [
  {
    name: 'home: popular parts and reviews',
    query: `query($partsLimit: Int, $reviewsLimit: Int) {
      popularParts(limit: $partsLimit) { ${partFields} }
      reviews(limit: $reviewsLimit) { id name email avatar text partId partName partImage createdAt }
    }`,
    variables: { partsLimit: 6, reviewsLimit: 12 },
    as: 'customer',
  },
  {
    name: 'catalog: newest parts',
    query: `{ parts(limit: 20) { items { ${partFields} } total offset limit } }`,
    as: 'customer',
  },
  {
    name: 'catalog: a search',
    query: `{ parts(search: "grip", limit: 20) { items { ${partFields} } total } }`,
    as: 'customer',
  },
  { name: 'my orders', query: `{ myOrders(limit: 50) { items { ${orderFields} } total } }`, as: 'customer' },
  {
    name: 'my payments',
    query: '{ myPayments { id orderId partId partName email amount createdAt } }',
    as: 'customer',
  },
  { name: 'all orders (admin)', query: `{ orders(limit: 50) { items { ${orderFields} } total } }`, as: 'admin' },
  {
    name: 'paid orders (admin)',
    query: `{ orders(status: PAID, limit: 50) { items { ${orderFields} } total } }`,
    as: 'admin',
  },
  {
    name: 'users (admin)',
    query: '{ users(limit: 50) { items { id email name avatar role isAdmin createdAt } total } }',
    as: 'admin',
  },
  {
    name: 'contact messages (admin)',
    query: '{ contactMessages(limit: 50) { items { id firstName lastName email message createdAt } total } }',
    as: 'admin',
  },
];

describe.each(databaseKinds)('SQL statements per GraphQL request on %s', (kind) => {
  let app: CountingApp;
  const tokens = { customer: '', admin: '' };
  let customerId = '';

  /** Adds `n` parts, users, orders and payments of the customer, reviews and contact messages. */
  async function addRows(n: number): Promise<void> {
    const tag = randomBytes(3).toString('hex');
    await grow(
      app.db,
      sql`insert into parts (name, description, price_cents, min_order, available, sold)
          select 'Throttle grip ' || ${tag} || ' ' || g, 'A part.', 100 + g, 1, 1000, g from generate_series(1, ${n}) g`,
      sql`insert into users (email, name) select 'rider-' || ${tag} || '-' || g || '@rows.test', 'Rider'
          from generate_series(1, ${n}) g`,
      sql`insert into orders (user_id, email, name, phone, part_id, part_name, order_amount, unit_price_cents,
                              total_cents, status, transaction_id)
          select u.id, u.email, 'Rider', '01712345678', p.id, p.name, 1, 100, 100,
                 case when g % 2 = 0 then 'paid' else 'unpaid' end,
                 case when g % 2 = 0 then 'tx_' || ${tag} || '_' || g end
          from generate_series(1, ${n}) g
          cross join (select id, email from users where id = ${customerId}) u
          join (select id, name, row_number() over (order by id) as n from parts
                where name like ${`Throttle grip ${tag} %`}) p on p.n = g`,
      sql`insert into payments (order_id, user_id, email, part_id, part_name, transaction_id, amount_cents, gateway)
          select id, user_id, email, part_id, part_name, transaction_id, total_cents, 'test' from orders
          where transaction_id like ${`tx_${tag}_%`}`,
      sql`insert into reviews (user_id, part_id, name, email, text, part_name)
          select null, id, 'Rider', 'rider@rows.test', 'Good.', name from parts where name like ${`Throttle grip ${tag} %`}`,
      sql`insert into contact_messages (first_name, last_name, email, message)
          select 'Ada', 'Rider', 'ada@rows.test', 'Hello ' || g from generate_series(1, ${n}) g`,
    );
  }

  /** The statements one request costs (it must succeed), sorted: fields resolve concurrently. */
  async function statementsOf({ query, variables, as }: Case): Promise<string[]> {
    app.statements();
    // no-cache: public fields asked with a token may be answered from the answer cache; here the resolvers run.
    const answer = await app.gql(query, variables, { token: tokens[as], headers: { 'cache-control': 'no-cache' } });
    expect(answer.errors).toBeUndefined();
    return app.statements().sort();
  }

  beforeAll(async () => {
    app = await startCountingApp(kind);
    const insert = async (email: string, role: 'admin' | 'customer') => {
      const { rows } = (await app.db.execute(
        sql`insert into users (email, name, role) values (${email}, 'Rows', ${role}) returning id`,
      )) as unknown as { rows: { id: string }[] };
      return { id: rows[0].id, email };
    };
    const customer = await insert('customer@rows.test', 'customer');
    customerId = customer.id;
    tokens.customer = await app.tokenFor(customer);
    tokens.admin = await app.tokenFor(await insert('admin@rows.test', 'admin'));
    await addRows(120); // every page asked for is full (paid orders: half of them)
  });
  afterAll(() => app?.close());

  it('stay the same when the lists grow tenfold, and are at most three', async () => {
    const before = new Map<string, string[]>();
    for (const c of cases) before.set(c.name, await statementsOf(c));
    await addRows(1200);
    for (const c of cases) {
      const after = await statementsOf(c);
      expect({ name: c.name, statements: after }).toEqual({ name: c.name, statements: before.get(c.name) });
      expect({ name: c.name, count: after.length <= 3 }).toEqual({ name: c.name, count: true });
    }
  });

  it("a catalog page and its total are one statement, the last page's too; a page past the end is counted apart", async () => {
    for (const c of [cases[1], cases[2]])
      expect({ name: c.name, n: (await statementsOf(c)).length }).toEqual({ name: c.name, n: 1 });
    const lastPage = await statementsOf({
      name: 'the last page of a search',
      query: '{ parts(search: "grip", offset: 1310, limit: 20) { items { id } total } }',
      as: 'customer',
    });
    expect(lastPage).toHaveLength(1);
    const answer = await app.gql<{ parts: { total: number; items: unknown[] } }>(
      '{ parts(search: "grip", offset: 1310, limit: 20) { items { id } total } }',
      {},
      { token: tokens.customer, headers: { 'cache-control': 'no-cache' } },
    );
    expect(answer.data?.parts).toEqual({ items: expect.any(Array), total: 1320 });
    expect(answer.data?.parts.items).toHaveLength(10);

    // Past the end: no row carries the total, so it is counted on its own (still exact).
    for (const search of ['grip', '']) {
      const pastEnd = `{ parts(search: "${search}", offset: 5000, limit: 20) { items { id } total } }`;
      expect(await statementsOf({ name: 'past the end', query: pastEnd, as: 'customer' })).toHaveLength(2);
      const empty = await app.gql<{ parts: { total: number; items: unknown[] } }>(
        pastEnd,
        {},
        { token: tokens.customer, headers: { 'cache-control': 'no-cache' } },
      );
      const { rows } = (await app.db.execute(
        sql`select count(*)::int as n from parts where ${search ? sql`name ilike ${`%${search}%`}` : sql`true`}`,
      )) as unknown as { rows: { n: number }[] };
      expect(rows[0].n).toBeGreaterThan(1300);
      expect(empty.data?.parts).toEqual({ items: [], total: rows[0].n });
    }
  });

  it('a signed-in request of public fields alone does not look its caller up; one that needs a caller does, once', async () => {
    const callerLookups = (statements: string[]) => statements.filter((s) => /from "users"/.test(s));
    const home = cases[0];
    expect(callerLookups(await statementsOf(home))).toEqual([]);
    expect(callerLookups(await statementsOf(cases[1]))).toEqual([]);
    // Public fields next to one that needs the caller: the caller is looked up once.
    const mixed = await statementsOf({
      name: 'home and my orders',
      query: '{ popularParts(limit: 6) { id } reviews(limit: 3) { id } myOrders(limit: 5) { items { id } } }',
      as: 'customer',
    });
    expect(callerLookups(mixed)).toHaveLength(1);
    expect(callerLookups(await statementsOf(cases.find((c) => c.name === 'my orders')!))).toHaveLength(1);
  });

  it('an empty page read with its caller: counted apart only past the end, and nothing to count for no orders', async () => {
    const query = '{ myOrders(offset: 100000, limit: 5) { items { id } total } }';
    const past = await statementsOf({ name: 'my orders past the end', query, as: 'customer' });
    expect(past).toHaveLength(2); // the page with its caller, then the count
    const answer = await app.gql<{ myOrders: { items: unknown[]; total: number } }>(
      query,
      {},
      { token: tokens.customer },
    );
    expect(answer.data?.myOrders.items).toEqual([]);
    expect(answer.data?.myOrders.total).toBeGreaterThan(100);

    const { rows } = (await app.db.execute(
      sql`insert into users (email, name, role) values ('new@rows.test', 'New', 'customer') returning id`,
    )) as unknown as { rows: { id: string }[] };
    const newcomer = await app.tokenFor({ id: rows[0].id });
    app.statements();
    const none = await app.gql('{ myOrders(limit: 5) { items { id } total } }', {}, { token: newcomer });
    expect(none.data).toEqual({ myOrders: { items: [], total: 0 } });
    expect(app.statements()).toHaveLength(1);
  });

  it('My Orders and All Orders read their caller in the page’s statement: one statement, with the lookup in it', async () => {
    for (const name of ['my orders', 'all orders (admin)', 'paid orders (admin)']) {
      const statements = await statementsOf(cases.find((c) => c.name === name)!);
      // Full pages (their totals: counted with the page, or kept with the writes), the caller joined to them.
      expect({ name, statements: statements.length }).toEqual({ name, statements: 1 });
      expect(statements[0]).toMatch(
        /^select "users"\."id", "users"\."email", "users"\."role", .* from "users" left join/,
      );
      expect(statements[0]).toMatch(/where \("users"\."id" = \$\d+ and "users"\."firebase_uid" = \$\d+\)$/);
    }
    // Asked beside a field that needs the caller looked up first, the lists take the caller read then.
    const beside = await statementsOf({
      name: 'my orders and my profile',
      query: '{ me { id } myOrders(limit: 5) { items { id } total } }',
      as: 'customer',
    });
    expect(beside.filter((s) => /from "users" left join/.test(s))).toEqual([]);
    expect(beside.filter((s) => /^select .* from "users"/.test(s)).length).toBeGreaterThanOrEqual(1);
  });

  it('an order placed alone reads its caller with the part: a refusal is one statement, a sale has no lookup of its own', async () => {
    const { rows } = (await app.db.execute(
      sql`insert into parts (name, description, price_cents, min_order, available, sold)
          values ('Chain guide', 'A part.', 500, 2, 3, 0) returning id`,
    )) as unknown as { rows: { id: string }[] };
    const partId = rows[0].id;
    const place = async (orderAmount: number) => {
      app.statements();
      const answer = await app.gql(
        'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
        { input: { partId, name: 'Rider', phone: '01712345678', orderAmount, address: 'Road 5' } },
        { token: tokens.customer },
      );
      return { answer, statements: app.statements() };
    };
    const joined = /^select "users"\."id", "users"\."email", "users"\."role", .* from "users" left join "parts"/;
    // Refused (below the part's minimum): the caller and the part in one statement, and nothing else.
    const refused = await place(1);
    expect(refused.answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(refused.statements).toHaveLength(1);
    expect(refused.statements[0]).toMatch(joined);
    // Placed: that statement, then the transaction, and no other read of the caller.
    const placed = await place(2);
    expect(placed.answer.errors).toBeUndefined();
    expect(placed.statements[0]).toMatch(joined);
    expect(placed.statements.filter((s) => /^select .* from "users" where/.test(s))).toHaveLength(1); // the hold
    expect(placed.statements.filter((s) => /for no key update$/.test(s))).toHaveLength(1);
    // Sold out now (1 left, 2 at least): one statement again.
    const soldOut = await place(2);
    expect(soldOut.answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(soldOut.statements).toHaveLength(1);
  });
});
