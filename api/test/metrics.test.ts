import type { AddressInfo } from 'node:net';
import express from 'express';
import { createMetrics, metricsEndpoint } from '../src/metrics';
import { databaseKinds } from './support/env';
import { addPart, orderInput } from './support/fixtures';
import { startTestApp, type TestApp } from './support/testApp';

/**
 * /metrics (issue 12; README "Metrics"): Prometheus' text format, with requests by route pattern and status,
 * GraphQL operations by name, the database pool, orders placed/paid/expired and payments by outcome; behind
 * METRICS_TOKEN when it is set, and not served at all in production mode without one.
 */
jest.setTimeout(120_000);

const token = 'metrics-token-0123456789abcdef';

describe.each(databaseKinds)('/metrics (%s)', (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(kind, { metricsToken: token, graphqlCompileAfter: 10 }); // the default
  });
  afterAll(() => app?.close());

  const scrape = async (authorization?: string) => {
    const res = await fetch(`${app.url}/metrics`, { headers: authorization ? { authorization } : {} });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };
  /** The value of one sample, e.g. `partsyard_orders_total{event="placed"}`. */
  const sample = (text: string, series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  it('without the token, or with another, answers 401', async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape('Bearer wrong-token-0123456789abcdef')).status).toBe(401);
    expect((await scrape(token)).status).toBe(401); // not as a Bearer token
  });

  it('shows an order placed and paid, the payment, the GraphQL operation by name and the request by route pattern', async () => {
    const before = (await scrape(`Bearer ${token}`)).text;
    expect(sample(before, 'partsyard_orders_total{event="placed"}')).toBe(0);

    const admin = await app.signUp({ admin: true });
    const rider = await app.signUp();
    const partId = await addPart(app, admin.token);
    const placed = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${rider.token}` },
      body: JSON.stringify({
        operationName: 'PlaceIt',
        query: 'mutation PlaceIt($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
        variables: { input: orderInput(partId) },
      }),
    });
    const orderId = ((await placed.json()) as { data: { placeOrder: { id: string } } }).data.placeOrder.id;
    const intent = await app.gql<{ createPaymentIntent: { id: string } }>(
      'mutation($orderId: ID!) { createPaymentIntent(orderId: $orderId) { id } }',
      { orderId },
      rider.token,
    );
    const intentId = intent.data?.createPaymentIntent.id;
    await app.gql(
      'mutation($id: ID!, $card: TestCardInput!) { payWithTestCard(paymentIntentId: $id, card: $card) { succeeded } }',
      { id: intentId, card: { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2040, cvc: '123' } },
      rider.token,
    );
    await app.gql(
      'mutation($orderId: ID!, $intentId: ID!) { confirmPayment(orderId: $orderId, paymentIntentId: $intentId) { status } }',
      { orderId, intentId },
      rider.token,
    );
    expect((await app.rest('GET', `/parts/${partId}`)).status).toBe(200);
    // A query about the caller, asked ten times, is compiled (api/src/graphql/compiledExecution.ts), same answers.
    const mine = 'query Mine { myOrders { items { id status } total } }';
    const answers = [];
    for (let i = 0; i < 12; i += 1) answers.push((await app.gql(mine, {}, rider.token)).data);
    expect(answers).toEqual(Array(12).fill({ myOrders: { items: [{ id: orderId, status: 'PAID' }], total: 1 } }));

    const after = await scrape(`Bearer ${token}`);
    expect(after.status).toBe(200);
    expect(after.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const { text } = after;
    expect(sample(text, 'partsyard_orders_total{event="placed"}')).toBe(1);
    expect(sample(text, 'partsyard_orders_total{event="paid"}')).toBe(1);
    expect(sample(text, 'partsyard_orders_total{event="expired"}')).toBe(0);
    expect(sample(text, 'partsyard_payments_total{outcome="intent_created"}')).toBe(1);
    expect(sample(text, 'partsyard_payments_total{outcome="recorded"}')).toBe(1);
    expect(sample(text, 'partsyard_graphql_operations_total{operation="PlaceIt",type="mutation",outcome="ok"}')).toBe(
      1,
    );
    expect(sample(text, 'partsyard_http_requests_total{method="GET",route="/api/parts/:partId",status="200"}')).toBe(1);
    expect(text).toMatch(
      /^partsyard_http_request_duration_seconds_count\{method="POST",route="\/graphql\/\*",status="200"\} \d+$/m,
    );
    expect(sample(text, 'partsyard_graphql_compiled_operations')).toBe(1);
    expect(text).not.toContain(partId); // the route pattern, never the URL
    if (kind === 'postgres') expect(sample(text, 'partsyard_db_pool_connections{state="total"}')).toBeGreaterThan(0);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  it('is not served in production mode (404), and is public in the embedded default', async () => {
    const metrics = createMetrics(null);
    const answer = async (mode: 'production' | 'embedded') => {
      const app = express().get('/metrics', metricsEndpoint(metrics, { mode, metricsToken: undefined }));
      const server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        return (await fetch(`http://127.0.0.1:${port}/metrics`)).status;
      } finally {
        server.close();
      }
    };
    try {
      expect(await answer('production')).toBe(404);
      expect(await answer('embedded')).toBe(200);
    } finally {
      metrics.close();
    }
  });
});
