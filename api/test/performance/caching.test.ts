import { randomBytes } from 'node:crypto';
import { get, type Server } from 'node:http';
import { sql } from 'drizzle-orm';
import express from 'express';
import { Client } from 'pg';
import { sendAnswer, type AnswerKeeper } from '../../src/http/apolloHandler';
import { createWriteTracker, publicAnswerCache, type WriteTracker } from '../../src/http/answerCache';
import { databaseKinds } from '../support/env';
import { startCountingApp, type CountingApp } from './countingApp';

/**
 * Caching of public answers (docs/decisions.md, "Caching and speed"): what is cached, for whom, and that a write made
 * by this process shows in the very next answer.
 */
jest.setTimeout(180_000);

const home = `query HomeData($partsLimit: Int, $reviewsLimit: Int) {
  popularParts(limit: $partsLimit) { id name price available }
  reviews(limit: $reviewsLimit) { id name text partName }
}`;
const homeVariables = { partsLimit: 6, reviewsLimit: 12 };
const publicHeader = 'public, max-age=0, s-maxage=10';

describe.each(databaseKinds)('caching of public answers on %s', (kind) => {
  let app: CountingApp;
  let customer = { id: '', email: '', token: '' };
  let admin = { id: '', email: '', token: '' };

  beforeAll(async () => {
    app = await startCountingApp(kind);
    const insert = async (role: 'admin' | 'customer') => {
      const email = `${role}-${randomBytes(4).toString('hex')}@cache.test`;
      const { rows } = (await app.db.execute(
        sql`insert into users (email, name, role) values (${email}, 'Cache Rider', ${role}) returning id`,
      )) as unknown as { rows: { id: string }[] };
      const user = { id: rows[0].id, email };
      return { ...user, token: await app.tokenFor(user) };
    };
    customer = await insert('customer');
    admin = await insert('admin');
  });
  afterAll(() => app?.close());

  const addPart = async (name: string, available = 100) => {
    const answer = await app.gql<{ addPart: { id: string } }>(
      'mutation($input: PartInput!) { addPart(input: $input) { id } }',
      { input: { name, description: 'A cached part.', price: 10, minOrder: 1, available } },
      { token: admin.token },
    );
    expect(answer.errors).toBeUndefined();
    return answer.data?.addPart.id as string;
  };
  const searchTotal = async (name: string) =>
    (await app.gql<{ parts: { total: number } }>('query($s: String) { parts(search: $s) { total } }', { s: name })).data
      ?.parts.total;

  it('anonymous public queries are public for shared caches, revalidated by browsers, then answered from memory', async () => {
    const id = await addPart(`Cached lever ${randomBytes(3).toString('hex')}`);
    const publicQueries: [string, Record<string, unknown>, string][] = [
      [home, homeVariables, publicHeader],
      [
        'query($s: String) { parts(search: $s, limit: 20) { items { id name price available } total offset limit } }',
        { s: 'lever' },
        publicHeader,
      ],
      [
        'query($id: ID!) { part(id: $id) { id name description image price minOrder available sold } }',
        { id },
        publicHeader,
      ],
      [
        '{ clientSettings { demoMode firebase { projectId } payments { mode } } }',
        {},
        'public, max-age=0, s-maxage=60',
      ],
    ];
    for (const [query, variables, header] of publicQueries) {
      const first = await app.gql(query, variables);
      app.statements();
      expect(first.errors).toBeUndefined();
      expect({ query, cacheControl: first.headers.get('cache-control') }).toEqual({ query, cacheControl: header });
      expect(first.headers.get('vary')).toMatch(/Authorization/);

      const second = await app.gql(query, variables);
      expect(second.data).toEqual(first.data);
      expect(second.headers.get('cache-control')).toBe(header);
      expect({ query, age: second.headers.get('age') }).toEqual({ query, age: expect.stringMatching(/^\d+$/) });
      expect({ query, statements: app.statements() }).toEqual({ query, statements: [] }); // no SQL at all
    }
  });

  it('public queries work over GET with the preflight header, with ETag revalidation; CSRF prevention stays on', async () => {
    const overGet = await app.gql(home, homeVariables, { method: 'GET' });
    expect(overGet.status).toBe(200);
    expect(overGet.headers.get('cache-control')).toBe(publicHeader);
    const etag = overGet.headers.get('etag') as string;
    expect(etag).toBeTruthy();

    const url = `${app.server.url}/graphql?${new URLSearchParams({ query: home, variables: JSON.stringify(homeVariables) })}`;
    // node:http, as a browser revalidates (fetch() would add `Cache-Control: no-cache` to a conditional request).
    const revalidated = await new Promise<number | undefined>((resolve, reject) =>
      get(url, { headers: { 'apollo-require-preflight': 'true', 'if-none-match': etag } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      }).on('error', reject),
    );
    expect(revalidated).toBe(304);

    // A GET without a header a browser could not send cross-site is refused, cached answer or not.
    const simple = await fetch(url);
    expect(simple.status).toBe(400);
    expect(simple.headers.get('cache-control')).not.toBe(publicHeader);
    const mutation = await fetch(
      `${app.server.url}/graphql?${new URLSearchParams({ query: 'mutation { deletePart(id: "x") }' })}`,
      { headers: { 'apollo-require-preflight': 'true' } },
    );
    expect(mutation.status).toBe(405);
  });

  it('a query string or body field Apollo never reads changes nothing: such requests are answered from memory', async () => {
    const query = 'query($s: String) { parts(search: $s) { total } }';
    const variables = { s: `busted ${randomBytes(3).toString('hex')}` };
    const post = (search: string, extra: Record<string, unknown> = {}) =>
      fetch(`${app.server.url}/graphql${search}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables, ...extra }),
      });
    const get = (params: Record<string, string>) =>
      fetch(`${app.server.url}/graphql?${new URLSearchParams(params)}`, {
        headers: { 'apollo-require-preflight': 'true' },
      });
    expect((await post('')).headers.get('age')).toBeNull();
    expect((await get({ query, variables: JSON.stringify(variables) })).headers.get('age')).toBeNull();
    app.statements();
    const busted = [
      await post('?x=1'),
      await post('?x=2', { x: 2 }),
      await post(`?_=${Date.now()}`, { utm_source: 'mail' }),
      await get({ _: String(Date.now()), variables: JSON.stringify(variables, null, 2), query }),
      await get({ query, variables: JSON.stringify(variables), x: '1' }),
    ];
    expect(busted.map((res) => res.headers.get('age'))).toEqual(busted.map(() => expect.stringMatching(/^\d+$/)));
    expect(app.statements()).toEqual([]);
  });

  it('public fields asked with a token, even a refused one, get the visitors’ answer from this process, no-store for others', async () => {
    const query = `query SignedInHome($partsLimit: Int, $reviewsLimit: Int) {
      popularParts(limit: $partsLimit) { id name price available }
      reviews(limit: $reviewsLimit) { id name text partName }
    }`;
    const kept = await app.gql(query, homeVariables, { token: customer.token });
    expect(kept.errors).toBeUndefined();
    expect(kept.headers.get('cache-control')).toBe('no-store');
    for (const token of [customer.token, admin.token, 'not-a-token', undefined]) {
      app.statements();
      const answer = await app.gql(query, homeVariables, { token });
      expect(answer.data).toEqual(kept.data);
      // Shared caches are told to keep nothing asked with credentials; a visitor gets the public header.
      expect({ token, cacheControl: answer.headers.get('cache-control') }).toEqual({
        token,
        cacheControl: token ? 'no-store' : publicHeader,
      });
      expect({ token, age: answer.headers.get('age') }).toEqual({ token, age: expect.stringMatching(/^\d+$/) });
      expect({ token, statements: app.statements() }).toEqual({ token, statements: [] });
    }
    // `Cache-Control: no-cache` asks afresh: the resolvers run.
    app.statements();
    const fresh = await app.gql(query, homeVariables, {
      token: customer.token,
      headers: { 'cache-control': 'no-cache' },
    });
    expect(fresh.data).toEqual(kept.data);
    expect(fresh.headers.get('age')).toBeNull();
    expect(app.statements().length).toBeGreaterThan(0);
  });

  it('an answer that needs the caller is never kept nor answered from the cache, whoever asks the same request', async () => {
    const query = '{ popularParts(limit: 2) { id } me { id email } myOrders(limit: 5) { total } }';
    for (const [who, other] of [
      [customer, admin],
      [admin, customer],
      [customer, admin],
    ]) {
      app.statements();
      const answer = await app.gql<{ me: { id: string; email: string } }>(query, {}, { token: who.token });
      expect(answer.errors).toBeUndefined();
      expect(answer.data?.me).toEqual({ id: who.id, email: who.email });
      expect(answer.data?.me.id).not.toBe(other.id);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('age')).toBeNull();
      expect(app.statements().length).toBeGreaterThan(0);
    }
    // Refused for a refused token, every time (the failure is never kept either).
    for (let i = 0; i < 2; i++) {
      const refused = await app.gql(query, {}, { token: 'not-a-token' });
      expect(refused.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(refused.headers.get('age')).toBeNull();
    }
  });

  it('private queries, mutations and answers with errors are no-store', async () => {
    const me = await app.gql('{ me { id } }', {}, { token: customer.token });
    expect(me.headers.get('cache-control')).toBe('no-store');
    const refused = await app.gql('{ me { id } }');
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const mixed = await app.gql('{ popularParts { id } me { id } }');
    expect(mixed.headers.get('cache-control')).toBe('no-store');
    for (let i = 0; i < 2; i++) {
      const bad = await app.gql('{ popularParts(limit: 1000) { id } }');
      expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(bad.headers.get('cache-control')).toBe('no-store');
      expect(bad.headers.get('age')).toBeNull();
    }
    const sent = await app.gql('mutation($input: ContactInput!) { sendContactMessage(input: $input) { id } }', {
      input: { firstName: 'Ada', lastName: 'Rider', email: 'ada@cache.test', message: 'Hello there' },
    });
    expect(sent.errors).toBeUndefined();
    expect(sent.headers.get('cache-control')).toBe('no-store');
  });

  it('a part added over GraphQL or REST, or deleted, shows in the very next anonymous answer', async () => {
    const name = `Fresh sprocket ${randomBytes(3).toString('hex')}`;
    expect(await searchTotal(name)).toBe(0);
    expect(await searchTotal(name)).toBe(0); // now cached
    const id = await addPart(name);
    expect(await searchTotal(name)).toBe(1);

    const rest = await fetch(`${app.server.url}/api/parts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
      body: JSON.stringify({
        name: `${name} kit`,
        description: 'Added over REST.',
        price: 3,
        minOrder: 1,
        available: 5,
      }),
    });
    expect(rest.status).toBe(200);
    expect(await searchTotal(name)).toBe(2);

    const deleted = await app.gql('mutation($id: ID!) { deletePart(id: $id) }', { id }, { token: admin.token });
    expect(deleted.errors).toBeUndefined();
    expect(await searchTotal(name)).toBe(1);
  });

  /** Counts the notices of a change the app sends the other replicas (on PostgreSQL; PGlite runs alone). */
  const noticesToReplicas = async () => {
    if (!app.databaseUrl) return { count: () => 0, close: async () => {} };
    const client = new Client({ connectionString: app.databaseUrl });
    await client.connect();
    let count = 0;
    client.on('notification', (notice) => {
      if (notice.channel === 'partsyard_public_answers') count++;
    });
    await client.query('LISTEN partsyard_public_answers');
    return { count: () => count, close: () => client.end() };
  };

  it('strangers cannot empty the cache: refused writes over GraphQL and REST drop no answer and tell no replica', async () => {
    const name = `Steady clutch ${randomBytes(3).toString('hex')}`;
    const partId = await addPart(`${name} cable`);
    // A paid order of the customer's: cancelling it is refused (409).
    const { rows } = (await app.db.execute(sql`
      insert into orders (user_id, email, name, phone, part_id, part_name, order_amount, unit_price_cents, total_cents,
                          status, transaction_id, paid_at)
      values (${customer.id}, ${customer.email}, 'Cache Rider', '01712345678', ${partId}, 'Cable', 1, 1000, 1000,
              'paid', ${`pi_test_${randomBytes(6).toString('hex')}`}, now())
      returning id`)) as unknown as { rows: { id: string }[] };
    const paidOrder = rows[0].id;
    const unknownId = '00000000-0000-4000-8000-000000000000';
    const notices = await noticesToReplicas();
    try {
      const rest = async (method: string, path: string, token?: string) =>
        (
          await fetch(`${app.server.url}/api${path}`, {
            method,
            headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
            body: method === 'DELETE' ? undefined : JSON.stringify({ name: '' }),
          })
        ).status;
      const code = async (mutation: string, token?: string) =>
        (await app.gql(mutation, {}, { token })).errors?.map((e) => e.extensions?.code).join();
      // Each round keeps the answer afresh, so that the rounds of a loaded machine never outlast its s-maxage.
      for (let i = 0; i < 5; i++) {
        expect(await searchTotal(name)).toBe(1);
        expect(await searchTotal(name)).toBe(1); // now kept
        expect([
          await code('mutation { cancelOrder(id: "x") }'),
          await code('mutation { deletePart(id: "x") }', 'not-a-token'),
          await code(`mutation { deletePart(id: "${partId}") }`, customer.token),
          await code(`mutation { cancelOrder(id: "${paidOrder}") }`, customer.token),
          await code(`mutation { a: deletePart(id: "${unknownId}") b: deletePart(id: "${unknownId}") }`, admin.token),
          await rest('DELETE', '/part/x'),
          await rest('DELETE', `/part/${partId}`, customer.token),
          await rest('DELETE', `/order/${paidOrder}`, customer.token),
          await rest('DELETE', `/part/${unknownId}`, admin.token),
          await rest('POST', '/parts', admin.token),
        ]).toEqual([
          'UNAUTHENTICATED',
          'UNAUTHENTICATED',
          'FORBIDDEN',
          'CONFLICT',
          'NOT_FOUND',
          401,
          403,
          409,
          404,
          400,
        ]);
        // Still answered from memory.
        app.statements();
        const kept = await app.gql('query($s: String) { parts(search: $s) { total } }', { s: name });
        expect(kept.headers.get('age')).toMatch(/^\d+$/);
        expect(app.statements()).toEqual([]);
      }
      // And no replica was told anything.
      await new Promise((resolve) => setTimeout(resolve, 200)); // a notice takes milliseconds
      expect(notices.count()).toBe(0);

      // A write that changed something drops it, and tells the replicas: here its first field did, though the
      // second was refused (and the answer holds no data at all).
      const mixed = await app.gql(
        `mutation { a: deletePart(id: "${partId}") b: deletePart(id: "${unknownId}") }`,
        {},
        { token: admin.token },
      );
      expect({ data: mixed.data, codes: mixed.errors?.map((e) => e.extensions?.code) }).toEqual({
        data: null,
        codes: ['NOT_FOUND'],
      });
      expect(await searchTotal(name)).toBe(0);
      const deadline = Date.now() + 2000;
      while (app.databaseUrl && notices.count() === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(notices.count()).toBe(app.databaseUrl ? 1 : 0);
    } finally {
      await notices.close();
    }
  });

  it('an order changes the stock an anonymous visitor sees at once, and so does its cancellation', async () => {
    const id = await addPart(`Stocked hub ${randomBytes(3).toString('hex')}`, 100);
    const available = async () =>
      (await app.gql<{ part: { available: number } }>('query($id: ID!) { part(id: $id) { available } }', { id })).data
        ?.part.available;
    expect(await available()).toBe(100);
    expect(await available()).toBe(100);
    const placed = await app.gql<{ placeOrder: { id: string } }>(
      'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
      { input: { partId: id, name: 'Cache Rider', phone: '01712345678', orderAmount: 10 } },
      { token: customer.token },
    );
    expect(placed.errors).toBeUndefined();
    expect(await available()).toBe(90);
    await app.gql(
      'mutation($id: ID!) { cancelOrder(id: $id) }',
      { id: placed.data?.placeOrder.id },
      { token: customer.token },
    );
    expect(await available()).toBe(100);
  });

  it('a new review shows on the home page at once', async () => {
    const partId = await addPart(`Reviewed mirror ${randomBytes(3).toString('hex')}`);
    // A paid order of the customer's, as the payment flow leaves it.
    await app.db.execute(sql`
      insert into orders (user_id, email, name, phone, part_id, part_name, order_amount, unit_price_cents, total_cents,
                          status, transaction_id, paid_at)
      values (${customer.id}, ${customer.email}, 'Cache Rider', '01712345678', ${partId}, 'Mirror', 1, 1000, 1000,
              'paid', ${`pi_test_${randomBytes(6).toString('hex')}`}, now())`);
    const latestText = async () =>
      (await app.gql<{ reviews: { text: string }[] }>('{ reviews(limit: 1) { text } }')).data?.reviews[0]?.text;
    await latestText();
    const before = await latestText(); // cached
    const text = `Clear and steady at speed (${randomBytes(3).toString('hex')}).`;
    expect(before).not.toBe(text);
    const added = await app.gql(
      'mutation($input: ReviewInput!) { addReview(input: $input) { id } }',
      { input: { partId, text } },
      { token: customer.token },
    );
    expect(added.errors).toBeUndefined();
    expect(await latestText()).toBe(text);
  });
});

/** The padding a test answer asks for: `pad` among the operation's variables, as Apollo reads them. */
const padOf = (req: express.Request) => {
  const variables: unknown =
    req.method === 'GET'
      ? JSON.parse(String(req.query.variables ?? '{}'))
      : (req.body as { variables?: unknown }).variables;
  return Number((variables as { pad?: unknown } | undefined)?.pad ?? 0);
};
/** A GET of an operation whose answer is padded to about `pad` bytes. */
const padded = (pad: number) =>
  `/graphql?${new URLSearchParams({ query: '{ padded }', variables: JSON.stringify({ pad }) })}`;

/** The in-memory shared cache and the write tracker on their own, with a clock the test moves. */
describe('publicAnswerCache', () => {
  let server: Server;
  let url = '';
  let writes: WriteTracker;
  let cache: ReturnType<typeof publicAnswerCache>;
  let clock = 0;
  let answered = 0;
  /** What the next answers say about themselves. */
  let cacheControl = 'public, max-age=0, s-maxage=10';
  /** Holds the answer until released (a slow read). */
  let hold: Promise<void> | null = null;

  beforeEach(async () => {
    writes = createWriteTracker();
    clock = 1_000_000;
    answered = 0;
    cacheControl = 'public, max-age=0, s-maxage=10';
    hold = null;
    const app = express();
    app.use(express.json());
    cache = publicAnswerCache(writes, { now: () => clock, maxBytes: 4_500 });
    app.use(cache);
    app.use(async (req, res) => {
      const n = ++answered;
      if (hold) await hold;
      res.setHeader('Cache-Control', cacheControl);
      // As the GraphQL handler does (http/apolloHandler.ts): the answer written, then offered to the cache.
      const body = JSON.stringify({ n, pad: 'x'.repeat(padOf(req)) });
      sendAnswer(req, res.type('application/json'), body);
      (res.locals as AnswerKeeper).keepAnswer?.(body);
    });
    await new Promise<void>((resolve) => {
      server = app.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const ask = async (path = '/graphql', init: RequestInit = {}) => {
    const res = await fetch(`${url}${path}`, init);
    return { n: ((await res.json()) as { n: number }).n, age: res.headers.get('age'), res };
  };
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    ask('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('answers the same request from memory until its s-maxage has passed', async () => {
    expect((await ask()).n).toBe(1);
    clock += 9_999;
    const cached = await ask();
    expect(cached).toMatchObject({ n: 1, age: '9' });
    expect(cached.res.headers.get('cache-control')).toBe(cacheControl);
    clock += 1;
    expect((await ask()).n).toBe(2);
  });

  it('once expired, one request fetches the answer again while the others get the expired one', async () => {
    expect((await ask()).n).toBe(1);
    clock += 10_000;
    let release = () => {};
    hold = new Promise<void>((resolve) => (release = resolve));
    const refreshing = ask();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Meanwhile: the expired answer at once, with its age, and no second run of the query.
    const meanwhile = await Promise.race([
      Promise.all([ask(), ask()]),
      new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 2_000)),
    ]);
    expect(meanwhile).toMatchObject([
      { n: 1, age: '10' },
      { n: 1, age: '10' },
    ]);
    expect(answered).toBe(2);
    hold = null;
    release();
    expect((await refreshing).n).toBe(2);
    expect(await ask()).toMatchObject({ n: 2, age: '0' });
  });

  it('an expired answer is not given past one more s-maxage, nor once its refresh has failed', async () => {
    expect((await ask()).n).toBe(1);
    clock += 20_000; // twice the s-maxage: too old even while refreshed
    let release = () => {};
    hold = new Promise<void>((resolve) => (release = resolve));
    const first = ask();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = ask();
    await new Promise((resolve) => setTimeout(resolve, 50));
    hold = null;
    release();
    expect([(await first).n, (await second).n].sort()).toEqual([2, 3]);

    clock += 10_000; // answer 2 or 3 has expired; its refresh answers something not to keep
    cacheControl = 'no-store';
    expect((await ask()).n).toBe(4);
    cacheControl = 'public, max-age=0, s-maxage=10';
    expect((await ask()).n).toBe(5); // the next request refreshes again
    expect((await ask()).n).toBe(5);
  });

  it('tells requests apart by method, operation and the headers an answer depends on', async () => {
    expect((await post({ query: 'a' })).n).toBe(1);
    expect((await post({ query: 'b' })).n).toBe(2);
    expect((await post({ query: 'a' }, { accept: 'application/graphql-response+json' })).n).toBe(3);
    expect((await post({ query: 'a' }, { 'apollo-require-preflight': 'true' })).n).toBe(4);
    expect((await ask('/graphql?query=a')).n).toBe(5);
    expect((await post({ query: 'a' })).n).toBe(1);
  });

  it('keeps nothing that is not public, not a 200, asked with a token (unless GraphQL shares it) or batched', async () => {
    cacheControl = 'no-store';
    await ask();
    expect((await ask()).n).toBe(2);
    cacheControl = 'public, max-age=0, s-maxage=10';
    await ask('/graphql', { headers: { authorization: 'Bearer x' } });
    expect((await ask('/graphql', { headers: { authorization: 'Bearer x' } })).n).toBe(4);
    await post([{ query: 'a' }]);
    expect((await post([{ query: 'a' }])).n).toBe(6);
  });

  it('a change drops every answer, this process’s or a replica’s', async () => {
    await ask();
    expect((await ask()).n).toBe(1);
    writes.changed();
    expect((await ask()).n).toBe(2);
    expect((await ask()).n).toBe(2);
    writes.invalidate(); // a replica's change
    expect((await ask()).n).toBe(3);
  });

  it('an answer read while a write changed something is not kept', async () => {
    let release = () => {};
    hold = new Promise<void>((resolve) => (release = resolve));
    const slow = ask();
    while (answered === 0) await new Promise((resolve) => setTimeout(resolve, 5)); // the read has begun
    writes.changed(); // between the read's start and its answer
    hold = null;
    release();
    expect((await slow).n).toBe(1);
    expect((await ask()).n).toBe(2);
    expect((await ask()).n).toBe(2);
  });

  it('sends a kept answer gzipped to a client that accepts it', async () => {
    const path = padded(1200);
    const first = await ask(path, { headers: { 'accept-encoding': 'gzip' } });
    const second = await ask(path, { headers: { 'accept-encoding': 'gzip' } });
    expect(second).toMatchObject({ n: first.n, age: '0' });
    expect(second.res.headers.get('content-encoding')).toBe('gzip');
    const plain = await ask(path, { headers: { 'accept-encoding': 'identity' } });
    expect(plain).toMatchObject({ n: first.n, age: '0' });
    expect(plain.res.headers.get('content-encoding')).toBeNull();
  });

  it('is bounded: the least recently used answers go first', async () => {
    // About 1,300 bytes each (600 of body; an answer's own cost and its headers'): three fit in 4,500.
    for (const pad of [600, 601, 602]) await ask(padded(pad));
    expect(cache.kept().answers).toBe(3);
    await ask(padded(600)); // used again: now the most recent
    await ask(padded(603)); // pushes out 601, the least recently used
    expect((await ask(padded(600))).n).toBe(1);
    expect((await ask(padded(601))).n).toBe(5);
    expect(cache.kept().bytes).toBeLessThanOrEqual(4_500);
  });
});

describe('createWriteTracker', () => {
  it('each change of this process moves the generation and is announced; a replica’s moves it, unannounced', () => {
    let announced = 0;
    const writes = createWriteTracker(() => announced++);
    const g = writes.generation();
    expect(writes.isCurrent(g)).toBe(true);
    writes.changed();
    expect(announced).toBe(1);
    expect(writes.isCurrent(g)).toBe(false);
    const after = writes.generation();
    expect(after).not.toBe(g);
    expect(writes.isCurrent(after)).toBe(true);
    writes.invalidate();
    expect(writes.isCurrent(after)).toBe(false);
    expect(announced).toBe(1);
  });
});
