import { check, type FieldErrors } from '@partsyard/common';
import { sql } from 'drizzle-orm';
import fc, { type Arbitrary } from 'fast-check';
import { getVariableValues, parse, type OperationDefinitionNode } from 'graphql';
import type * as yup from 'yup';
import { buildSchema } from '../../src/app';
import type { RateLimits } from '../../src/config';
import type { Actor } from '../../src/services/actor';
import type { DatabaseKind } from '../support/env';
import { orderInput, partInput } from '../support/fixtures';
import { startTestApp, type GraphQLResult, type RestResult, type TestApp, type TestUser } from '../support/testApp';

/**
 * Shared parts of the bad-input property tests: what clients may send (fast-check arbitraries), what the
 * API must answer (an oracle built from the same shared rules and GraphQL's own coercion), and a
 * snapshot of every table to show that a refused call wrote nothing.
 */

/** The JSON body limit of /graphql and /api: larger bodies are refused with 413 before anything is read. */
export const bodyLimit = 100 * 1024;
export const tooLarge: Expected = { code: 'HTTP', status: 413 };
export const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '');

/** Hundreds of calls from one address: the rate limits (tested elsewhere) are off for these apps. */
export const noRateLimits: RateLimits = {
  signInPerAddress: null,
  signInPerEmail: null,
  contactPerAddress: null,
  contactPerRecipient: null,
  ordersPerUser: null,
  ordersPerAddress: null,
  paymentIntentsPerUser: null,
};

/** Runs per property: enough to hit every kind of bad value on PGlite, fewer on a PostgreSQL server. */
export const runsFor = (kind: DatabaseKind, pglite = 80) => (kind === 'pglite' ? pglite : Math.ceil(pglite / 3));

/** A value for a failure report: long runs of one character (or escape) shortened, the whole capped. */
export function brief(value: unknown, max = 1500): string {
  const text =
    typeof value === 'string'
      ? value
      : (JSON.stringify(value, (_k, v) => (v === undefined ? '<undefined>' : v)) ?? String(value));
  const squeezed = text.replace(
    /(\\u[0-9a-fA-F]{4}|[^])\1{7,}/g,
    (run, unit: string) => `${unit}×${run.length / unit.length}`,
  );
  return squeezed.length > max ? `${squeezed.slice(0, max)}… (${squeezed.length} characters)` : squeezed;
}

/**
 * The seed of every property: `FC_SEED` when set; under CI a fixed one, so that a red run is a regression and
 * can be replayed, not a new input found by chance; otherwise a new random one each run (exploring).
 */
const propertySeed = process.env.FC_SEED ? Number(process.env.FC_SEED) : process.env.CI ? 20261122 : undefined;

/**
 * Runs a property and, when it fails, reports the (shrunk) counterexample and the seed and path to replay
 * it with (`fc.check(..., { seed, path })`), with huge values shortened so the report stays readable.
 * `examples` run first, every time: the counterexamples that once found a bug.
 */
export async function assertProperty<T>(
  arb: Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  numRuns: number,
  examples: T[] = [],
) {
  const details = await fc.check(fc.asyncProperty(arb, predicate), {
    numRuns,
    seed: propertySeed,
    examples: examples.map((e): [T] => [e]),
  });
  if (!details.failed) return;
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `Property failed after ${details.numRuns} runs (seed ${details.seed}, path "${details.counterexamplePath}").\n` +
      `Counterexample: ${brief(details.counterexample)}\n${brief(error, 4000)}`,
  );
}

// ---------------------------------------------------------------------------------------------- values

/** Characters that break naive code: NUL and other controls, odd spaces, lone surrogates, quotes, LIKE wildcards. */
const trickyChars = [
  '\u0000',
  '\u0001',
  '\u0008',
  '\u001b',
  '\u001f',
  '\u007f',
  '\t',
  '\n',
  '\r',
  ' ',
  '\u00a0',
  '\u2028',
  '\u200b',
  '\ufeff',
  '\ud800',
  '\udfff',
  'a',
  'Z',
  'é',
  'ß',
  '😀',
  "'",
  '"',
  '\\',
  '%',
  '_',
  '<',
  '$',
  '{',
  '@',
  '.',
  '-',
  '/',
];

/** Strings that read as something else: numbers, literals, operators, injection attempts. */
const lookalikes = [
  '',
  ' ',
  '   ',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e400',
  '-1',
  '-0',
  '0x10',
  '1_000',
  '12.5.1',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  "'; drop table parts; --",
  '%00',
  '\u0000',
  'a\u0000b',
  '${7*7}',
  '<script>alert(1)</script>',
];

/** Any string a client could send, from plain text to control characters and lone surrogates. */
export const anyString = (maxLength = 30): Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength, unit: 'grapheme' }) },
    { weight: 2, arbitrary: fc.string({ maxLength, unit: 'binary' }) },
    { weight: 3, arbitrary: fc.string({ maxLength, unit: fc.constantFrom(...trickyChars) }) },
    { weight: 2, arbitrary: fc.constantFrom(...lookalikes) },
  );

/** A string of about `length` UTF-16 units (a rule's limit), padded with spaces now and then. */
export const stringNear = (length: number): Arbitrary<string> =>
  fc
    .tuple(
      fc.integer({ min: Math.max(1, length - 2), max: length + 2 }),
      fc.constantFrom('x', 'é', ' '),
      fc.constantFrom('', ' ', '  '),
    )
    .map(([n, last, pad]) => `${pad}${'a'.repeat(n - 1)}${last}${pad}`);

/** Huge strings: well over any field's limit, but within the 100 KB body limit. */
export const hugeString: Arbitrary<string> = fc
  .tuple(fc.integer({ min: 2_001, max: 12_000 }), fc.constantFrom('x', 'é', '\u0000', ' '))
  .map(([n, c]) => c.repeat(n));

/** Whole numbers around the places rules draw lines, and past a 32-bit integer's range. */
export const intNear = (...edges: number[]): Arbitrary<number> =>
  fc.oneof(
    fc.constantFrom(...edges.flatMap((e) => [e - 1, e, e + 1])),
    fc.integer({ min: -1_000, max: 1_000 }),
    fc.constantFrom(0, -1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER),
  );

/** Numbers that are not whole, tiny, huge or negative. */
export const oddNumber: Arbitrary<number> = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }),
  fc.constantFrom(0.5, -0.5, 1.5, 0.1 + 0.2, 5e-324, 1e21, 1e308, -1e308, -0),
);

const dangerousKeys = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '$where',
  '$gt',
];
const anyKey: Arbitrary<string> = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...dangerousKeys));

/** Values of the wrong type for any field: null, booleans, numbers, arrays, objects, odd strings. */
export const wrongValue: Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  intNear(0),
  oddNumber,
  anyString(),
  fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.constant(null)), { maxLength: 3 }),
  fc.dictionary(anyKey, fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.constant(null)), { maxKeys: 3 }),
);

/**
 * One field of an input: a good value, a value near the rule's boundaries, a value of the wrong type, or
 * nothing (the field is left out).
 */
export const field = (good: Arbitrary<unknown>, near: Arbitrary<unknown>, wrong: Arbitrary<unknown> = wrongValue) =>
  fc.oneof(
    { weight: 5, arbitrary: good },
    { weight: 5, arbitrary: near },
    { weight: 1, arbitrary: wrong },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );

/** A text field with a length limit: good text, text near the limit, blank, odd characters, huge. */
export const textField = (max: number, good: Arbitrary<string> = fc.string({ minLength: 1, maxLength: 20 })) =>
  field(good, fc.oneof(stringNear(max), anyString(), hugeString, fc.constantFrom('', '  ', '\t\n')));

/** Fields a client added that the input does not have, including keys that name Object.prototype members. */
export const extraFields: Arbitrary<Record<string, unknown>> = fc.dictionary(anyKey, wrongValue, { maxKeys: 3 });

/** Object ids as clients send them: UUIDs that name nothing, near-UUIDs, numbers, junk. */
export const badId: Arbitrary<unknown> = fc.oneof(
  fc.uuid(),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.uuid().map((u) => `${u}\u0000`),
  fc.uuid().map((u) => ` ${u}`),
  fc.uuid().map((u) => u.slice(0, 35)),
  fc.uuid().map((u) => `${u}0`),
  fc.constantFrom('00000000-0000-0000-0000-000000000000', '', ' ', '1', '0', '-1', 'undefined', 'null', '..', '%2e%2e'),
  anyString(),
  fc.integer(),
  hugeString,
);

/** Emails: well-formed ones that name nobody, near misses, odd characters, huge. */
export const anyEmail: Arbitrary<string> = fc.oneof(
  fc.emailAddress(),
  fc.emailAddress().map((e) => ` ${e.toUpperCase()} `),
  fc.emailAddress().map((e) => `${e}\u0000`),
  fc.constantFrom('a@b', 'a@b.', '@b.co', 'a@@b.co', 'a b@c.co', 'a@b.co,c@d.co', "a'@b.co", 'a%@b.co'),
  stringNear(200).map((s) => `${s.trim().replace(/\s/g, 'a')}@example.test`),
  anyString(),
);

/** Sends the value through JSON as the client does: what the server receives. */
export const overTheWire = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

// ---------------------------------------------------------------------------------------------- answers

/** What the API is expected to answer. */
export type Expected =
  | { ok: true }
  /** BAD_USER_INPUT with exactly these per-field messages (one of `anyOf` when several checks race). */
  | { code: 'BAD_USER_INPUT'; fields: FieldErrors; anyOf?: boolean }
  | { code: 'NOT_FOUND' | 'FORBIDDEN' | 'CONFLICT' | 'UNAUTHENTICATED' }
  /** GraphQL's own refusal of a variable of the wrong type (HTTP 400, no per-field messages). */
  | { code: 'GRAPHQL_VARIABLES' }
  /** A refusal before any field is read: bad JSON, too large, bad encoding (HTTP status as given). */
  | { code: 'HTTP'; status: number };

export const ok: Expected = { ok: true };
export const badInput = (fields: FieldErrors, anyOf = false): Expected => ({ code: 'BAD_USER_INPUT', fields, anyOf });
export const notFound: Expected = { code: 'NOT_FOUND' };

/** The shared rule's verdict on an input: success, or BAD_USER_INPUT with its per-field messages. */
export function byRule(schema: yup.AnyObjectSchema, input: unknown): Expected {
  const result = check(schema, input);
  return result.ok ? ok : badInput(result.errors);
}

/** Merges verdicts of independent checks: the first refusal wins, as in the code. */
export const firstRefusal = (...verdicts: Expected[]): Expected => verdicts.find((v) => !('ok' in v)) ?? ok;

/** Verdicts of checks whose order is the code's own business: any one of the refused fields may be named. */
export function anyRefusal(...verdicts: Expected[]): Expected {
  const refused = verdicts.filter((v) => !('ok' in v));
  if (refused.length < 2 || !refused.every((v) => 'code' in v && v.code === 'BAD_USER_INPUT')) return refused[0] ?? ok;
  const fields = Object.assign({}, ...refused.map((v) => (v as { fields: FieldErrors }).fields)) as FieldErrors;
  return badInput(fields, true);
}

const statusOf = { UNAUTHENTICATED: 401, FORBIDDEN: 403, NOT_FOUND: 404, CONFLICT: 409, BAD_USER_INPUT: 400 };

/** yup's own texts name the field (or "this") first: a field showing one has no message of ours. */
const yupDefaultText = (field: string) =>
  new RegExp(
    `^(${field}|this) ` +
      '(must be a `|cannot be null|is a required field|must be at (most|least) \\d+ characters|must be a valid|' +
      'must match the following|field must have|must be defined|is invalid)',
  );

function expectClearFields(fields: FieldErrors | undefined, message: string | undefined) {
  expect(typeof message === 'string' && message.length > 0).toBe(true);
  if (!fields) return;
  for (const [name, text] of Object.entries(fields)) {
    expect({ field: name, message: text }).toEqual({
      field: expect.stringMatching(/^[A-Za-z]+$/),
      message: expect.not.stringMatching(yupDefaultText(name)),
    });
  }
  expect(Object.values(fields)).toContain(message);
}

/**
 * Checks a GraphQL answer against the expectation: never a 5xx or INTERNAL_SERVER_ERROR; a refusal has a
 * code, a message and, for bad input, exactly the expected per-field messages.
 */
export function expectGraphql(result: GraphQLResult<unknown>, expected: Expected): void {
  const codes = (result.errors ?? []).map((e) => e.extensions?.code);
  expect({ status: result.status < 500, internal: codes.includes('INTERNAL_SERVER_ERROR') }).toEqual({
    status: true,
    internal: false,
  });
  const first = result.errors?.[0];
  const actual = { status: result.status, code: first?.extensions?.code, fields: first?.extensions?.fields };
  if ('ok' in expected) {
    expect({ ...actual, errors: result.errors }).toEqual({
      status: 200,
      code: undefined,
      fields: undefined,
      errors: undefined,
    });
    return;
  }
  if (expected.code === 'HTTP') {
    expect(actual.status).toBe(expected.status);
    return;
  }
  if (expected.code === 'GRAPHQL_VARIABLES') {
    expect(actual).toEqual({ status: 400, code: 'BAD_USER_INPUT', fields: undefined });
    expect(first?.message).toMatch(/^Variable "\$/);
    return;
  }
  const httpStatus =
    expected.code === 'UNAUTHENTICATED' || expected.code === 'FORBIDDEN' ? statusOf[expected.code] : 200;
  if (expected.code === 'BAD_USER_INPUT') {
    const fields = expected.anyOf ? pickOne(expected.fields, actual.fields) : expected.fields;
    expect(actual).toEqual({ status: httpStatus, code: expected.code, fields });
    expectClearFields(actual.fields, first?.message);
    return;
  }
  expect(actual).toEqual({ status: httpStatus, code: expected.code, fields: undefined });
  expectClearFields(undefined, first?.message);
}

/** Checks a REST answer: never a 5xx; a refusal is `{message}` (with `errors` per field for bad input). */
export function expectRest(result: RestResult<unknown>, expected: Expected): void {
  const body = (result.body ?? {}) as { message?: string; errors?: FieldErrors };
  expect({ status5xx: result.status >= 500, body: result.status >= 500 ? body : undefined }).toEqual({
    status5xx: false,
    body: undefined,
  });
  const actual = { status: result.status, fields: body.errors };
  if ('ok' in expected) {
    expect({ ...actual, body }).toEqual({ status: 200, fields: undefined, body: expect.anything() });
    return;
  }
  if (expected.code === 'GRAPHQL_VARIABLES') throw new Error('not a REST expectation');
  if (expected.code === 'HTTP') {
    expect(actual).toEqual({ status: expected.status, fields: undefined });
  } else if (expected.code === 'BAD_USER_INPUT') {
    const fields = expected.anyOf ? pickOne(expected.fields, actual.fields) : expected.fields;
    expect(actual).toEqual({ status: 400, fields });
  } else {
    expect(actual).toEqual({ status: statusOf[expected.code], fields: undefined });
  }
  expectClearFields(body.errors, body.message);
}

/**
 * For requests whose exact answer is not the point (raw bytes, malformed paths): never a 5xx, and a refusal
 * is a JSON `{message}` (per-field messages, if any, are ours). `mayServe` allows a 200 as well.
 */
export function expectClearRefusal(result: RestResult<unknown>, mayServe = false): void {
  const body = (result.body ?? {}) as { message?: string; errors?: FieldErrors };
  const served = mayServe && result.status >= 200 && result.status < 300;
  // Node itself answers a request line over its header limit (16 KB) with a bare 431, before the app.
  if (result.status === 431) return;
  expect({ status: result.status, refused: served || (result.status >= 400 && result.status < 500) }).toEqual({
    status: result.status,
    refused: true,
  });
  if (!served) expectClearFields(body.errors, body.message);
}

/** With several independent checks, the answer names one of the failing fields: the one it names. */
function pickOne(expected: FieldErrors, actual: FieldErrors | undefined): FieldErrors {
  const name = Object.keys(actual ?? {})[0];
  return name !== undefined && name in expected ? { [name]: expected[name] } : expected;
}

// ---------------------------------------------------------------------------------------------- GraphQL

const executableSchema = buildSchema();

/**
 * GraphQL's own verdict on the variables (as the server receives them): the coerced values the resolver
 * gets, or null when GraphQL refuses them before any resolver runs.
 */
export function coerceVariables(document: string, variables: Record<string, unknown>): Record<string, unknown> | null {
  const operation = parse(document).definitions[0] as OperationDefinitionNode;
  const result = getVariableValues(executableSchema, operation.variableDefinitions ?? [], variables);
  return 'coerced' in result && result.coerced ? result.coerced : null;
}

// ---------------------------------------------------------------------------------------------- database

const tables = ['users', 'parts', 'orders', 'payments', 'reviews', 'test_payment_intents', 'contact_messages'];
const snapshotQuery = tables
  .map(
    (t) =>
      `select '${t}' as name, count(*)::int as rows, coalesce(md5(string_agg(t::text, ',' order by t.id)), '') as sum from ${t} t`,
  )
  .join(' union all ');

/** Row counts and a checksum of every row of every table: equal snapshots mean nothing was written. */
export async function snapshot(app: TestApp): Promise<Record<string, string>> {
  const result = (await app.server.database.db.execute(sql.raw(snapshotQuery))) as unknown as {
    rows: { name: string; rows: number; sum: string }[];
  };
  return Object.fromEntries(result.rows.map((r) => [r.name, `${r.rows} rows, ${r.sum}`]));
}

/** The snapshot taken after the last probe, while nothing else has written since. */
const settled = new WeakMap<TestApp, Record<string, string>>();

/** Tells the probes that the test itself wrote (a fixture, a clean-up): the next one takes a fresh snapshot. */
export function wrote(app: TestApp): void {
  settled.delete(app);
}

/**
 * One probe: snapshot, call, check the answer, and (unless it was expected to succeed) check that the
 * database is as it was. The snapshot after one probe is the one before the next, unless `wrote` was called.
 */
export async function probe<R>(
  app: TestApp,
  expected: Expected,
  call: () => Promise<R>,
  expectAnswer: (result: R, expected: Expected) => void,
): Promise<R> {
  const before = settled.get(app) ?? (await snapshot(app));
  settled.delete(app);
  const result = await call();
  expectAnswer(result, expected);
  const after = await snapshot(app);
  if (!('ok' in expected)) expect(after).toEqual(before);
  settled.set(app, after);
  return result;
}

/** A probe whose exact answer is not the point (see expectClearRefusal): nothing written unless served. */
export async function probeLoosely(
  app: TestApp,
  call: () => Promise<RestResult<unknown>>,
  mayServe = false,
): Promise<RestResult<unknown>> {
  const before = settled.get(app) ?? (await snapshot(app));
  settled.delete(app);
  const result = await call();
  expectClearRefusal(result, mayServe);
  const after = await snapshot(app);
  if (result.status >= 300) expect(after).toEqual(before);
  settled.set(app, after);
  return result;
}

/** The app and callers a bad-input suite probes, once per database kind (filled in by its beforeAll). */
export interface BadInputFixture {
  app: TestApp;
  admin: TestUser;
  customer: TestUser;
  /** Another customer, whose data the probes must not reach. */
  victim: TestUser;
  adminActor: Actor;
  customerActor: Actor;
}

/**
 * Starts the app (rate limits off) and signs up an admin, a customer and a victim before the suite's tests,
 * closes it after them; with helpers for the test's own writes (fixtures, clean-ups), which go through
 * `wrote` so that the next probe takes a fresh snapshot.
 */
export function badInputFixture(kind: DatabaseKind) {
  const fixture = {} as BadInputFixture;
  beforeAll(async () => {
    const app = await startTestApp(kind, { rateLimits: noRateLimits });
    const admin = await app.signUp({ admin: true, name: 'Admin Rider' });
    const customer = await app.signUp({ name: 'Karim Rider' });
    const victim = await app.signUp({ name: 'Victim Rider', verified: true });
    Object.assign(fixture, {
      app,
      admin,
      customer,
      victim,
      adminActor: { userId: admin.userId, email: admin.email, role: 'admin' },
      customerActor: { userId: customer.userId, email: customer.email, role: 'customer' },
    });
  });
  afterAll(() => fixture.app?.close());

  const services = () => {
    wrote(fixture.app);
    return fixture.app.server.services;
  };
  const db = () => {
    wrote(fixture.app);
    return fixture.app.server.database.db;
  };
  const newPart = async (overrides: Record<string, unknown> = {}) =>
    (await services().parts.addPart(fixture.adminActor, partInput(overrides))).id;
  const newOrder = async (partId: string) =>
    (await services().orders.placeOrder(fixture.customerActor, orderInput(partId))).id;
  const paidOrder = async (partId: string) => {
    const orderId = await newOrder(partId);
    const intent = await services().payments.createPaymentIntent(fixture.customerActor, orderId);
    const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: '123' };
    await services().payments.payWithTestCard(fixture.customerActor, intent.id, card);
    await services().payments.confirmPayment(fixture.customerActor, orderId, intent.id);
    return orderId;
  };
  return { fixture, services, db, newPart, newOrder, paidOrder };
}
