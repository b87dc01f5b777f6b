import { eq } from 'drizzle-orm';
import type { Config, RateLimits } from '../../src/config';
import { contactMessages, orders, outbox, parts, users } from '../../src/db/schema';
import { addressKey, createWindowCounter, recipientKey, waitInWords } from '../../src/rateLimits';
import { databaseKinds } from '../support/env';
import { orderInput, partInput } from '../support/fixtures';
import {
  emulatorSignUp,
  generousOrderLimits,
  startTestApp,
  uniqueEmail,
  type TestApp,
  type TestUser,
} from '../support/testApp';

/**
 * Rate limits: sign-in token exchanges per client address and per email, contact messages per address,
 * orders per user and per address. The attempt past the limit is answered 429 with Retry-After and a clear
 * message, on GraphQL (code RATE_LIMITED) and REST alike (one counter for both), writes nothing, leaves other
 * callers alone, and the window ends when it says.
 */

/**
 * The clock of rate-limiter-flexible (its memory and PostgreSQL stores both count windows with Date.now):
 * stopped at the start of this file, so that a wait is told exactly, and moved only by what a test skips ahead.
 */
const startedAt = Date.now();
let skipped = 0;
const skipAhead = (ms: number) => (skipped += ms);
beforeAll(() => jest.spyOn(Date, 'now').mockImplementation(() => startedAt + skipped));
afterAll(() => jest.restoreAllMocks());

describe('the window counter', () => {
  const memory = { kind: 'memory' } as const;

  it('allows max attempts per key in a window, then answers how long to wait; refusals do not count', async () => {
    const counter = createWindowCounter(memory, 'unit1', { max: 3, windowMs: 60_000 });
    expect([await counter.hit('a'), await counter.hit('a'), await counter.hit('a')]).toEqual([0, 0, 0]);
    expect(await counter.hit('a')).toBeGreaterThan(59_000);
    skipAhead(45_000);
    expect(await counter.hit('a')).toBeLessThanOrEqual(15_000);
    expect(await counter.hit('b')).toBe(0); // other keys have their own window
    skipAhead(15_000);
    expect(await counter.hit('a')).toBe(0); // a new window
    expect([await counter.hit('a'), await counter.hit('a')]).toEqual([0, 0]);
    expect(await counter.hit('a')).toBeGreaterThan(0);
  });

  it('an attempt handed back no longer counts; one counted in an ended window changes nothing now', async () => {
    const counter = createWindowCounter(memory, 'unit2', { max: 2, windowMs: 60_000 });
    const first = Date.now();
    expect([await counter.hit('u'), await counter.hit('u')]).toEqual([0, 0]);
    await counter.unhit('u', first);
    expect(await counter.hit('u')).toBe(0);
    expect(await counter.hit('u')).toBeGreaterThan(0);
    skipAhead(60_000);
    expect(await counter.hit('u')).toBe(0); // a new window, one attempt in it
    await counter.unhit('u', first); // counted in the window before: not this one's to give back
    expect(await counter.hit('u')).toBe(0);
    expect(await counter.hit('u')).toBeGreaterThan(0);
  });

  it('counts IPv4 addresses as they are and IPv6 addresses by their /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('counts a recipient by the mailbox the address reaches: case, +tags and Gmail’s dots do not make another', () => {
    expect(recipientKey(' Rahim@Example.TEST ')).toBe('rahim@example.test');
    expect(recipientKey('rahim+offer-1@example.test')).toBe('rahim@example.test');
    expect(recipientKey('r.a.him+x@googlemail.com')).toBe('rahim@gmail.com');
    expect(recipientKey('r.ahim@example.test')).toBe('r.ahim@example.test'); // dots matter elsewhere
    expect(recipientKey('rahim@example.test.')).toBe('rahim@example.test');
  });

  it('says how long to wait in words, rounded up', () => {
    expect([1, 1500, 59_000, 60_000, 61_000, 600_000, 3_600_000].map(waitInWords)).toEqual([
      '1 second',
      '2 seconds',
      '59 seconds',
      '1 minute',
      '2 minutes',
      '10 minutes',
      '1 hour',
    ]);
  });
});

const generous = { max: 1000, windowMs: 60_000 };
const tight = (max: number, windowMs: number) => ({ max, windowMs });
const unlimited: RateLimits = {
  signInPerAddress: generous,
  signInPerEmail: generous,
  contactPerAddress: generous,
  contactPerRecipient: generous,
  ordersPerUser: generous,
  ordersPerAddress: generous,
  paymentIntentsPerUser: generous,
};

/** Requests from a given client address: the app trusts X-Forwarded-For from loopback, as from a local proxy. */
const from = (address: string) => ({ 'x-forwarded-for': address });

describe.each(databaseKinds)('rate limits over HTTP (%s)', (kind) => {
  let app: TestApp;
  let restart: (limits: Partial<RateLimits>, config?: Partial<Config>) => Promise<void>;

  beforeAll(() => {
    restart = async (limits, config = {}) => {
      await app?.close();
      app = await startTestApp(kind, { rateLimits: { ...unlimited, ...limits }, ...config });
    };
  });
  afterAll(() => app?.close());

  const post = async (
    body: unknown,
    headers: Record<string, string>,
  ): Promise<{ status: number; retryAfter: string | null; body: Record<string, unknown> }> => {
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as never };
  };
  const rest = async (method: string, path: string, body: unknown, headers: Record<string, string>) => {
    const res = await fetch(`${app.url}/api${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as never };
  };
  /** A GraphQL refusal: 429, Retry-After, code RATE_LIMITED and the message. */
  const limited = (message: string, retryAfter: string) => ({
    status: 429,
    retryAfter,
    body: { data: null, errors: [expect.objectContaining({ message, extensions: { code: 'RATE_LIMITED' } })] },
  });
  /** A REST refusal: 429, Retry-After, {message}. */
  const restLimited = (message: string, retryAfter: string) => ({ status: 429, retryAfter, body: { message } });

  const signIn = (idToken: string, headers: Record<string, string>) =>
    post(
      {
        query: 'mutation($idToken: String!) { signIn(idToken: $idToken) { token user { email } } }',
        variables: { idToken },
      },
      headers,
    );
  const restSignIn = (email: string, idToken: string, headers: Record<string, string>) =>
    rest('PUT', `/user/${encodeURIComponent(email)}`, {}, { authorization: `Bearer ${idToken}`, ...headers });
  const userRows = (email: string) => app.server.database.db.select().from(users).where(eq(users.email, email));

  describe('sign-in, per client address', () => {
    beforeAll(() => restart({ signInPerAddress: tight(3, 10 * 60_000) }));

    it('the 4th exchange from an address within 10 minutes is refused (GraphQL and REST share the count); others go on', async () => {
      const a = from('198.51.100.1');
      const rider = uniqueEmail('rider');
      const idToken = await emulatorSignUp(rider, 'Secret#123');
      expect((await signIn(idToken, a)).status).toBe(200);
      expect((await restSignIn(rider, idToken, a)).status).toBe(200);
      expect((await signIn('not-a-token', a)).status).toBe(401); // a failed attempt counts too
      expect(await signIn(idToken, a)).toEqual(
        limited('Too many sign-in attempts from your network. Try again in 10 minutes.', '600'),
      );
      expect(await restSignIn(rider, idToken, a)).toEqual(
        restLimited('Too many sign-in attempts from your network. Try again in 10 minutes.', '600'),
      );
      // Another address is not affected.
      expect((await signIn(idToken, from('198.51.100.2'))).status).toBe(200);
    });

    it('a refused first sign-in creates no account', async () => {
      const a = from('198.51.100.3');
      const spent = await emulatorSignUp(uniqueEmail('spent'), 'Secret#123');
      for (let i = 0; i < 3; i++) expect((await signIn(spent, a)).status).toBe(200);
      const newcomer = uniqueEmail('newcomer');
      const idToken = await emulatorSignUp(newcomer, 'Secret#123');
      expect((await signIn(idToken, a)).status).toBe(429);
      expect(await userRows(newcomer)).toEqual([]);
    });

    it('the window ends when Retry-After said', async () => {
      const a = from('2001:db8:5:6::1');
      const idToken = await emulatorSignUp(uniqueEmail('patient'), 'Secret#123');
      for (let i = 0; i < 3; i++) expect((await signIn(idToken, a)).status).toBe(200);
      skipAhead(4 * 60_000);
      const refused = await signIn(idToken, from('2001:db8:5:6::2')); // the same /64
      expect(refused).toEqual(limited('Too many sign-in attempts from your network. Try again in 6 minutes.', '360'));
      skipAhead(360_000);
      expect((await signIn(idToken, a)).status).toBe(200);
    });
  });

  describe('sign-in, per email (counted once the token is verified)', () => {
    beforeAll(() => restart({ signInPerEmail: tight(2, 10 * 60_000) }));

    it('the 3rd exchange for one account is refused from any address; other accounts go on', async () => {
      const email = uniqueEmail('popular');
      const idToken = await emulatorSignUp(email, 'Secret#123');
      expect((await signIn(idToken, from('203.0.113.1'))).status).toBe(200);
      expect((await restSignIn(email, idToken, from('203.0.113.2'))).status).toBe(200);
      expect(await signIn(idToken, from('203.0.113.3'))).toEqual(
        limited('Too many sign-ins to this account. Try again in 10 minutes.', '600'),
      );
      // Tokens that do not verify do not use up the account's allowance (nobody can lock another person out).
      const other = uniqueEmail('other');
      const otherToken = await emulatorSignUp(other, 'Secret#123');
      for (let i = 0; i < 3; i++) expect((await restSignIn(other, 'forged', from('203.0.113.4'))).status).toBe(401);
      expect((await signIn(otherToken, from('203.0.113.4'))).status).toBe(200);
    });
  });

  describe('contact messages, per client address', () => {
    beforeAll(() => restart({ contactPerAddress: tight(2, 60 * 60_000) }));
    const message = (text: string) => ({
      firstName: 'Rahim',
      lastName: 'Uddin',
      email: 'rahim@example.test',
      message: text,
    });
    const sendContact = (text: string, headers: Record<string, string>) =>
      post(
        {
          query: 'mutation($input: ContactInput!) { sendContactMessage(input: $input) { id } }',
          variables: { input: message(text) },
        },
        headers,
      );
    const messageCount = async () => (await app.server.database.db.select().from(contactMessages)).length;

    it('the 3rd message from an address within the hour is refused and not kept; other addresses go on', async () => {
      const a = from('192.0.2.10');
      expect((await sendContact('One', a)).status).toBe(200);
      expect((await rest('POST', '/contact', message('Two'), a)).status).toBe(200);
      const before = await messageCount();
      expect(await sendContact('Three', a)).toEqual(
        limited('Too many messages sent from your network. Try again in 1 hour.', '3600'),
      );
      expect(await rest('POST', '/contact', message('Three'), a)).toEqual(
        restLimited('Too many messages sent from your network. Try again in 1 hour.', '3600'),
      );
      expect(await messageCount()).toBe(before);
      expect((await sendContact('Hello', from('192.0.2.11'))).status).toBe(200);
    });

    it('aliases or a batch do not get around it: each message counts', async () => {
      const a = from('192.0.2.20');
      const before = await messageCount();
      const aliased = await post(
        {
          query: `mutation($input: ContactInput!) {
            m1: sendContactMessage(input: $input) { id }
            m2: sendContactMessage(input: $input) { id }
            m3: sendContactMessage(input: $input) { id }
          }`,
          variables: { input: message('Spam') },
        },
        a,
      );
      expect(aliased.status).toBe(429);
      expect(await messageCount()).toBe(before + 2);
      const batch = await post(
        [1, 2].map((i) => ({
          query: 'mutation($input: ContactInput!) { sendContactMessage(input: $input) { id } }',
          variables: { input: message(`Batch ${i}`) },
        })),
        from('192.0.2.21'),
      );
      expect(batch.status).toBe(200);
      expect(
        (
          await post(
            [1, 2, 3].map((i) => ({
              query: 'mutation($input: ContactInput!) { sendContactMessage(input: $input) { id } }',
              variables: { input: message(`Batch ${i}`) },
            })),
            from('192.0.2.22'),
          )
        ).status,
      ).toBe(429);
      expect(await messageCount()).toBe(before + 2 + 2 + 2);
    });
  });

  describe('contact confirmations, per recipient address', () => {
    beforeAll(() => restart({ contactPerRecipient: tight(2, 60_000) }));
    const send = (email: string, address: string) =>
      post(
        {
          query: 'mutation($input: ContactInput!) { sendContactMessage(input: $input) { id } }',
          variables: { input: { firstName: 'A', lastName: 'B', email, message: 'Hello' } },
        },
        from(address),
      );
    const confirmationsTo = async (...emails: string[]) =>
      (
        await app.server.database.db
          .select({ to: outbox.toAddress })
          .from(outbox)
          .where(eq(outbox.kind, 'contact_confirmation'))
      ).filter((m) => emails.includes(m.to)).length;
    const messagesFrom = async (...emails: string[]) =>
      (await app.server.database.db.select({ email: contactMessages.email }).from(contactMessages)).filter((m) =>
        emails.includes(m.email),
      ).length;

    it('one address gets 2 confirmations a window however it is written and whichever network sends; the 3rd message is kept, answered alike, unconfirmed', async () => {
      const spellings = ['victim@example.test', 'Victim+1@Example.test', 'victim+2@example.test'];
      const answers = await Promise.all(spellings.map((email, i) => send(email, `198.51.100.${i + 1}`)));
      // The same answer each time: nobody learns whether a mail went out.
      for (const answer of answers) expect(answer.status).toBe(200);
      expect(new Set(answers.map((a) => Object.keys(a.body).join()))).toEqual(new Set(['data']));
      expect(await messagesFrom('victim@example.test', 'victim+1@example.test', 'victim+2@example.test')).toBe(3);
      expect(await confirmationsTo('victim@example.test', 'victim+1@example.test', 'victim+2@example.test')).toBe(2);
      // Another address goes on; in the next window, the first one gets confirmations again.
      expect((await send('someone.else@example.test', '198.51.100.9')).status).toBe(200);
      expect(await confirmationsTo('someone.else@example.test')).toBe(1);
      skipAhead(60_000);
      expect((await send('victim@example.test', '198.51.100.1')).status).toBe(200);
      expect(await confirmationsTo('victim@example.test', 'victim+1@example.test', 'victim+2@example.test')).toBe(3);
    });
  });

  describe('orders', () => {
    let partId: string;
    const stock = async () =>
      (await app.server.database.db.select().from(parts).where(eq(parts.id, partId)))[0].available;
    const ordersOf = async (user: TestUser) =>
      (await app.server.database.db.select().from(orders).where(eq(orders.userId, user.userId))).length;
    const placeOrder = (user: TestUser, headers: Record<string, string>) =>
      post(
        {
          query: 'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
          variables: { input: orderInput(partId) },
        },
        { authorization: `Bearer ${user.token}`, ...headers },
      );
    const restPlaceOrder = (user: TestUser, headers: Record<string, string>) =>
      rest('POST', '/orders', orderInput(partId), { authorization: `Bearer ${user.token}`, ...headers });
    const addStockedPart = async () => {
      const admin = await app.signUp({ admin: true });
      const actor = await app.server.services.users.actorFor(admin.userId, admin.firebaseUid);
      partId = (await app.server.services.parts.addPart(actor, partInput({ available: 1000 }))).id;
    };

    describe('per user', () => {
      beforeAll(async () => {
        await restart({ ordersPerUser: tight(2, 60 * 60_000) });
        await addStockedPart();
      });

      it('a customer’s 3rd order within the hour is refused: no order, no stock taken; other customers go on', async () => {
        const [rider, neighbour] = [await app.signUp(), await app.signUp()];
        const a = from('198.51.100.50');
        expect((await placeOrder(rider, a)).status).toBe(200);
        expect((await restPlaceOrder(rider, from('198.51.100.51'))).status).toBe(200);
        const before = await stock();
        expect(await placeOrder(rider, from('198.51.100.52'))).toEqual(
          limited('You are placing orders too quickly. Try again in 1 hour.', '3600'),
        );
        expect(await restPlaceOrder(rider, a)).toEqual(
          restLimited('You are placing orders too quickly. Try again in 1 hour.', '3600'),
        );
        expect(await stock()).toBe(before);
        expect(await ordersOf(rider)).toBe(2);
        expect((await placeOrder(neighbour, a)).status).toBe(200);
      });
    });

    describe('only accepted orders count', () => {
      beforeAll(async () => {
        await restart(
          { ordersPerUser: tight(3, 60 * 60_000), ordersPerAddress: tight(4, 60 * 60_000) },
          { orders: { ...generousOrderLimits, unpaidPerCustomer: 2 } },
        );
        await addStockedPart();
      });

      const placeWith = (user: TestUser, headers: Record<string, string>, input: Record<string, unknown>) =>
        post(
          {
            query: 'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
            variables: { input: orderInput(partId, input) },
          },
          { authorization: `Bearer ${user.token}`, ...headers },
        );

      it('30 orders refused for a bad phone number, and more refused for the stock, lock nobody out', async () => {
        const rider = await app.signUp();
        const a = from('198.51.100.90');
        for (let i = 0; i < 30; i++) {
          const refused = await placeWith(rider, a, { phone: `0171234${i}` });
          expect(refused.status).toBe(200);
          expect(refused.body).toMatchObject({ errors: [{ extensions: { code: 'BAD_USER_INPUT' } }] });
        }
        expect((await restPlaceOrder(rider, a)).status).toBe(200);
        for (let i = 0; i < 5; i++) {
          const short = await rest('POST', '/orders', orderInput(partId, { orderAmount: 5000 }), {
            authorization: `Bearer ${rider.token}`,
            ...a,
          });
          expect(short.status).toBe(400);
        }
        // One order was accepted above (REST); the user's limit of 3 still allows 2 more.
        expect((await placeOrder(rider, a)).status).toBe(200);
        expect(await ordersOf(rider)).toBe(2);
      });

      it('orders refused by the cap on unpaid orders do not count either; the 4th accepted one is 429', async () => {
        const rider = await app.signUp();
        const a = from('198.51.100.91');
        const first = await placeWith(rider, a, {});
        expect((await placeWith(rider, a, {})).status).toBe(200);
        for (let i = 0; i < 5; i++) {
          const capped = await placeWith(rider, a, {});
          expect(capped.body).toMatchObject({ errors: [{ extensions: { code: 'CONFLICT' } }] });
        }
        const id = (first.body.data as { placeOrder: { id: string } }).placeOrder.id;
        await post(
          { query: 'mutation($id: ID!) { cancelOrder(id: $id) }', variables: { id } },
          { authorization: `Bearer ${rider.token}`, ...a },
        );
        expect((await placeWith(rider, a, {})).status).toBe(200); // the 3rd accepted
        const gone = (await app.server.database.db.select().from(orders).where(eq(orders.userId, rider.userId)))[0];
        await post(
          { query: 'mutation($id: ID!) { cancelOrder(id: $id) }', variables: { id: gone.id } },
          { authorization: `Bearer ${rider.token}`, ...a },
        );
        expect(await placeWith(rider, a, {})).toEqual(
          limited('You are placing orders too quickly. Try again in 1 hour.', '3600'),
        );
      });

      it('a cart checkout counts as one order when accepted; refused checkouts (total changed, the cap) do not', async () => {
        const rider = await app.signUp();
        const a = from('198.51.100.93');
        const gql = (query: string, variables: Record<string, unknown> = {}) =>
          post({ query, variables }, { authorization: `Bearer ${rider.token}`, ...a });
        const addToCart = () =>
          gql('mutation($id: ID!) { addToCart(partId: $id, amount: 10) { total } }', { id: partId });
        const checkout = (expectedTotal?: number) =>
          gql('mutation($input: CheckoutInput!) { checkout(input: $input) { id } }', {
            input: { name: 'Rider One', phone: '01712345678', ...(expectedTotal ? { expectedTotal } : {}) },
          });
        const cancel = (id: string) => gql('mutation($id: ID!) { cancelOrder(id: $id) }', { id });
        const code = (r: { body: Record<string, unknown> }) =>
          (r.body as { errors?: { extensions: { code: string } }[] }).errors?.[0].extensions.code;

        expect((await addToCart()).status).toBe(200);
        // The total the customer saw is not what the cart costs: refused, nothing placed, not counted.
        for (let i = 0; i < 5; i++) expect(code(await checkout(0.01))).toBe('CONFLICT');
        const accepted = await checkout(); // the 1st accepted (a checkout is one order to the limits)
        expect(code(accepted)).toBeUndefined();
        expect((await placeWith(rider, a, {})).status).toBe(200); // the 2nd accepted; 2 unpaid: the cap
        expect((await addToCart()).status).toBe(200);
        // Past the cap on unpaid orders: refused, not counted.
        for (let i = 0; i < 5; i++) expect(code(await checkout())).toBe('CONFLICT');
        const mine = async () => app.server.database.db.select().from(orders).where(eq(orders.userId, rider.userId));
        await cancel((await mine())[0].id);
        expect(code(await checkout())).toBeUndefined(); // the 3rd accepted
        await cancel((await mine())[0].id);
        expect((await addToCart()).status).toBe(200);
        const fourth = await checkout();
        expect(fourth).toEqual(limited('You are placing orders too quickly. Try again in 1 hour.', '3600'));
        expect(await mine()).toHaveLength(1); // 3 accepted, 2 cancelled
      });

      it('orders racing for the last places of a limit: exactly the limit accepted, the rest 429', async () => {
        const riders = await Promise.all([1, 2, 3, 4, 5].map(() => app.signUp()));
        const a = from('198.51.100.92');
        const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => placeWith(riders[i % 5], a, {})));
        const accepted = answers.filter((r) => r.status === 200 && !('errors' in r.body));
        expect(accepted).toHaveLength(4); // the per-address limit
        expect(answers.filter((r) => r.status === 429)).toHaveLength(6);
        const placedNow = await Promise.all(riders.map(ordersOf));
        expect(placedNow.reduce((x, y) => x + y)).toBe(4);
      });
    });

    describe('per client address', () => {
      beforeAll(async () => {
        await restart({ ordersPerAddress: tight(2, 60 * 60_000) });
        await addStockedPart();
      });

      it('the 3rd order from one address is refused whoever places it; other addresses go on', async () => {
        const [first, second, elsewhere] = [await app.signUp(), await app.signUp(), await app.signUp()];
        const a = from('203.0.113.80');
        expect((await placeOrder(first, a)).status).toBe(200);
        expect((await restPlaceOrder(second, a)).status).toBe(200);
        const before = await stock();
        expect(await placeOrder(first, a)).toEqual(
          limited('Too many orders placed from your network. Try again in 1 hour.', '3600'),
        );
        expect(await stock()).toBe(before);
        expect(await ordersOf(first)).toBe(1);
        expect((await placeOrder(elsewhere, from('203.0.113.81'))).status).toBe(200);
      });
    });

    describe('payment intents, per user (issue 32)', () => {
      beforeAll(async () => {
        await restart({ paymentIntentsPerUser: tight(3, 60 * 60_000) });
        await addStockedPart();
      });

      const createIntent = (user: TestUser, orderId: string) =>
        post(
          {
            query: 'mutation($id: ID!) { createPaymentIntent(orderId: $id) { id clientSecret } }',
            variables: { id: orderId },
          },
          { authorization: `Bearer ${user.token}`, ...from('198.51.100.120') },
        );
      const restCreateIntent = (user: TestUser, orderId: string) =>
        rest('POST', '/create-payment-intent', { orderId }, { authorization: `Bearer ${user.token}` });
      const orderOf = async (user: TestUser) =>
        (await placeOrder(user, from('198.51.100.121'))).body as { data: { placeOrder: { id: string } } };

      it('the 4th ask within the hour is refused with 429 (GraphQL and REST share the count); other customers go on', async () => {
        const [rider, neighbour] = [await app.signUp(), await app.signUp()];
        const first = (await orderOf(rider)).data.placeOrder.id;
        const second = (await orderOf(rider)).data.placeOrder.id;
        expect((await createIntent(rider, first)).status).toBe(200);
        expect((await createIntent(rider, first)).status).toBe(200);
        expect((await restCreateIntent(rider, second)).status).toBe(200);
        expect(await createIntent(rider, second)).toEqual(
          limited('You are starting payments too quickly. Try again in 1 hour.', '3600'),
        );
        expect(await restCreateIntent(rider, first)).toEqual(
          restLimited('You are starting payments too quickly. Try again in 1 hour.', '3600'),
        );
        const theirs = (await orderOf(neighbour)).data.placeOrder.id;
        expect((await createIntent(neighbour, theirs)).status).toBe(200);
      });
    });
  });
});
