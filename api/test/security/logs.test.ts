import { sql } from 'drizzle-orm';
import { GraphQLError } from 'graphql';
import { AppError } from '../../src/errors';
import { describeError, logger, scrub } from '../../src/logger';
import { adapterDatabaseKinds } from '../support/env';
import { addPart, orderInput } from '../support/fixtures';
import { captureLogs } from '../support/logs';
import { startTestApp, type TestApp } from '../support/testApp';

/**
 * Logs never carry personal data or secrets (issue 12, docs/security.md "Logs"): a representative run of the
 * server, with its request log on, through sign-in, profile, orders, payments, contact messages, REST calls
 * with an email in the path and the query, and failed queries; then every line it wrote is searched for the
 * emails, phone numbers, client secrets and tokens it used.
 */
jest.setTimeout(120_000);

describe.each(adapterDatabaseKinds)('what the logs hold (%s)', (kind) => {
  let app: TestApp;
  let logs: ReturnType<typeof captureLogs>;

  beforeAll(async () => {
    app = await startTestApp(kind, { logRequests: true });
    logs = captureLogs();
  });
  afterAll(async () => {
    logs?.restore();
    await app?.close();
  });

  it('a run through orders, payments, profile and contact logs ids and outcomes, never emails, phones or secrets', async () => {
    const secrets: string[] = [];
    const admin = await app.signUp({ admin: true });
    const rider = await app.signUp({ verified: true });
    secrets.push(admin.email, rider.email, admin.token, rider.token, rider.idToken);
    const partId = await addPart(app, admin.token, { available: 100 });

    const phone = '01898765432';
    secrets.push(phone);
    const profile = await app.gql(
      'mutation($input: ProfileInput!) { updateProfile(input: $input) { id } }',
      { input: { phone, name: 'Secret Lane Rider' } },
      rider.token,
    );
    expect(profile.errors).toBeUndefined();
    secrets.push('Secret Lane');

    const orderPhone = '+8801555123456';
    secrets.push(orderPhone);
    const placed = await app.gql<{ placeOrder: { id: string } }>(
      'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
      { input: orderInput(partId, { phone: orderPhone }) },
      rider.token,
    );
    const orderId = placed.data?.placeOrder.id as string;
    expect(orderId).toBeTruthy();
    const intent = await app.gql<{ createPaymentIntent: { id: string; clientSecret: string } }>(
      'mutation($orderId: ID!) { createPaymentIntent(orderId: $orderId) { id clientSecret } }',
      { orderId },
      rider.token,
    );
    const { id: intentId, clientSecret } = intent.data?.createPaymentIntent ?? { id: '', clientSecret: '' };
    expect(clientSecret).toBeTruthy();
    secrets.push(clientSecret);
    const card = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2040, cvc: '123' };
    secrets.push('4242 4242 4242 4242', '4242424242424242');
    const paid = await app.gql(
      'mutation($id: ID!, $card: TestCardInput!) { payWithTestCard(paymentIntentId: $id, card: $card) { succeeded } }',
      { id: intentId, card },
      rider.token,
    );
    expect(paid.errors).toBeUndefined();
    await app.gql(
      'mutation($orderId: ID!, $intentId: ID!) { confirmPayment(orderId: $orderId, paymentIntentId: $intentId) { status } }',
      { orderId, intentId },
      rider.token,
    );

    const contactEmail = 'whistle.blower@contact.example';
    secrets.push(contactEmail);
    const contact = await app.rest('POST', '/contact', {
      firstName: 'Whistle',
      lastName: 'Blower',
      email: contactEmail,
      message: `Call me on ${phone}`,
    });
    expect(contact.status).toBe(200);

    // REST calls with an email in the path and in the query string, one of them refused.
    expect((await app.rest('GET', `/user/${encodeURIComponent(rider.email)}`, undefined, rider.token)).status).toBe(
      200,
    );
    await app.rest('GET', `/orders?email=${encodeURIComponent(rider.email)}`, undefined, rider.token);
    await app.rest('PUT', `/user/${encodeURIComponent(rider.email)}`, {}, 'not-a-token');

    // A failed query whose parameters are personal data, logged as the app logs unexpected errors.
    const failed = await app.server.database.db
      .execute(sql`select ${rider.email}::int as n, ${orderPhone}::int as m`)
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failed).toBeInstanceOf(Error);
    logger.error('unexpected error in a request', describeError(failed));

    // The lines are there (the test searched something), with the ids that make them useful.
    const raw = logs.raw.join('\n');
    expect(logs.lines.filter((l) => l.msg === 'request').length).toBeGreaterThan(5);
    expect(logs.events('payment_intent_created')).toEqual([
      expect.objectContaining({ orderId, paymentIntentId: intentId }),
    ]);
    const failure = logs.lines.find((l) => l.msg === 'unexpected error in a request');
    expect(failure?.error).toMatch(/^Failed query: select \$1::int/);
    expect(String(failure?.error)).not.toContain('params');

    for (const email of [admin.email, rider.email, contactEmail]) secrets.push(encodeURIComponent(email));
    for (const secret of secrets) expect({ secret, logged: raw.includes(secret) }).toEqual({ secret, logged: false });
    expect(raw).not.toMatch(/_secret_/);
    expect(raw).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.-]+/);
  });
});

describe('scrub', () => {
  it('replaces emails, phone numbers, client secrets, keys and tokens; leaves ids, times and amounts', () => {
    expect(scrub('Key (email)=(rider@example.test) already exists')).toBe('Key (email)=([email]) already exists');
    expect(scrub('call 01712345678 or +880 1712-345678')).toBe('call [phone] or [phone]');
    expect(scrub('pi_test_abc123_secret_xyz789 sk_test_1234567890abcdef whsec_abcdefgh12')).toBe(
      '[client secret] [secret] [secret]',
    );
    expect(scrub('Bearer eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOiIxIn0.sig')).toBe('Bearer [token]');
    const plain =
      'order 550e8400-e29b-41d4-a716-446655440000 at 2026-11-26T04:12:41.123Z for 12500 cents, pi_test_0123456789';
    expect(scrub(plain)).toBe(plain);
  });

  it('fields named like personal data are redacted wherever they sit', () => {
    const logs = captureLogs();
    try {
      logger.warn('redaction', {
        email: 'a@b.example',
        input: { phone: '01712345678', clientSecret: 'x' },
        authorization: 'Bearer x',
        orderId: 'o1',
      });
    } finally {
      logs.restore();
    }
    expect(logs.lines[0]).toMatchObject({
      level: 'warn',
      msg: 'redaction',
      email: '[redacted]',
      input: { phone: '[redacted]', clientSecret: '[redacted]' },
      authorization: '[redacted]',
      orderId: 'o1',
    });
  });
});

describe('stacks', () => {
  it('an expected refusal (AppError) carries no stack frames, a fault keeps its own', () => {
    // A refusal is an answer to the caller: capturing and formatting its stack, and GraphQL's copy of it, cost a
    // refused order about a tenth of its CPU (issue 15).
    const limit = Error.stackTraceLimit;
    const refusal = new AppError('BAD_USER_INPUT', 'Only 3 left');
    expect(refusal.stack).toBe('');
    expect(Error.stackTraceLimit).toBe(limit); // restored for every other error
    expect(describeError(refusal)).toEqual({ error: 'Only 3 left', stack: 'AppError: Only 3 left' });
    // Wrapped by GraphQL, it keeps GraphQL's own stack rather than a copy of one formatted for it.
    const wrapped = new GraphQLError(refusal.message, { originalError: refusal });
    expect(wrapped.stack).toMatch(/^GraphQLError: Only 3 left\n\s+at /);
    const fault = describeError(new Error('the database went away'));
    expect(fault.stack).toMatch(/^Error: the database went away\n\s+at /);
  });
});
