import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { defaultHttpTimeouts, type Config, type OrderLimits } from '../../src/config';
import { users } from '../../src/db/schema';
import type { Identity } from '../../src/identity/firebaseIdentity';
import { setEventLogging } from '../../src/logger';
import { startServer, type RunningServer } from '../../src/server';
import { testEnv, type DatabaseKind } from './env';
import { openTestDatabase } from './pgliteTemplate';
import { createTestDatabase } from './postgres';

export interface GraphQLResult<T = Record<string, unknown>> {
  status: number;
  data: T | null;
  errors?: { message: string; extensions?: { code?: string; fields?: Record<string, string> } }[];
}

export interface RestResult<T = unknown> {
  status: number;
  body: T;
}

/** A user signed up in the Auth emulator and signed in to the shop. */
export interface TestUser {
  email: string;
  password: string;
  idToken: string;
  token: string;
  userId: string;
  /** The Firebase account (the identity). */
  firebaseUid: string;
}

export interface TestApp {
  server: RunningServer;
  /** The configuration the app was started with. */
  config: Config;
  url: string;
  gql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string,
  ): Promise<GraphQLResult<T>>;
  rest<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
    headers?: Record<string, string>,
  ): Promise<RestResult<T>>;
  /**
   * Signs a new user up in the emulator and exchanges the ID token for our access token. `verified`: the user
   * first verifies the address as a person would (the emulator's verification link); `admin`: an admin granted
   * by another (written straight into the database).
   */
  signUp(options?: SignUpOptions): Promise<TestUser>;
  close(): Promise<void>;
}

export interface SignUpOptions {
  admin?: boolean;
  name?: string;
  verified?: boolean;
  email?: string;
}

/**
 * Unpaid orders' limits that no suite reaches by accident: suites that test a limit spread these and set theirs
 * (`{ ...generousOrderLimits, unpaidPerCustomer: 3 }`).
 */
export const generousOrderLimits: OrderLimits = {
  unpaidExpiryMs: 3_600_000,
  unpaidPerCustomer: 100_000,
  unpaidValuePerCustomerCents: 100_000_000_000,
};

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    mode: 'embedded',
    port: 0,
    host: '127.0.0.1',
    dataDir: path.resolve(__dirname, '../../../.data-test'),
    database: { kind: 'pglite', dataDir: undefined },
    firebase: {
      projectId: testEnv.firebaseProjectId,
      emulatorHost: testEnv.authEmulatorHost,
      serviceAccountJson: undefined,
      webApiKey: 'demo-api-key',
      authDomain: 'demo-partsyard.firebaseapp.com',
    },
    jwt: { secret: randomBytes(32).toString('hex'), expiresInSeconds: 3600 },
    adminEmails: [],
    stripe: null,
    seedDemo: false,
    demoMode: false,
    webDistDir: path.resolve(__dirname, '../../../web/dist-missing'),
    logRequests: false,
    corsOrigins: [],
    // Generous: the suites (and the browser tests) sign in and order many times from 127.0.0.1.
    // api/test/security/rateLimits.test.ts sets small ones.
    rateLimits: {
      signInPerAddress: { max: 100_000, windowMs: 60_000 },
      signInPerEmail: { max: 100_000, windowMs: 60_000 },
      contactPerAddress: { max: 100_000, windowMs: 60_000 },
      contactPerRecipient: { max: 100_000, windowMs: 60_000 },
      ordersPerUser: { max: 100_000, windowMs: 60_000 },
      ordersPerAddress: { max: 100_000, windowMs: 60_000 },
      paymentIntentsPerUser: { max: 100_000, windowMs: 60_000 },
    },
    // As generous: the suites place many orders per customer. api/test/expiry.test.ts sets its own.
    orders: generousOrderLimits,
    // No timer: a sweep changing rows between a test's reads would be noise; tests run the sweeps themselves.
    sweepIntervalMs: null,
    importStaleAfterMs: 60_000,
    // No SMTP server: mail stays in the outbox unless a test starts one (api/test/mail.test.ts).
    mail: { smtpUrl: undefined, from: 'PartsYard <orders@partsyard.test>', pollIntervalMs: null },
    seller: { name: 'PartsYard Test', address: '1 Test Road, Testville', taxId: 'BIN TEST-1' },
    http: defaultHttpTimeouts,
    redisUrl: undefined,
    redisKeyPrefix: 'partsyard-test',
    metricsToken: undefined,
    // Every signed-in query runs compiled from its first ask, so that every GraphQL suite goes through
    // graphql-jit's execution (api/src/graphql/compiledExecution.ts) as production does after ten asks.
    graphqlCompileAfter: 1,
    workers: 1,
    // Every overview computed afresh: the suites change orders behind the app's back (api/test/overview.test.ts
    // checks the reuse with its own setting).
    overviewMaxAgeMs: 0,
    shutdownDelayMs: 0,
    workerHeapLimitMiB: 256,
    ...overrides,
  };
}

/** A unique email on the emulator, which all suites share. */
export const uniqueEmail = (label = 'user') => `${label}-${randomBytes(5).toString('hex')}@example.test`;

/**
 * One call to the emulator's REST API, as the web SDK makes it. The emulator drops idle keep-alive sockets,
 * so a request that lost that race ("other side closed") is sent once more.
 */
export async function emulatorRequest(
  action: string,
  payload: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const url = `http://${testEnv.authEmulatorHost}/identitytoolkit.googleapis.com/v1/accounts:${action}?key=fake-api-key`;
  const send = () =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...payload, returnSecureToken: true }),
    });
  const res = await send().catch(() => send());
  const body = (await res.json()) as Record<string, unknown> & { error?: { message: string } };
  if (body.error) throw new Error(`emulator ${action} failed: ${body.error.message}`);
  return body;
}

async function emulatorCall(action: string, payload: Record<string, unknown>): Promise<string> {
  const { idToken } = await emulatorRequest(action, payload);
  if (typeof idToken !== 'string') throw new Error(`emulator ${action} answered no ID token`);
  return idToken;
}

/**
 * Signs up with the emulator; answers a Firebase ID token of the new account: that of a sign-in right after. The
 * emulator dates a sign-up's token from the request's start (`auth_time`) but sets the account's `validSince` a
 * moment later, so when a second ticks over in between, firebase-admin (which checks revocation) refuses that
 * token as revoked: seen once in a whole run of the suite under load. A sign-in's token is dated after it.
 */
export const emulatorSignUp = async (email: string, password: string, displayName?: string): Promise<string> => {
  await emulatorCall('signUp', { email, password, displayName });
  return emulatorSignIn(email, password);
};

/** Signs in with the emulator; answers the Firebase ID token. */
export const emulatorSignIn = (email: string, password: string): Promise<string> =>
  emulatorCall('signInWithPassword', { email, password });

/** The claims of a Firebase ID token (the emulator's are unsigned), read without checking anything. */
export const idTokenClaims = (idToken: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;

/** The out-of-band codes (verification, password reset) the emulator has "sent", as its REST API lists them. */
export async function emulatorOobCodes(): Promise<
  { email: string; oobCode: string; oobLink: string; requestType: string }[]
> {
  const url = `http://${testEnv.authEmulatorHost}/emulator/v1/projects/${testEnv.firebaseProjectId}/oobCodes`;
  const body = (await (await fetch(url)).json()) as {
    oobCodes?: { email: string; oobCode: string; oobLink: string; requestType: string }[];
  };
  return body.oobCodes ?? [];
}

/**
 * The owner of `email` verifies it as a person would: the verification email is sent (the emulator keeps it),
 * its code applied as the link would; answers a new ID token, which says the email is verified.
 */
export async function emulatorVerifyEmail(email: string, password: string): Promise<string> {
  const idToken = await emulatorSignIn(email, password);
  await emulatorRequest('sendOobCode', { requestType: 'VERIFY_EMAIL', idToken });
  const code = (await emulatorOobCodes()).filter((c) => c.email === email && c.requestType === 'VERIFY_EMAIL').pop();
  if (!code) throw new Error(`the emulator sent no verification email to ${email}`);
  await emulatorRequest('update', { oobCode: code.oobCode });
  return emulatorSignIn(email, password);
}

/**
 * fetch, sent again once if the kept-alive connection it reused was closed by the server as idle: when PGlite
 * holds the event loop for seconds, the server's idle timeout and the client's reuse of the socket can cross.
 * The server had not read the request (it closes only idle connections), so nothing ran twice.
 */
async function fetchOnce(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET') throw error;
    return fetch(url, init);
  }
}

/**
 * Starts the whole app on a fresh database of `kind` (an in-memory PGlite, or a new PostgreSQL database).
 */
export async function startTestApp(
  kind: DatabaseKind,
  overrides: Partial<Config> = {},
  options: { identity?: Identity } = {},
): Promise<TestApp> {
  let dropDatabase: (() => Promise<void>) | undefined;
  let database: Config['database'] = { kind: 'pglite', dataDir: undefined };
  if (kind === 'postgres') {
    const created = await createTestDatabase({ migrated: true });
    dropDatabase = created.drop;
    database = { kind: 'postgres', url: created.url, poolSize: 10 };
  }
  // One info line per money event and expired order would bury the test output; captureLogs shows them.
  setEventLogging(false);
  const config = testConfig({ database, ...overrides });
  const server = await startServer(config, {
    database: await openTestDatabase(database),
    identity: options.identity,
  });

  const gql: TestApp['gql'] = async (query, variables, token) => {
    const res = await fetchOnce(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as Omit<GraphQLResult, 'status'>;
    return { status: res.status, data: (body.data ?? null) as never, errors: body.errors };
  };

  const rest: TestApp['rest'] = async (method, urlPath, body, token, headers = {}) => {
    const res = await fetchOnce(`${server.url}/api${urlPath}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as never };
  };

  const signUp: TestApp['signUp'] = async (options = {}) => {
    const email = options.email ?? uniqueEmail(options.admin ? 'admin' : 'customer');
    const password = 'Secret#123';
    let idToken = await emulatorSignUp(email, password, options.name ?? 'Test Rider');
    if (options.verified) idToken = await emulatorVerifyEmail(email, password);
    const result = await gql<{ signIn: { token: string; user: { id: string } } }>(
      'mutation($idToken: String!, $profile: ProfileInput) { signIn(idToken: $idToken, profile: $profile) { token user { id } } }',
      { idToken, profile: { name: options.name ?? 'Test Rider' } },
    );
    if (!result.data) throw new Error(`signIn failed: ${JSON.stringify(result.errors)}`);
    const user: TestUser = {
      email,
      password,
      idToken,
      token: result.data.signIn.token,
      userId: result.data.signIn.user.id,
      firebaseUid: String(idTokenClaims(idToken).user_id),
    };
    if (options.admin) {
      await server.database.db
        .update(users)
        .set({ role: 'admin', adminSource: 'granted' })
        .where(eq(users.id, user.userId));
    }
    return user;
  };

  return {
    server,
    config,
    url: server.url,
    gql,
    rest,
    signUp,
    async close() {
      await server.close();
      await dropDatabase?.();
    },
  };
}
