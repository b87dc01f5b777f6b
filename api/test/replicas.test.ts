import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { testEnv } from './support/env';
import { createTestDatabase } from './support/postgres';
import { emulatorSignUp, emulatorVerifyEmail, uniqueEmail } from './support/testApp';
import { freePort } from './support/ports';
import { followOutput } from './support/runLog';

/**
 * Stateless replicas: two app processes (`node --import tsx api/src/main.ts`, as the image runs it) on ONE
 * PostgreSQL database and one JWT secret, as behind a load balancer. Nothing a request needs is kept in a
 * process: a token from one is honoured by the other, and an order placed on one is paid on the other; a rate
 * limit is counted across both (rate-limiter-flexible's PostgreSQL store, or Redis with REDIS_URL), and a part
 * added on one shows on the other at once, though the other had the answer cached (LISTEN/NOTIFY, or Redis
 * pub/sub); so does an order in the admin overview the other keeps. A write refused on one drops nothing on either.
 */

const describeOnPostgres = testEnv.postgresUrl ? describe : describe.skip;
const title = testEnv.postgresUrl
  ? 'two replicas on one PostgreSQL database'
  : 'two replicas on one PostgreSQL database (SKIPPED: set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test; .ci/run does)';

const root = path.resolve(__dirname, '..', '..');

interface Replica {
  url: string;
  process: ChildProcess;
}

async function startReplica(env: Record<string, string>): Promise<Replica> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'api', 'src', 'main.ts')], {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  // Its log lines join the run's, which the run's end scans for personal data and secrets.
  followOutput(child, (text) => (stderr += text), { stderrOnly: true });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`replica exited: ${stderr}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { url, process: child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`replica did not start: ${stderr}`);
}

async function stopReplica(replica: Replica | undefined): Promise<void> {
  if (!replica || replica.process.exitCode !== null) return;
  const exited = new Promise((resolve) => replica.process.once('exit', resolve));
  replica.process.kill('SIGTERM');
  await exited;
}

async function gql<T>(server: Replica, query: string, variables: Record<string, unknown>, token?: string) {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: { message: string }[] };
  if (!body.data) throw new Error(`${query}: ${JSON.stringify(body.errors)}`);
  return body.data;
}

/** Redis answers on these machines (ENVIRONMENT.md); the Redis variant uses a key prefix of its own. */
const redisUrl = 'redis://127.0.0.1:6379';
const variants: [string, Record<string, string>][] = [
  ['PostgreSQL', {}],
  ['Redis (REDIS_URL)', { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `partsyard-test-${randomBytes(4).toString('hex')}` }],
];

describeOnPostgres.each(variants)(`${title}, sharing through %s`, (_store, extra) => {
  let a: Replica;
  let b: Replica;
  let drop: () => Promise<void>;
  let databaseUrl: string;
  const adminEmail = uniqueEmail('admin');
  const cacheAdminEmail = uniqueEmail('admin-cache');
  const overviewAdminEmail = uniqueEmail('admin-overview');

  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    databaseUrl = database.url;
    const shared = {
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '5',
      JWT_SECRET: randomBytes(32).toString('hex'),
      FIREBASE_PROJECT_ID: testEnv.firebaseProjectId,
      FIREBASE_AUTH_EMULATOR_HOST: testEnv.authEmulatorHost,
      ALLOW_AUTH_EMULATOR: 'true',
      FIREBASE_API_KEY: 'demo-api-key',
      ADMIN_EMAILS: `${adminEmail},${cacheAdminEmail},${overviewAdminEmail}`,
      SEED_DEMO: 'false',
      LOG_REQUESTS: 'false',
      // One rule small enough to reach: contact messages per address.
      RATE_LIMIT_CONTACT_PER_ADDRESS: '3/1h',
      // Long enough that only a write's notice can make B compute the overview again within the test.
      OVERVIEW_MAX_AGE: '60',
      ...extra,
    };
    // One after the other: the second start finds the migrations applied by the first.
    a = await startReplica(shared);
    b = await startReplica(shared);
  });
  afterAll(async () => {
    await stopReplica(a);
    await stopReplica(b);
    await drop?.();
    if (extra.REDIS_URL) {
      // This run's keys (the rate limit counters) go.
      const redis = new Redis(extra.REDIS_URL);
      const keys = await redis.keys(`${extra.REDIS_KEY_PREFIX}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
  });

  const signInOn = async (server: Replica, email: string) => {
    await emulatorSignUp(email, 'Secret#123', 'Replica Rider');
    // Verified, as an ADMIN_EMAILS address must be to be admin.
    const idToken = await emulatorVerifyEmail(email, 'Secret#123');
    const { signIn } = await gql<{ signIn: { token: string; user: { id: string } } }>(
      server,
      'mutation($idToken: String!) { signIn(idToken: $idToken) { token user { id } } }',
      { idToken },
    );
    return signIn;
  };

  it('a user signed in on A places an order on B, pays on A, and B reads the order paid', async () => {
    // An admin (ADMIN_EMAILS, signed in on B) adds a part on A.
    const admin = await signInOn(b, adminEmail);
    const { addPart } = await gql<{ addPart: { id: string } }>(
      a,
      'mutation($input: PartInput!) { addPart(input: $input) { id } }',
      {
        input: {
          name: 'Replica chain kit',
          description: 'A chain and sprocket kit, stocked once and sold from any replica.',
          price: 30,
          minOrder: 2,
          available: 10,
        },
      },
      admin.token,
    );

    const customer = await signInOn(a, uniqueEmail('customer'));
    const { placeOrder } = await gql<{ placeOrder: { id: string; price: number } }>(
      b,
      'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id price } }',
      { input: { partId: addPart.id, name: 'Replica Rider', phone: '01712345678', orderAmount: 3 } },
      customer.token,
    );
    expect(placeOrder.price).toBe(90);

    // The payment intent is created on B, the card paid and the payment confirmed on A.
    const { createPaymentIntent } = await gql<{ createPaymentIntent: { id: string; amount: number } }>(
      b,
      'mutation($orderId: ID!) { createPaymentIntent(orderId: $orderId) { id amount } }',
      { orderId: placeOrder.id },
      customer.token,
    );
    expect(createPaymentIntent.amount).toBe(90);
    const { payWithTestCard } = await gql<{ payWithTestCard: { succeeded: boolean } }>(
      a,
      'mutation($id: ID!, $card: TestCardInput!) { payWithTestCard(paymentIntentId: $id, card: $card) { succeeded } }',
      { id: createPaymentIntent.id, card: { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2040, cvc: '123' } },
      customer.token,
    );
    expect(payWithTestCard.succeeded).toBe(true);
    await gql(
      a,
      'mutation($orderId: ID!, $intentId: ID!) { confirmPayment(orderId: $orderId, paymentIntentId: $intentId) { status } }',
      { orderId: placeOrder.id, intentId: createPaymentIntent.id },
      customer.token,
    );

    const { order } = await gql<{ order: { status: string; paid: boolean; transactionId: string } }>(
      b,
      'query($id: ID!) { order(id: $id) { status paid transactionId } }',
      { id: placeOrder.id },
      customer.token,
    );
    expect(order).toEqual({ status: 'PAID', paid: true, transactionId: createPaymentIntent.id });
    // And the stock both replicas see is the one database's.
    const { part } = await gql<{ part: { available: number } }>(a, 'query($id: ID!) { part(id: $id) { available } }', {
      id: addPart.id,
    });
    expect(part.available).toBe(7);
  });

  it('one rate limit is counted across both replicas: 3 messages per address in all, not 3 on each', async () => {
    // Counted per client address: X-Forwarded-For is trusted from loopback, as from a local proxy.
    const address = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
    const send = (server: Replica, i: number) =>
      fetch(`${server.url}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ firstName: 'Rahim', lastName: 'Uddin', email: 'r@example.test', message: `No ${i}` }),
      });
    const statuses = [];
    for (const [i, server] of [a, b, a, b].entries()) statuses.push((await send(server, i)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await send(a, 5);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: 'Too many messages sent from your network. Try again in 1 hour.' });
    // Counted where both replicas see it.
    if (extra.REDIS_URL) {
      const redis = new Redis(extra.REDIS_URL);
      expect(await redis.get(`${extra.REDIS_KEY_PREFIX}:rl:contact_address:${address}`)).toBe('3');
      redis.disconnect();
    } else {
      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      const { rows } = await client.query('select points from rate_limits where key = $1', [
        `contact_address:${address}`,
      ]);
      await client.end();
      expect(rows).toEqual([{ points: 3 }]);
    }
  });

  it('a part added on A shows on B at once, though B had the answer cached; writes refused on A drop nothing', async () => {
    const admin = await signInOn(a, cacheAdminEmail);
    const name = `Replica lever ${randomBytes(3).toString('hex')}`;
    const search = async (server: Replica) => {
      const res = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'query($s: String) { parts(search: $s) { total } }', variables: { s: name } }),
      });
      const body = (await res.json()) as { data: { parts: { total: number } } };
      return { total: body.data.parts.total, fromMemory: res.headers.get('age') !== null };
    };
    expect(await search(b)).toEqual({ total: 0, fromMemory: false });
    // B keeps it for s-maxage (10 s); the notice of the sign-in just made on A may drop it once first.
    const cachedBy = Date.now() + 2000;
    let cached = await search(b);
    while (!cached.fromMemory && Date.now() < cachedBy) cached = await search(b);
    expect(cached).toEqual({ total: 0, fromMemory: true });
    // Writes a stranger may not make, sent to A, change nothing: neither replica drops its answers.
    for (let i = 0; i < 10; i++) {
      const refusedQuery = await fetch(`${a.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'mutation { cancelOrder(id: "x") }' }),
      });
      expect(
        ((await refusedQuery.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code,
      ).toBe('UNAUTHENTICATED');
      expect((await fetch(`${a.url}/api/part/x`, { method: 'DELETE' })).status).toBe(401);
    }
    await new Promise((r) => setTimeout(r, 300)); // a notice takes milliseconds
    expect(await search(b)).toEqual({ total: 0, fromMemory: true });
    await gql(
      a,
      'mutation($input: PartInput!) { addPart(input: $input) { id } }',
      { input: { name, description: 'Added on A.', price: 5, minOrder: 1, available: 3 } },
      admin.token,
    );
    // The notice travels through PostgreSQL (or Redis): a few milliseconds, far less than the 10 s s-maxage.
    const deadline = Date.now() + 2000;
    let seen = await search(b);
    while (seen.total === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      seen = await search(b);
    }
    expect(seen.total).toBe(1);
  });

  it('the admin overview B keeps is computed again at once after an order placed on A', async () => {
    const admin = await signInOn(a, overviewAdminEmail);
    const customer = await signInOn(a, uniqueEmail('customer-overview'));
    const { addPart } = await gql<{ addPart: { id: string } }>(
      a,
      'mutation($input: PartInput!) { addPart(input: $input) { id } }',
      { input: { name: 'Overview sprocket', description: 'Ordered on A.', price: 4, minOrder: 1, available: 20 } },
      admin.token,
    );
    // The notices of those writes reach B first (milliseconds).
    await new Promise((r) => setTimeout(r, 300));
    const unpaidOn = async (server: Replica) => {
      const { adminOverview } = await gql<{ adminOverview: { ordersByStatus: { status: string; count: number }[] } }>(
        server,
        '{ adminOverview { ordersByStatus { status count } } }',
        {},
        admin.token,
      );
      return adminOverview.ordersByStatus.find((s) => s.status === 'UNPAID')?.count ?? -1;
    };
    const before = await unpaidOn(b);
    // An order written behind both replicas' backs: B answers the overview it keeps (OVERVIEW_MAX_AGE is 60 s).
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(
      `insert into orders (user_id, email, name, phone, part_id, part_name, order_amount, unit_price_cents,
                           total_cents, status, expires_at)
       values ($1, 'o@example.test', 'Behind', '01712345678', $2, 'Overview sprocket', 1, 400, 400, 'unpaid',
               now() + interval '1 hour')`,
      [customer.user.id, addPart.id],
    );
    await client.end();
    expect(await unpaidOn(b)).toBe(before);
    // An order placed on A: its notice makes B compute the overview again, which counts both.
    await gql(
      a,
      'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
      { input: { partId: addPart.id, name: 'Overview Rider', phone: '01712345678', orderAmount: 2 } },
      customer.token,
    );
    const deadline = Date.now() + 2000;
    let seen = await unpaidOn(b);
    while (seen !== before + 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      seen = await unpaidOn(b);
    }
    expect(seen).toBe(before + 2);
  });
});
