import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { TestApp } from '../support/testApp';

/** A payment intent as Stripe's API answers it (the fields the shop reads, and a few more). */
export interface FakeIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: string;
  client_secret: string;
  receipt_email: string | null;
  metadata: Record<string, string>;
  livemode: false;
  created: number;
}

/** A refund as Stripe's API answers it. */
export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  reason: string | null;
  status: 'succeeded';
  metadata: Record<string, string>;
  created: number;
}

/** One request the fake received: method, path, form fields (bracket keys as sent) and headers. */
export interface FakeRequest {
  method: string;
  path: string;
  form: Record<string, string>;
  headers: IncomingMessage['headers'];
}

/**
 * A tiny Stripe-compatible API on 127.0.0.1: POST /v1/payment_intents (form-encoded, honouring
 * Idempotency-Key), GET /v1/payment_intents/{id}, POST /v1/payment_intents/{id}/cancel (refused with
 * `payment_intent_unexpected_state` once succeeded or cancelled), POST /v1/refunds (the whole amount of a succeeded intent,
 * honouring Idempotency-Key; a second refund of a refunded intent is refused with `charge_already_refunded`)
 * and GET /v1/refunds?payment_intent=, answering JSON as Stripe does (404 with an `error` object for unknown
 * ids). Tests flip intents to succeeded or change them, as Stripe's side would, and can make refunds fail.
 */
export class FakeStripe {
  readonly intents = new Map<string, FakeIntent>();
  readonly refunds = new Map<string, FakeRefund>();
  readonly requests: FakeRequest[] = [];
  /** While true, POST /v1/refunds answers 500 (Stripe's api_error), as during an outage. */
  refundsFail = false;
  /** While true, every request answers 500 (Stripe's api_error), as during an outage. */
  down = false;
  private readonly byIdempotencyKey = new Map<string, string>();
  private readonly refundByIdempotencyKey = new Map<string, string>();
  private server: Server | undefined;
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      void this.handle(req, res);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /**
   * Marks an intent as paid, as Stripe does once the card is charged (a cancelled intent cannot be: it
   * answers it unchanged, as Stripe refuses the card).
   */
  succeed(id: string, changes: Partial<FakeIntent> = {}): FakeIntent {
    const intent = this.intents.get(id);
    if (!intent) throw new Error(`no fake intent ${id}`);
    if (intent.status === 'canceled') return intent;
    Object.assign(intent, { status: 'succeeded' }, changes);
    return intent;
  }

  /** An intent Stripe knows but the shop did not create through its own request. */
  addIntent(fields: Partial<FakeIntent> & { amount: number }): FakeIntent {
    const intent = this.newIntent(fields.amount, fields.currency ?? 'usd', fields.metadata ?? {}, null);
    Object.assign(intent, fields);
    this.intents.set(intent.id, intent);
    return intent;
  }

  /** Forgets the idempotency keys seen so far, as Stripe does after 24 hours. */
  forgetIdempotencyKeys(): void {
    this.byIdempotencyKey.clear();
    this.refundByIdempotencyKey.clear();
  }

  /** The refunds made for an intent (each one a separate refund at Stripe; idempotent replays are not). */
  refundsOf(intentId: string): FakeRefund[] {
    return [...this.refunds.values()].filter((r) => r.payment_intent === intentId);
  }

  requestsFor(method: string, path: string): FakeRequest[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  private newIntent(
    amount: number,
    currency: string,
    metadata: Record<string, string>,
    receiptEmail: string | null,
  ): FakeIntent {
    const id = `pi_${randomBytes(12).toString('hex')}`;
    return {
      id,
      object: 'payment_intent',
      amount,
      currency,
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      receipt_email: receiptEmail,
      metadata,
      livemode: false,
      created: Math.floor(Date.now() / 1000),
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const form = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? url.search : raw));
    this.requests.push({ method: req.method ?? '', path: url.pathname, form, headers: req.headers });

    const send = (status: number, body: unknown) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': `req_${randomBytes(6).toString('hex')}`,
      });
      res.end(JSON.stringify(body));
    };
    const error = (status: number, message: string, code?: string) =>
      send(status, { error: { type: 'invalid_request_error', message, ...(code ? { code } : {}) } });

    if (req.headers.authorization !== 'Bearer sk_test_x') return error(401, 'Invalid API Key provided');
    if (this.down) {
      res.setHeader('stripe-should-retry', 'false');
      return send(500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
    }

    if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
      const key = req.headers['idempotency-key'];
      const earlier = typeof key === 'string' ? this.byIdempotencyKey.get(key) : undefined;
      if (earlier) return send(200, this.intents.get(earlier));
      const amount = Number(form.amount);
      if (!Number.isInteger(amount) || amount < 1) return error(400, 'Invalid integer', 'parameter_invalid_integer');
      if (amount > 99_999_999) return error(400, 'Amount must be no more than $999,999.99', 'amount_too_large');
      const metadata: Record<string, string> = {};
      for (const [name, value] of Object.entries(form)) {
        const match = /^metadata\[(.+)\]$/.exec(name);
        if (match) metadata[match[1]] = value;
      }
      const intent = this.newIntent(amount, form.currency, metadata, form.receipt_email ?? null);
      this.intents.set(intent.id, intent);
      if (typeof key === 'string') this.byIdempotencyKey.set(key, intent.id);
      return send(200, intent);
    }

    if (req.method === 'POST' && url.pathname === '/v1/refunds') {
      if (this.refundsFail) {
        res.setHeader('stripe-should-retry', 'false');
        return send(500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
      }
      const key = req.headers['idempotency-key'];
      const earlier = typeof key === 'string' ? this.refundByIdempotencyKey.get(key) : undefined;
      if (earlier) return send(200, this.refunds.get(earlier));
      const intent = this.intents.get(form.payment_intent ?? '');
      if (!intent) return error(404, `No such payment_intent: '${form.payment_intent}'`, 'resource_missing');
      if (intent.status !== 'succeeded') {
        return error(400, 'This PaymentIntent does not have a successful charge to refund.', 'charge_not_refundable');
      }
      if (this.refundsOf(intent.id).length) {
        return error(400, `Charge for ${intent.id} has already been refunded.`, 'charge_already_refunded');
      }
      const metadata: Record<string, string> = {};
      for (const [name, value] of Object.entries(form)) {
        const match = /^metadata\[(.+)\]$/.exec(name);
        if (match) metadata[match[1]] = value;
      }
      const refund: FakeRefund = {
        id: `re_${randomBytes(12).toString('hex')}`,
        object: 'refund',
        amount: intent.amount,
        currency: intent.currency,
        payment_intent: intent.id,
        reason: form.reason ?? null,
        status: 'succeeded',
        metadata,
        created: Math.floor(Date.now() / 1000),
      };
      this.refunds.set(refund.id, refund);
      if (typeof key === 'string') this.refundByIdempotencyKey.set(key, refund.id);
      return send(200, refund);
    }
    if (req.method === 'GET' && url.pathname === '/v1/refunds') {
      const data = this.refundsOf(form.payment_intent ?? '').slice(0, Number(form.limit ?? 10));
      return send(200, { object: 'list', data, has_more: false, url: '/v1/refunds' });
    }

    const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(url.pathname);
    if (req.method === 'POST' && cancel) {
      const intent = this.intents.get(decodeURIComponent(cancel[1]));
      if (!intent) return error(404, `No such payment_intent: '${cancel[1]}'`, 'resource_missing');
      if (intent.status === 'succeeded' || intent.status === 'canceled') {
        return error(
          400,
          `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
          'payment_intent_unexpected_state',
        );
      }
      intent.status = 'canceled';
      return send(200, intent);
    }

    const retrieve = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && retrieve) {
      const intent = this.intents.get(decodeURIComponent(retrieve[1]));
      if (!intent) return error(404, `No such payment_intent: '${retrieve[1]}'`, 'resource_missing');
      return send(200, intent);
    }
    return error(404, `Unrecognized request URL (${req.method}: ${url.pathname})`);
  }
}

/** Settings that point the app's Stripe SDK at the fake listening on `port`. */
export const stripeSettings = (port: number) => ({
  secretKey: 'sk_test_x',
  publishableKey: 'pk_test_x',
  webhookSecret: 'whsec_test',
  apiHost: '127.0.0.1',
  apiPort: port,
  apiProtocol: 'http' as const,
});

const signer = new Stripe('sk_test_x');

/**
 * Stripe delivering an event about `intent` (or another object: a charge, a dispute) to the app's webhook
 * (`POST /api/stripe/webhook`), signed as Stripe signs it with `secret` (the webhook secret of stripeSettings
 * unless a test forges another). `id`: the event's id, to deliver one event twice as Stripe may.
 */
export function deliverWebhook(
  app: TestApp,
  intent: object | undefined,
  { secret = 'whsec_test', type = 'payment_intent.succeeded', id = `evt_${randomBytes(8).toString('hex')}` } = {},
) {
  const payload = JSON.stringify({
    id,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object: intent },
  });
  const signature = signer.webhooks.generateTestHeaderString({ payload, secret });
  return app.rest<{ received?: boolean; recorded?: boolean; refunded?: boolean; message?: string }>(
    'POST',
    '/stripe/webhook',
    payload,
    undefined,
    { 'stripe-signature': signature },
  );
}
