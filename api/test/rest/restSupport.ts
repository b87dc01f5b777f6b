import type { DatabaseKind } from '../support/env';
import { partInput } from '../support/fixtures';
import { startTestApp, type RestResult, type TestApp } from '../support/testApp';

/** Documents and answers of the REST shim, as spec §3 and ARCHITECTURE.md name them. */
export interface PartDoc {
  _id: string;
  name: string;
  description: string;
  image: string;
  price: number;
  minOrder: number;
  available: number;
}

export interface OrderDoc {
  _id: string;
  name: string;
  email: string;
  phone: string;
  price: number;
  unitPrice: number;
  orderAmount: number;
  address: string;
  partName: string;
  partImage: string;
  partId: string | null;
  paid: boolean;
  status: 'unpaid' | 'paid' | 'shipped';
  transactionId?: string;
  createdAt: string;
}

export interface UserDoc {
  _id: string;
  email: string;
  name: string;
  avatar: string;
  phone: string;
  education: string;
  location: string;
  linkedIn: string;
  role: 'admin' | 'customer';
}

export interface ReviewDoc {
  _id: string;
  name: string;
  email: string;
  avatar: string;
  text: string;
  partName: string;
  partImage: string;
  partId: string | null;
}

export interface PaymentDoc {
  _id: string;
  orderId: string | null;
  partId: string | null;
  partName: string;
  email: string;
  transactionId: string;
  amount: number;
}

export interface ContactDoc {
  _id: string;
  firstName: string;
  lastName: string;
  phone: string;
  email: string;
  message: string;
  createdAt: string;
}

export interface Inserted {
  acknowledged: boolean;
  insertedId: string;
}

export interface Deleted {
  acknowledged: boolean;
  deletedCount: number;
}

export interface Updated {
  acknowledged: boolean;
  matchedCount: number;
  modifiedCount: number;
}

export interface PaymentIntentAnswer {
  clientSecret: string;
  paymentIntentId: string;
  amount: number;
  currency: string;
}

export interface CardOutcome {
  succeeded: boolean;
  paymentIntentId: string;
  error: string | null;
}

export interface ErrorBody {
  message: string;
  errors?: Record<string, string>;
}

export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A well-formed id that names no row. */
export const unknownId = '00000000-0000-4000-8000-000000000000';

export const partKeys = ['_id', 'available', 'description', 'image', 'minOrder', 'name', 'price'];
export const userKeys = ['_id', 'avatar', 'education', 'email', 'linkedIn', 'location', 'name', 'phone', 'role'];
export const reviewKeys = ['_id', 'avatar', 'email', 'name', 'partId', 'partImage', 'partName', 'text'];
/** Spec §3's order fields (transactionId once paid); the shim may add more. */
export const orderSpecKeys = [
  '_id',
  'address',
  'email',
  'name',
  'orderAmount',
  'paid',
  'partId',
  'partImage',
  'partName',
  'phone',
  'price',
];
export const paymentSpecKeys = ['email', 'partId', 'partName', 'transactionId'];

export const sortedKeys = (value: object) => Object.keys(value).sort();

export const goodCard = {
  number: '4242 4242 4242 4242',
  expMonth: 12,
  expYear: new Date().getFullYear() + 2,
  cvc: '123',
};

/** Starts the app for one describe block. */
export const startRestApp = (kind: DatabaseKind): Promise<TestApp> => startTestApp(kind);

/**
 * Asserts a refusal: its status and a `{message}` body. `expected` is the exact message, or the per-field
 * `errors` of a 400 (whose message is then one of them).
 */
export function expectRefusal(
  result: RestResult<unknown>,
  status: number,
  expected?: string | Record<string, string>,
): void {
  const body = result.body as ErrorBody;
  expect({ status: result.status, body }).toEqual({
    status,
    body:
      typeof expected === 'object'
        ? { message: expect.any(String), errors: expected }
        : { message: expected ?? expect.any(String) },
  });
  expect(body.message.length).toBeGreaterThan(0);
  if (typeof expected === 'object') expect(Object.values(expected)).toContain(body.message);
}

/** Adds a part over REST as an admin; answers its id. */
export async function restAddPart(
  app: TestApp,
  adminToken: string,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const result = await app.rest<Inserted>('POST', '/parts', partInput(overrides), adminToken);
  if (result.status !== 200) throw new Error(`POST /parts failed: ${JSON.stringify(result.body)}`);
  return result.body.insertedId;
}

export const restOrderInput = (partId: string, overrides: Record<string, unknown> = {}) => ({
  partId,
  name: 'Rider One',
  phone: '01712345678',
  orderAmount: 10,
  address: 'Road 5, Dhaka',
  ...overrides,
});

/** Places an order over REST; answers its id. */
export async function restPlaceOrder(
  app: TestApp,
  token: string,
  partId: string,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const result = await app.rest<Inserted>('POST', '/orders', restOrderInput(partId, overrides), token);
  if (result.status !== 200) throw new Error(`POST /orders failed: ${JSON.stringify(result.body)}`);
  return result.body.insertedId;
}

/** Creates a payment intent for an order over REST; answers its id. */
export async function restCreateIntent(app: TestApp, token: string, orderId: string): Promise<string> {
  const result = await app.rest<PaymentIntentAnswer>('POST', '/create-payment-intent', { orderId }, token);
  if (result.status !== 200) throw new Error(`create-payment-intent failed: ${JSON.stringify(result.body)}`);
  return result.body.paymentIntentId;
}

/** Pays an order over REST: intent, test card, confirmation. Answers the intent (transaction) id. */
export async function restPayOrder(app: TestApp, token: string, orderId: string): Promise<string> {
  const intentId = await restCreateIntent(app, token, orderId);
  const paid = await app.rest<CardOutcome>(
    'POST',
    '/test-gateway/pay',
    { paymentIntentId: intentId, card: goodCard },
    token,
  );
  if (!paid.body.succeeded) throw new Error(`test card payment failed: ${JSON.stringify(paid.body)}`);
  const confirmed = await app.rest<Updated>('PATCH', `/order/${orderId}`, { transactionId: intentId }, token);
  if (confirmed.status !== 200) throw new Error(`PATCH /order failed: ${JSON.stringify(confirmed.body)}`);
  return intentId;
}

/** A part as GET /api/parts/{id} answers it now. */
export async function restPart(app: TestApp, partId: string): Promise<PartDoc> {
  const result = await app.rest<PartDoc>('GET', `/parts/${partId}`);
  if (result.status !== 200) throw new Error(`GET /parts/${partId} failed: ${JSON.stringify(result.body)}`);
  return result.body;
}

/** An order as its owner or an admin sees it (status and body). */
export const restOrder = (app: TestApp, token: string, orderId: string) =>
  app.rest<OrderDoc>('GET', `/order/${orderId}`, undefined, token);
