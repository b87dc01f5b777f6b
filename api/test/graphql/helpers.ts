import { randomBytes, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Config } from '../../src/config';
import type { DatabaseKind } from '../support/env';
import { startTestApp, type GraphQLResult, type SignUpOptions, type TestApp, type TestUser } from '../support/testApp';

/** The codes the API answers refusals with, and the HTTP status each carries on /graphql. */
export type RefusalCode = 'UNAUTHENTICATED' | 'FORBIDDEN' | 'BAD_USER_INPUT' | 'NOT_FOUND' | 'CONFLICT';

/** A started app plus the means to make access tokens the app must refuse. */
export interface Harness {
  app: TestApp;
  /** Signs a user up in the emulator and in to the shop. */
  signUp(options?: SignUpOptions): Promise<TestUser>;
  /** Tokens no request may be accepted with. */
  badTokens: {
    /** Not a JWT at all. */
    random: string;
    /** Correctly signed for `user`, but expired a minute ago. */
    expired(user: TestUser): string;
    /** Well-formed for `user`, but signed with a secret that is not the server's. */
    forged(user: TestUser): string;
    /** Unsigned (alg "none") for `user`. */
    unsigned(user: TestUser): string;
  };
}

/** Starts one app of `kind` with a JWT secret the suite knows, so it can make expired and forged tokens. */
export async function startHarness(kind: DatabaseKind, overrides: Partial<Config> = {}): Promise<Harness> {
  const secret = randomBytes(32).toString('hex');
  const app = await startTestApp(kind, { jwt: { secret, expiresInSeconds: 3600 }, ...overrides });
  const claims = (user: TestUser) => ({ fid: user.firebaseUid });
  const options = (user: TestUser) => ({ issuer: 'partsyard', subject: user.userId });
  return {
    app,
    signUp: (opts) => app.signUp(opts),
    badTokens: {
      random: randomBytes(24).toString('base64url'),
      expired: (user) =>
        jwt.sign({ ...claims(user), exp: Math.floor(Date.now() / 1000) - 60 }, secret, {
          algorithm: 'HS256',
          ...options(user),
        }),
      forged: (user) =>
        jwt.sign(claims(user), randomBytes(32).toString('hex'), {
          algorithm: 'HS256',
          expiresIn: '1h',
          ...options(user),
        }),
      unsigned: (user) => jwt.sign(claims(user), '', { algorithm: 'none', expiresIn: '1h', ...options(user) }),
    },
  };
}

/** The code and HTTP status of a refused request, side by side so a failure shows both. */
export function refusal(result: GraphQLResult<unknown>) {
  return { code: result.errors?.[0]?.extensions?.code, status: result.status };
}

/** Expects the request to be refused with `code` (and `status`, when given). */
export function expectRefused(result: GraphQLResult<unknown>, code: RefusalCode, status?: number): void {
  const expected = status === undefined ? { code } : { code, status };
  const actual = status === undefined ? { code: refusal(result).code } : refusal(result);
  expect(actual).toEqual(expected);
}

export const expectUnauthenticated = (result: GraphQLResult<unknown>) => expectRefused(result, 'UNAUTHENTICATED', 401);
export const expectForbidden = (result: GraphQLResult<unknown>) => expectRefused(result, 'FORBIDDEN', 403);
export const expectNotFound = (result: GraphQLResult<unknown>) => expectRefused(result, 'NOT_FOUND');
export const expectConflict = (result: GraphQLResult<unknown>) => expectRefused(result, 'CONFLICT');

/** Expects BAD_USER_INPUT carrying exactly these per-field messages. */
export function expectBadInput(result: GraphQLResult<unknown>, fields: Record<string, string>): void {
  expect({ code: result.errors?.[0]?.extensions?.code, fields: result.errors?.[0]?.extensions?.fields }).toEqual({
    code: 'BAD_USER_INPUT',
    fields,
  });
}

/** The data of a request that must succeed; fails the test with the errors otherwise. */
export function dataOf<T>(result: GraphQLResult<T>): T {
  if (result.errors?.length || !result.data) {
    throw new Error(`expected data, got ${result.status}: ${JSON.stringify(result.errors)}`);
  }
  return result.data;
}

/** A UUID no row has. */
export const unknownId = () => randomUUID();

/** A short random tag to make names unique within one app. */
export const tag = () => randomBytes(4).toString('hex');

export const isoDate = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);

/** A card on the test gateway's form. */
export const card = (number: string) => ({ number, expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: '123' });

export const successCard = '4242 4242 4242 4242';
export const declinedCard = '4000 0000 0000 0002';

// Selections shared by the suites.
export const partFields = 'id name description image price minOrder available sold';
export const orderFields =
  'id name email phone address partId partName partImage orderAmount unitPrice price paid status transactionId createdAt paidAt shippedAt';
export const userFields = 'id email name avatar phone education location linkedIn role isAdmin createdAt';
export const reviewFields = 'id name email avatar text partId partName partImage createdAt';
export const paymentFields = 'id orderId partId partName email transactionId amount createdAt';
export const contactFields = 'id firstName lastName phone email message createdAt';

export interface PartData {
  id: string;
  name: string;
  description: string;
  image: string;
  price: number;
  minOrder: number;
  available: number;
  sold: number;
}

export interface OrderData {
  id: string;
  name: string;
  email: string;
  phone: string;
  address: string;
  partId: string | null;
  partName: string;
  partImage: string;
  orderAmount: number;
  unitPrice: number;
  price: number;
  paid: boolean;
  status: 'UNPAID' | 'PAID' | 'SHIPPED';
  transactionId: string | null;
  createdAt: string;
  paidAt: string | null;
  shippedAt: string | null;
}

export interface UserData {
  id: string;
  email: string;
  name: string;
  avatar: string;
  phone: string;
  education: string;
  location: string;
  linkedIn: string;
  role: 'ADMIN' | 'CUSTOMER';
  isAdmin: boolean;
  createdAt: string;
}

export interface ReviewData {
  id: string;
  name: string;
  email: string;
  avatar: string;
  text: string;
  partId: string | null;
  partName: string;
  partImage: string;
  createdAt: string;
}

export interface PaymentData {
  id: string;
  orderId: string;
  partId: string | null;
  partName: string;
  email: string;
  transactionId: string;
  amount: number;
  createdAt: string;
}

export interface ContactMessageData {
  id: string;
  firstName: string;
  lastName: string;
  phone: string;
  email: string;
  message: string;
  createdAt: string;
}

/** Reads one part as a visitor (null when there is none). */
export async function readPart(app: TestApp, id: string): Promise<PartData | null> {
  return dataOf(await app.gql<{ part: PartData | null }>(`query($id: ID!) { part(id: $id) { ${partFields} } }`, { id }))
    .part;
}

/** Reads one order as `token`. */
export function readOrder(app: TestApp, id: string, token?: string) {
  return app.gql<{ order: OrderData }>(`query($id: ID!) { order(id: $id) { ${orderFields} } }`, { id }, token);
}

export function createIntent(app: TestApp, orderId: string, token?: string) {
  return app.gql<{ createPaymentIntent: { id: string; clientSecret: string; amount: number; currency: string } }>(
    'mutation($orderId: ID!) { createPaymentIntent(orderId: $orderId) { id clientSecret amount currency } }',
    { orderId },
    token,
  );
}

export function payWithCard(app: TestApp, paymentIntentId: string, number: string, token?: string) {
  return app.gql<{ payWithTestCard: { succeeded: boolean; paymentIntentId: string; error: string | null } }>(
    'mutation($id: ID!, $card: TestCardInput!) { payWithTestCard(paymentIntentId: $id, card: $card) { succeeded paymentIntentId error } }',
    { id: paymentIntentId, card: card(number) },
    token,
  );
}

export function confirm(app: TestApp, orderId: string, paymentIntentId: string, token?: string) {
  return app.gql<{ confirmPayment: OrderData }>(
    `mutation($orderId: ID!, $intentId: ID!) { confirmPayment(orderId: $orderId, paymentIntentId: $intentId) { ${orderFields} } }`,
    { orderId, intentId: paymentIntentId },
    token,
  );
}
