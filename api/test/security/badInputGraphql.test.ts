import {
  contactSchema,
  emailRule,
  partSchema,
  profileSchema,
  purchaseSchema,
  reviewSchema,
  searchSchema,
} from '@partsyard/common';
import { eq } from 'drizzle-orm';
import fc, { type Arbitrary } from 'fast-check';
import * as yup from 'yup';
import { reviews, testPaymentIntents, users } from '../../src/db/schema';
import { testCardDecision } from '../../src/payments/testCards';
import type { Actor } from '../../src/services/actor';
import { adapterDatabaseKinds } from '../support/env';
import { orderInput, partInput } from '../support/fixtures';
import { uniqueEmail, type GraphQLResult, type TestApp, type TestUser } from '../support/testApp';
import {
  anyEmail,
  badInputFixture,
  anyRefusal,
  assertProperty,
  bodyLimit,
  jsonBytes,
  tooLarge,
  anyString,
  badId,
  badInput,
  byRule,
  coerceVariables,
  expectGraphql,
  extraFields,
  field,
  firstRefusal,
  hugeString,
  intNear,
  notFound,
  ok,
  oddNumber,
  overTheWire,
  probe,
  runsFor,
  snapshot,
  stringNear,
  textField,
  wrote,
  wrongValue,
  type Expected,
} from './badInputSupport';

/**
 * Property: whatever a client sends to a GraphQL mutation (or a query's plain arguments), the answer is
 * never a 5xx or INTERNAL_SERVER_ERROR; bad input is refused with BAD_USER_INPUT and the shared rule's
 * per-field messages (or GraphQL's own 400 for variables of the wrong type) and writes nothing; input that
 * happens to be valid succeeds. Each call is made by a caller who is allowed, so only the input decides.
 */

const graphqlRefused: Expected = { code: 'GRAPHQL_VARIABLES' };
const thisYear = new Date().getFullYear();
const emailSchema = yup.object({ email: emailRule() });

/** Sometimes the input carries fields the type does not have, or is not an object at all. */
const oddShapes = (input: Arbitrary<Record<string, unknown>>): Arbitrary<unknown> =>
  fc.oneof(
    { weight: 12, arbitrary: input },
    { weight: 1, arbitrary: fc.tuple(input, extraFields).map(([i, extra]) => ({ ...extra, ...i })) },
    { weight: 1, arbitrary: wrongValue },
  );

const profileArb = fc.record({
  name: textField(200),
  avatar: textField(2048, fc.constantFrom('https://img.example.test/me.png', '')),
  phone: textField(200, fc.constantFrom('01712345678', '+1 555 0100')),
  education: textField(200),
  location: textField(200),
  linkedIn: textField(2048, fc.constantFrom('https://www.linkedin.com/in/rider', '')),
});

const priceArb = field(
  fc.double({ min: 0, max: 1_000_000, noNaN: true }),
  fc.oneof(fc.constantFrom(-0.01, 0, 0.004, 0.005, 999_999.99, 1_000_000, 1_000_000.01, 1e21), oddNumber),
);

const partArb = fc.record({
  name: textField(200),
  price: priceArb,
  image: field(
    fc.constantFrom('', 'https://images.example.test/p.png', '/images/parts/chain.svg'),
    fc.oneof(
      fc.constantFrom(
        'ftp://x.test/a.png',
        'javascript:alert(1)',
        '/images/',
        '/images/a b.png',
        'http://',
        'http:// x',
        '//x.test/a.png',
        'data:image/png;base64,AAAA',
        'https://x.test/\u0000.png',
      ),
      stringNear(2048).map((s) => `https://x.test/${s.trim().replace(/\s/g, 'a')}`),
      anyString(),
    ),
  ),
  minOrder: field(fc.integer({ min: 1, max: 1_000_000 }), fc.oneof(intNear(1, 1_000_000), oddNumber)),
  available: field(fc.integer({ min: 0, max: 1_000_000 }), fc.oneof(intNear(0, 1_000_000), oddNumber)),
  description: textField(2000),
});

const phoneArb = field(
  fc.stringMatching(/^(\+88|0088)?01[3-9]\d{8}$/),
  fc.oneof(
    fc.constantFrom(
      '0171234567',
      '017123456789',
      '01212345678',
      ' 01712345678 ',
      '01712 345678',
      '+8801712345678\u0000',
      '০১৭১২৩৪৫৬৭৮',
      '+8901712345678',
    ),
    anyString(),
  ),
);

const contactArb = fc.record({
  firstName: textField(200),
  lastName: textField(200),
  phone: fc.oneof(textField(200), fc.constant(null)),
  email: field(fc.emailAddress(), anyEmail),
  message: textField(2000),
});

const cardNumbers = [
  '4242 4242 4242 4242',
  '4242424242424242',
  '4000 0000 0000 0002',
  '4000 0000 0000 9995',
  '4000 0000 0000 0069',
  '4000 0000 0000 0127',
  '4242-4242-4242-4242',
  '4242 4242 4242 4241',
  '5555 5555 5555 4444',
  '1234',
];

const cardArb = fc.record({
  number: field(fc.constantFrom(...cardNumbers), fc.oneof(fc.stringMatching(/^\d{0,20}$/), anyString(), hugeString)),
  expMonth: field(fc.integer({ min: 1, max: 12 }), fc.oneof(intNear(1, 12), oddNumber)),
  expYear: field(
    fc.integer({ min: thisYear, max: thisYear + 10 }),
    fc.oneof(intNear(0, 99, thisYear, thisYear + 50), oddNumber),
  ),
  cvc: field(fc.stringMatching(/^\d{3,4}$/), fc.oneof(fc.constantFrom('12', '12345', ' 123 ', '12a'), anyString())),
});

/** Paging arguments: good, at the edges, negative, fractional, past 32 bits. */
const pagingArb = fc.record({
  offset: field(fc.integer({ min: 0, max: 50 }), fc.oneof(intNear(0), oddNumber)),
  limit: field(fc.integer({ min: 1, max: 20 }), fc.oneof(intNear(0, 1, 24, 100, 200), oddNumber)),
});

const within = (value: unknown, min: number, max: number) =>
  value === undefined ||
  value === null ||
  (Number.isInteger(value) && (value as number) >= min && (value as number) <= max);
/** Paging every list accepts; anything else may be refused, per field. */
const plainlyFine = (paging: Record<string, unknown>) => within(paging.offset, 0, 50) && within(paging.limit, 1, 20);

describe.each(adapterDatabaseKinds)('bad input to GraphQL on %s', (kind) => {
  const numRuns = runsFor(kind);
  const { fixture, services, db, newPart, newOrder, paidOrder } = badInputFixture(kind);
  let app: TestApp;
  let admin: TestUser;
  let customer: TestUser;
  let victim: TestUser;
  let customerActor: Actor;
  beforeAll(() => ({ app, admin, customer, victim, customerActor } = fixture));

  /** Sends `variables` as `token`; the expectation is decided on the variables as the server receives them. */
  async function call(
    document: string,
    variables: Record<string, unknown>,
    token: string | undefined,
    decide: (coerced: Record<string, unknown>) => Expected,
  ): Promise<GraphQLResult> {
    const sent = overTheWire(variables);
    const coerced = coerceVariables(document, sent);
    const expected =
      jsonBytes({ query: document, variables: sent }) > bodyLimit
        ? tooLarge
        : coerced
          ? decide(coerced)
          : graphqlRefused;
    return probe(app, expected, () => app.gql(document, sent, token), expectGraphql);
  }

  /** Ids and emails vary less than whole inputs: half the runs cover them. */
  const fewer = Math.ceil(numRuns / 2);
  const property = <T>(arb: Arbitrary<T>, run: (value: T) => Promise<void>, runs = numRuns, examples: T[] = []) =>
    assertProperty(arb, run, runs, examples);

  it('signIn: a profile is checked by the shared rules, a bad ID token is UNAUTHENTICATED', async () => {
    const document =
      'mutation($idToken: String!, $profile: ProfileInput) { signIn(idToken: $idToken, profile: $profile) { token } }';
    const tokenArb = fc.oneof(
      { weight: 6, arbitrary: fc.constant(customer.idToken) },
      { weight: 1, arbitrary: anyString() },
      { weight: 1, arbitrary: fc.constantFrom(`${customer.idToken}\u0000`, `${customer.idToken}x`, 'a.b.c') },
      { weight: 1, arbitrary: hugeString },
      { weight: 1, arbitrary: wrongValue },
    );
    const profile = fc.oneof(oddShapes(profileArb), fc.constant(null), fc.constant(undefined));
    await property(fc.record({ idToken: tokenArb, profile }), async (variables) => {
      await call(document, variables, undefined, ({ idToken, profile: p }) =>
        idToken === customer.idToken ? byRule(profileSchema, p ?? {}) : { code: 'UNAUTHENTICATED' },
      );
    });
  });

  it('updateProfile: the shared profile rules decide, field by field', async () => {
    const document = 'mutation($input: ProfileInput!) { updateProfile(input: $input) { id } }';
    const withNulls = profileArb.chain((p) =>
      fc.subarray(Object.keys(p)).map((nulled) => ({ ...p, ...Object.fromEntries(nulled.map((k) => [k, null])) })),
    );
    await property(
      oddShapes(fc.oneof(profileArb, withNulls)),
      async (input) => {
        await call(document, { input }, customer.token, (v) => byRule(profileSchema, v.input));
      },
      numRuns,
      [{ linkedIn: null }, { name: 'Rider\u0000' }],
    );
  });

  it('addPart: the shared part rules decide, field by field', async () => {
    const document = 'mutation($input: PartInput!) { addPart(input: $input) { id } }';
    await property(
      oddShapes(partArb),
      async (input) => {
        await call(document, { input }, admin.token, (v) => byRule(partSchema, v.input));
      },
      numRuns,
      [
        { name: ' ', price: 0, image: null, minOrder: 0, available: 0, description: ' ' },
        partInput({ image: 'https://x.test/\u0000.png' }),
      ],
    );
  });

  it('deletePart: an id that names no part is NOT_FOUND; a real one is deleted', async () => {
    const document = 'mutation($id: ID!) { deletePart(id: $id) }';
    await property(
      fc.oneof({ weight: 1, arbitrary: fc.constant('fresh') }, { weight: 6, arbitrary: badId }),
      async (id) => {
        const real = id === 'fresh' ? await newPart() : undefined;
        await call(document, { id: real ?? id }, admin.token, () => (real ? ok : notFound));
      },
      fewer,
    );
  });

  it('placeOrder: the part must exist, then the shared purchase rules decide against its stock', async () => {
    const stock = { minOrder: 5, available: 100 };
    const partId = await newPart(stock);
    const document = 'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }';
    const orderArb = fc.record({
      partId: fc.oneof({ weight: 8, arbitrary: fc.constant(partId) }, { weight: 1, arbitrary: badId }),
      name: textField(200),
      phone: phoneArb,
      orderAmount: field(fc.integer({ min: 5, max: 100 }), fc.oneof(intNear(5, 100), oddNumber)),
      address: fc.oneof(textField(2000), fc.constant(null)),
    });
    await property(
      oddShapes(orderArb),
      async (input) => {
        const result = await call(document, { input }, customer.token, (v) => {
          const i = v.input as Record<string, unknown>;
          return i.partId === partId ? byRule(purchaseSchema(stock), i) : notFound;
        });
        // An order that was placed is cancelled again, so the stock stays as the rule above assumes.
        const placed = (result.data as { placeOrder?: { id: string } } | null)?.placeOrder;
        if (placed) await services().orders.cancelOrder(customerActor, placed.id);
      },
      numRuns,
      [{ ...orderInput(partId, { orderAmount: 5 }), address: null }, orderInput(partId, { name: '\udfff\udfff' })],
    );
  });

  describe('with orders', () => {
    let partId: string;
    let paidOrderId: string;

    beforeAll(async () => {
      partId = await newPart({ minOrder: 1, available: 1_000_000 });
      paidOrderId = await paidOrder(partId);
    });

    it('cancelOrder: an id that names no order is NOT_FOUND, a paid one CONFLICT; an unpaid one is cancelled', async () => {
      const document = 'mutation($id: ID!) { cancelOrder(id: $id) }';
      const idArb = fc.oneof(
        { weight: 1, arbitrary: fc.constantFrom('fresh', 'paid') },
        { weight: 5, arbitrary: badId },
      );
      await property(
        idArb,
        async (id) => {
          const real = id === 'fresh' ? await newOrder(partId) : id === 'paid' ? paidOrderId : undefined;
          await call(document, { id: real ?? id }, customer.token, () =>
            id === 'fresh' ? ok : id === 'paid' ? { code: 'CONFLICT' } : notFound,
          );
        },
        fewer,
      );
    });

    it('createPaymentIntent: an id that names no order is NOT_FOUND, a paid one CONFLICT', async () => {
      const unpaid = await newOrder(partId);
      const document = 'mutation($orderId: ID!) { createPaymentIntent(orderId: $orderId) { id } }';
      const idArb = fc.oneof(
        { weight: 1, arbitrary: fc.constantFrom(unpaid, paidOrderId) },
        { weight: 5, arbitrary: badId },
      );
      await property(
        idArb,
        async (orderId) => {
          await call(document, { orderId }, customer.token, () =>
            orderId === unpaid ? ok : orderId === paidOrderId ? { code: 'CONFLICT' } : notFound,
          );
        },
        fewer,
      );
    });

    it("payWithTestCard: an intent id that names nothing is NOT_FOUND; any card gets the gateway's answer", async () => {
      const orderId = await newOrder(partId);
      const intentId = (await services().payments.createPaymentIntent(customerActor, orderId)).id;
      const document =
        'mutation($id: ID!, $card: TestCardInput!) { payWithTestCard(paymentIntentId: $id, card: $card) { succeeded error } }';
      const idArb = fc.oneof(
        { weight: 5, arbitrary: fc.constant(intentId) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(`${intentId}\u0000`, `${intentId} `, intentId.toUpperCase(), 'pi_test_'),
        },
        { weight: 2, arbitrary: badId },
      );
      await property(
        fc.record({ id: idArb, card: oddShapes(cardArb) }),
        async (variables) => {
          const result = await call(document, variables, customer.token, (v) => (v.id === intentId ? ok : notFound));
          const answer = (result.data as { payWithTestCard?: { succeeded: boolean; error: string | null } } | null)
            ?.payWithTestCard;
          if (!answer) return;
          const card = coerceVariables(document, overTheWire(variables))?.card as Parameters<
            typeof testCardDecision
          >[0];
          const decision = testCardDecision(card);
          expect(answer).toEqual({ succeeded: decision === null, error: decision });
          // A paid intent answers "succeeded" to any card from then on: make it payable again.
          if (answer.succeeded) {
            await db()
              .update(testPaymentIntents)
              .set({ status: 'requires_payment_method' })
              .where(eq(testPaymentIntents.id, intentId));
          }
        },
        numRuns,
        [
          {
            id: `${intentId}\u0000`,
            card: { number: '4242 4242 4242 4242', expMonth: 1, expYear: thisYear, cvc: '12' },
          },
        ],
      );
    });

    it('confirmPayment: the order must exist; an intent that is unknown, not succeeded or for another order is refused', async () => {
      const orderId = await newOrder(partId);
      const intentId = (await services().payments.createPaymentIntent(customerActor, orderId)).id;
      const otherOrder = await newOrder(partId);
      const otherIntent = (await services().payments.createPaymentIntent(customerActor, otherOrder)).id;
      const document =
        'mutation($orderId: ID!, $intentId: ID!) { confirmPayment(orderId: $orderId, paymentIntentId: $intentId) { id } }';
      const variablesArb = fc.record({
        orderId: fc.oneof({ weight: 4, arbitrary: fc.constant(orderId) }, { weight: 1, arbitrary: badId }),
        intentId: fc.oneof(
          { weight: 1, arbitrary: fc.constantFrom(intentId, otherIntent, `${intentId}\u0000`, 'pi_test_') },
          { weight: 3, arbitrary: badId },
        ),
      });
      await property(
        variablesArb,
        async (variables) => {
          await call(document, variables, customer.token, (v) => {
            if (v.orderId !== orderId) return notFound;
            if (v.intentId === intentId) return badInput({ paymentIntentId: 'The payment has not succeeded' });
            if (v.intentId === otherIntent) return badInput({ paymentIntentId: 'The payment is not for this order' });
            return badInput({ paymentIntentId: 'No such payment' });
          });
        },
        numRuns,
        [{ orderId, intentId: '00000000-0000-1000-8000-000000000000\u0000' }],
      );
    });

    it('markOrderShipped: an id that names no order is NOT_FOUND, an unpaid one CONFLICT; a paid one ships', async () => {
      const unpaid = await newOrder(partId);
      const document = 'mutation($id: ID!) { markOrderShipped(id: $id) { id } }';
      const idArb = fc.oneof(
        { weight: 1, arbitrary: fc.constantFrom(unpaid, paidOrderId) },
        { weight: 5, arbitrary: badId },
      );
      await property(
        idArb,
        async (id) => {
          await call(document, { id }, admin.token, () =>
            id === paidOrderId ? ok : id === unpaid ? { code: 'CONFLICT' } : notFound,
          );
        },
        fewer,
      );
    });

    it('addReview: the shared review rule, then the part must exist and be paid for', async () => {
      const unpaidPart = await newPart();
      const document = 'mutation($input: ReviewInput!) { addReview(input: $input) { id } }';
      const reviewArb = fc.record({
        partId: fc.oneof(
          { weight: 4, arbitrary: fc.constant(partId) },
          { weight: 1, arbitrary: fc.constant(unpaidPart) },
          { weight: 2, arbitrary: badId },
        ),
        text: textField(2000),
      });
      await property(
        oddShapes(reviewArb),
        async (input) => {
          const result = await call(document, { input }, customer.token, (v) => {
            const i = v.input as { partId: string };
            return firstRefusal(
              byRule(reviewSchema, i),
              i.partId === partId ? ok : i.partId === unpaidPart ? { code: 'FORBIDDEN' } : notFound,
            );
          });
          // One review per part and customer: a review that was added is removed so the next may be added too.
          const added = (result.data as { addReview?: { id: string } } | null)?.addReview;
          if (added) await db().delete(reviews).where(eq(reviews.id, added.id));
        },
        numRuns,
        [{ partId, text: '\u0000' }],
      );
    });
  });

  it.each(['grantAdmin', 'revokeAdmin'])(
    '%s: a malformed email is refused per field, an unknown one is NOT_FOUND',
    async (operation) => {
      const document = `mutation($email: String!) { ${operation}(email: $email) { id } }`;
      const emailArb = fc.oneof(
        {
          weight: 1,
          arbitrary: fc.constantFrom(victim.email, ` ${victim.email.toUpperCase()} `, `${victim.email}\u0000`),
        },
        { weight: 5, arbitrary: anyEmail },
        { weight: 1, arbitrary: wrongValue },
      );
      await property(
        emailArb,
        async (email) => {
          await call(document, { email }, admin.token, (v) =>
            firstRefusal(
              byRule(emailSchema, { email: v.email }),
              String(v.email).trim().toLowerCase() === victim.email ? ok : notFound,
            ),
          );
        },
        fewer,
      );
    },
  );

  it('deleteUser: an id that names nobody is NOT_FOUND, your own CONFLICT; another user is deleted', async () => {
    const document = 'mutation($id: ID!) { deleteUser(id: $id) }';
    const idArb = fc.oneof({ weight: 1, arbitrary: fc.constantFrom('fresh', 'self') }, { weight: 5, arbitrary: badId });
    await property(
      idArb,
      async (id) => {
        let target: unknown = id;
        if (id === 'fresh') {
          const [row] = await db()
            .insert(users)
            .values({ email: uniqueEmail('doomed') })
            .returning();
          target = row.id;
        } else if (id === 'self') target = admin.userId;
        await call(document, { id: target }, admin.token, () =>
          id === 'fresh' ? ok : id === 'self' ? { code: 'CONFLICT' } : notFound,
        );
      },
      fewer,
    );
  });

  it('sendContactMessage: the shared contact rules decide, field by field', async () => {
    const document = 'mutation($input: ContactInput!) { sendContactMessage(input: $input) { id } }';
    await property(
      oddShapes(contactArb),
      async (input) => {
        await call(document, { input }, undefined, (v) => byRule(contactSchema, v.input));
      },
      numRuns,
      [{ firstName: 'A', lastName: 'B', phone: null, email: 'a@b.co', message: ' ' }],
    );
  });

  describe("queries' plain arguments", () => {
    it('parts: a search over 200 characters or with control characters is refused per field; paging is bounded', async () => {
      const document =
        'query($search: String, $offset: Int, $limit: Int) { parts(search: $search, offset: $offset, limit: $limit) { total } }';
      const searchArb = fc.oneof(
        field(fc.string({ maxLength: 10 }), fc.oneof(stringNear(200), anyString(), hugeString)),
        fc.constant(null),
      );
      await property(
        fc.record({ search: searchArb, offset: pagingArb.map((p) => p.offset), limit: pagingArb.map((p) => p.limit) }),
        async (variables) => {
          await call(document, variables, undefined, (v) => {
            const offset = v.offset ?? 0;
            const limit = v.limit ?? 20;
            return anyRefusal(
              byRule(searchSchema, { search: v.search }),
              Number(offset) >= 0 ? ok : badInput({ offset: 'Must be a whole number of 0 or more' }),
              Number(limit) >= 1 && Number(limit) <= 100
                ? ok
                : badInput({ limit: 'Must be a whole number from 1 to 100' }),
            );
          });
        },
        numRuns,
        [{ search: '\u0000', offset: 0, limit: 10 }],
      );
    });

    it('part and order: an id that names nothing is null or NOT_FOUND, never an error of ours', async () => {
      await property(
        badId,
        async (id) => {
          await call('query($id: ID!) { part(id: $id) { id } }', { id }, undefined, () => ok);
          await call('query($id: ID!) { order(id: $id) { id } }', { id }, customer.token, () => notFound);
        },
        fewer,
      );
    });

    it('isAdmin: a malformed email is refused per field', async () => {
      const document = 'query($email: String!) { isAdmin(email: $email) }';
      await property(
        fc.oneof(anyEmail, fc.constant(admin.email)),
        async (email) => {
          await call(document, { email }, admin.token, (v) => byRule(emailSchema, { email: v.email }));
        },
        fewer,
      );
    });

    it('every list: paging outside the bounds is refused per field (offset, limit), never an error of ours', async () => {
      const lists = [
        ['parts', undefined],
        ['popularParts', undefined],
        ['reviews', undefined],
        ['myOrders', 'customer'],
        ['orders', 'admin'],
        ['users', 'admin'],
        ['contactMessages', 'admin'],
      ] as const;
      await property(
        fc.record({ list: fc.constantFrom(...lists), paging: pagingArb }),
        async ({ list, paging }) => {
          const [name, who]: readonly [string, string | undefined] = list;
          const takesOffset = !['popularParts', 'reviews'].includes(name);
          const variables = takesOffset ? paging : { limit: paging.limit };
          const params = Object.keys(variables)
            .map((k) => `$${k}: Int`)
            .join(', ');
          const args = Object.keys(variables)
            .map((k) => `${k}: $${k}`)
            .join(', ');
          const selection = name === 'popularParts' || name === 'reviews' ? '{ id }' : '{ total }';
          const document = `query${params ? `(${params})` : ''} { ${name}${args ? `(${args})` : ''} ${selection} }`;
          const token = who === 'admin' ? admin.token : who === 'customer' ? customer.token : undefined;
          const sent = overTheWire(variables);
          const coerced = coerceVariables(document, sent);
          const result = await app.gql(document, sent, token);
          if (!coerced) return expectGraphql(result, graphqlRefused);
          if (plainlyFine(coerced)) return expectGraphql(result, ok);
          // Either served or refused per field, with our message: where the bounds lie is each list's own.
          if (result.errors)
            expectGraphql(result, badInput({ offset: expect.any(String), limit: expect.any(String) }, true));
          else expectGraphql(result, ok);
        },
        fewer,
      );
    });
  });

  it('any bytes with any content type to /graphql: never a 5xx, nothing written', async () => {
    const bodies = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.constantFrom(
        '{',
        'null',
        '[]',
        '[{}]',
        '{"query": 1}',
        '{"query": "mutation { addPart }"}',
        '{"query": "{ parts { total } }", "variables": "x"}',
        '{"query": "{ parts { total } }", "variables": [1]}',
        '{"query": "mutation($i: PartInput!) { addPart(input: $i) { id } }", "variables": {"i": {"__proto__": 1}}}',
        '{"query": "{ parts(search: \\"\\u0000\\") { total } }"}',
        '{"query": "{ part(id: \\"\\u0000\\") { id } }"}',
        '{"__proto__": {"query": "{ parts { total } }"}}',
      ),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record({ query: anyString(), variables: fc.option(fc.dictionary(fc.string(), wrongValue)) })
        .map((v) => JSON.stringify(v)),
    );
    const arb = fc.record({
      contentType: fc.constantFrom(
        'application/json',
        'application/json; charset=latin1',
        'text/plain',
        'application/graphql',
        'application/x-www-form-urlencoded',
        '',
      ),
      encoding: fc.option(fc.constantFrom('gzip', 'x-unknown'), { freq: 5 }),
      body: bodies,
    });
    await property(arb, async ({ contentType, encoding, body }) => {
      const headers: Record<string, string> = {
        'apollo-require-preflight': 'true',
        authorization: `Bearer ${admin.token}`,
      };
      if (contentType) headers['content-type'] = contentType;
      if (encoding) headers['content-encoding'] = encoding;
      const before = await snapshot(app);
      const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers, body });
      const text = await res.text();
      expect({ status: res.status < 500, body: res.status < 500 ? '' : text }).toEqual({ status: true, body: '' });
      expect(text).not.toMatch(/INTERNAL_SERVER_ERROR/);
      expect(await snapshot(app)).toEqual(before);
      wrote(app);
    });
  });
});
