import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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

/** One request the fake received: method, path, form fields (bracket keys as sent) and headers. */
export interface FakeRequest {
  method: string;
  path: string;
  form: Record<string, string>;
  headers: IncomingMessage['headers'];
}

/**
 * A tiny Stripe-compatible API on 127.0.0.1: POST /v1/payment_intents (form-encoded, honouring
 * Idempotency-Key) and GET /v1/payment_intents/{id}, answering JSON as Stripe does (404 with an
 * `error` object for unknown ids). Tests flip intents to succeeded or change them, as Stripe's side would.
 */
export class FakeStripe {
  readonly intents = new Map<string, FakeIntent>();
  readonly requests: FakeRequest[] = [];
  private readonly byIdempotencyKey = new Map<string, string>();
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

  /** Marks an intent as paid, as Stripe does once the card is charged. */
  succeed(id: string, changes: Partial<FakeIntent> = {}): FakeIntent {
    const intent = this.intents.get(id);
    if (!intent) throw new Error(`no fake intent ${id}`);
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

    if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
      const key = req.headers['idempotency-key'];
      const earlier = typeof key === 'string' ? this.byIdempotencyKey.get(key) : undefined;
      if (earlier) return send(200, this.intents.get(earlier));
      const amount = Number(form.amount);
      if (!Number.isInteger(amount) || amount < 1) return error(400, 'Invalid integer', 'parameter_invalid_integer');
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

    const retrieve = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && retrieve) {
      const intent = this.intents.get(decodeURIComponent(retrieve[1]));
      if (!intent) return error(404, `No such payment_intent: '${retrieve[1]}'`, 'resource_missing');
      return send(200, intent);
    }
    return error(404, `Unrecognized request URL (${req.method}: ${url.pathname})`);
  }
}
