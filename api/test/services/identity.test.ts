import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import jwt from 'jsonwebtoken';
import { ConfigError, loadConfig } from '../../src/config';
import { users } from '../../src/db/schema';
import { AppError } from '../../src/errors';
import { createAccessTokens } from '../../src/identity/accessTokens';
import { databaseKinds } from '../support/env';
import {
  emulatorSignUp,
  emulatorVerifyEmail,
  startTestApp,
  uniqueEmail,
  type TestApp,
  type TestUser,
} from '../support/testApp';
import { actorOf, signUp } from './helpers';

const secret = 'an-access-token-secret-for-the-identity-suite-0123456789';
const meQuery = '{ me { id email role isAdmin } }';
const usersQuery = '{ users { total } }';

type Me = { me: { id: string; email: string; role: string; isAdmin: boolean } };

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('access tokens (unit)', () => {
  const tokens = createAccessTokens({ secret, expiresInSeconds: 3600 });
  const claims = { userId: '7c1d7a43-3b4a-4c8e-9a57-3c0f2d9f4a11', firebaseUid: 'firebase-uid-of-the-rider' };
  const fid = claims.firebaseUid;

  it('a token it signed verifies to the same claims', () => {
    expect(tokens.verify(tokens.sign(claims))).toEqual(claims);
  });

  it('lives exactly as many seconds as configured (JWT_EXPIRES_IN=3600 is an hour, not 3.6 seconds)', () => {
    const payload = jwt.decode(tokens.sign(claims)) as jwt.JwtPayload;
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);
  });

  it.each([
    [
      'expired',
      () =>
        jwt.sign({ fid, exp: Math.floor(Date.now() / 1000) - 60 }, secret, {
          subject: claims.userId,
          issuer: 'partsyard',
        }),
    ],
    [
      'signed with another secret',
      () =>
        jwt.sign({ fid }, 'another-secret-another-secret-another-secret', {
          subject: claims.userId,
          issuer: 'partsyard',
          expiresIn: '1h',
        }),
    ],
    [
      'signed with HS512 instead of HS256',
      () =>
        jwt.sign({ fid }, secret, {
          algorithm: 'HS512',
          subject: claims.userId,
          issuer: 'partsyard',
          expiresIn: '1h',
        }),
    ],
    [
      'from another issuer',
      () => jwt.sign({ fid }, secret, { subject: claims.userId, issuer: 'someone-else', expiresIn: '1h' }),
    ],
    ['without a subject', () => jwt.sign({ fid }, secret, { issuer: 'partsyard', expiresIn: '1h' })],
    [
      'without an expiry (it would never expire)',
      () => jwt.sign({ fid }, secret, { algorithm: 'HS256', subject: claims.userId, issuer: 'partsyard' }),
    ],
    [
      'without the Firebase account it was issued for',
      () => jwt.sign({}, secret, { algorithm: 'HS256', subject: claims.userId, issuer: 'partsyard', expiresIn: '1h' }),
    ],
    [
      'of alg none',
      () =>
        `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ fid, sub: claims.userId, iss: 'partsyard', exp: Math.floor(Date.now() / 1000) + 3600 })}.`,
    ],
    ['garbage', () => 'not.a.token'],
  ])('a token %s is refused as UNAUTHENTICATED', (_label, make) => {
    let caught: unknown;
    try {
      tokens.verify(make());
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).code).toBe('UNAUTHENTICATED');
  });

  it('a token stops working as soon as its expiry has passed', () => {
    const shortLived = createAccessTokens({ secret, expiresInSeconds: 1 });
    const token = shortLived.sign(claims);
    const realNow = Date.now;
    try {
      Date.now = () => realNow() + 5_000;
      expect(() => shortLived.verify(token)).toThrow(/expired/);
    } finally {
      Date.now = realNow;
    }
  });

  it('a token remembered as verified still expires on time, and only its exact string is remembered', () => {
    const shortLived = createAccessTokens({ secret, expiresInSeconds: 2 }, { verifiedTokens: 2 });
    const token = shortLived.sign(claims);
    expect(shortLived.verify(token)).toEqual(claims);
    expect(shortLived.verify(token)).toEqual(claims); // remembered
    const [header, payload, signature] = token.split('.');
    const flipped = signature.endsWith('A') ? 'B' : 'A';
    const forged = `${header}.${payload}.${signature.slice(0, -1)}${flipped}`;
    expect(() => shortLived.verify(forged)).toThrow(/Invalid access token/);
    const otherPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: randomUUID() }),
    ).toString('base64url');
    expect(() => shortLived.verify(`${header}.${otherPayload}.${signature}`)).toThrow(/Invalid access token/);
    // More tokens than it remembers: the first is checked again, and still holds.
    for (const userId of [randomUUID(), randomUUID()]) shortLived.verify(shortLived.sign({ ...claims, userId }));
    expect(shortLived.verify(token)).toEqual(claims);
    const realNow = Date.now;
    try {
      Date.now = () => realNow() + 3_000;
      expect(() => shortLived.verify(token)).toThrow(/expired/);
      expect(() => shortLived.verify(token)).toThrow(/expired/);
    } finally {
      Date.now = realNow;
    }
  });
});

describe.each(databaseKinds)('access tokens on requests (%s)', (kind) => {
  let app: TestApp;
  let admin: TestUser;
  let customer: TestUser;

  beforeAll(async () => {
    app = await startTestApp(kind, { jwt: { secret, expiresInSeconds: 3600 } });
    admin = await signUp(app, { admin: true });
    customer = await signUp(app);
  });
  afterAll(() => app?.close());

  const sign = (user: TestUser, key = secret, options: jwt.SignOptions = {}) =>
    jwt.sign({ fid: user.firebaseUid }, key, {
      algorithm: 'HS256',
      issuer: 'partsyard',
      subject: user.userId,
      expiresIn: '1h',
      ...options,
    });

  /** Asserts a GraphQL answer is the 401 UNAUTHENTICATED refusal. */
  const expect401 = (result: { status: number; data: unknown; errors?: { extensions?: { code?: string } }[] }) => {
    expect(result.status).toBe(401);
    expect(result.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  };

  it('a valid token works on `me`', async () => {
    const result = await app.gql<Me>(meQuery, {}, customer.token);
    expect(result.status).toBe(200);
    expect(result.data?.me).toEqual({ id: customer.userId, email: customer.email, role: 'CUSTOMER', isAdmin: false });
  });

  it('a token signed by the test with the server’s secret and claims works too (the claims are what counts)', async () => {
    const result = await app.gql<Me>(meQuery, {}, sign(customer));
    expect(result.data?.me.id).toBe(customer.userId);
  });

  it('a token whose user id belongs to another Firebase account than the one it names is refused', async () => {
    const mixed = jwt.sign({ fid: admin.firebaseUid }, secret, {
      algorithm: 'HS256',
      issuer: 'partsyard',
      subject: customer.userId,
      expiresIn: '1h',
    });
    expect401(await app.gql(meQuery, {}, mixed));
  });

  it('a token signed without an expiry is refused, although signed with the server’s secret', async () => {
    const forever = jwt.sign({ fid: customer.firebaseUid }, secret, {
      algorithm: 'HS256',
      issuer: 'partsyard',
      subject: customer.userId,
    });
    expect401(await app.gql(meQuery, {}, forever));
    expect((await app.rest('GET', `/user/${customer.email}`, undefined, forever)).status).toBe(401);
  });

  it('no token on `me` is 401 UNAUTHENTICATED', async () => {
    expect401(await app.gql(meQuery));
  });

  it('an expired token is refused with 401 UNAUTHENTICATED', async () => {
    const expired = jwt.sign({ fid: customer.firebaseUid, exp: Math.floor(Date.now() / 1000) - 10 }, secret, {
      algorithm: 'HS256',
      issuer: 'partsyard',
      subject: customer.userId,
    });
    const result = await app.gql(meQuery, {}, expired);
    expect401(result);
    expect(result.errors?.[0].message).toBe('Your session has expired, please sign in again');
    // The REST shim says the same, not the visitor's "Sign in to continue".
    const rest = await app.rest('GET', `/user/${customer.email}`, undefined, expired);
    expect({ status: rest.status, body: rest.body }).toEqual({
      status: 401,
      body: { message: 'Your session has expired, please sign in again' },
    });
  });

  it('a token signed with another secret is refused with 401 UNAUTHENTICATED', async () => {
    expect401(await app.gql(meQuery, {}, sign(customer, 'a-different-secret-a-different-secret-0123')));
  });

  it("a token with alg 'none' is refused with 401 UNAUTHENTICATED", async () => {
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({
      fid: admin.firebaseUid,
      sub: admin.userId,
      iss: 'partsyard',
      iat: Math.floor(Date.now() / 1000),
      exp: Math.floor(Date.now() / 1000) + 3600,
    })}.`;
    expect401(await app.gql(meQuery, {}, unsigned));
    expect401(await app.gql(usersQuery, {}, unsigned));
  });

  it('a token with a tampered payload (someone else’s id, old signature) is refused', async () => {
    const [header, , signature] = customer.token.split('.');
    const payload = base64url({
      fid: admin.firebaseUid,
      sub: admin.userId,
      iss: 'partsyard',
      exp: Math.floor(Date.now() / 1000) + 3600,
    });
    expect401(await app.gql(meQuery, {}, `${header}.${payload}.${signature}`));
  });

  it('the REST shim refuses the same bad tokens with 401 and a message', async () => {
    const forged = sign(customer, 'a-different-secret-a-different-secret-0123');
    const result = await app.rest<{ message: string }>('GET', `/user/${customer.email}`, undefined, forged);
    expect(result.status).toBe(401);
    expect(typeof result.body.message).toBe('string');
    const ok = await app.rest('GET', `/user/${customer.email}`, undefined, customer.token);
    expect(ok.status).toBe(200);
  });

  it("a deleted user's token stops working", async () => {
    const leaving = await signUp(app);
    expect((await app.gql<Me>(meQuery, {}, leaving.token)).data?.me.id).toBe(leaving.userId);
    await app.server.services.users.deleteUser(await actorOf(app, admin), leaving.userId);
    const result = await app.gql(meQuery, {}, leaving.token);
    expect401(result);
    const rest = await app.rest('GET', `/user/${leaving.email}`, undefined, leaving.token);
    expect(rest.status).toBe(401);
  });

  it('the role is read from the database on each request: a grant or a demotion counts at once', async () => {
    const user = await signUp(app);
    const before = await app.gql(usersQuery, {}, user.token);
    expect(before.status).toBe(403);
    expect(before.errors?.[0].extensions?.code).toBe('FORBIDDEN');

    await app.server.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.userId));
    const granted = await app.gql<{ users: { total: number } }>(usersQuery, {}, user.token);
    expect(granted.status).toBe(200);
    expect(granted.data?.users.total).toBeGreaterThanOrEqual(3);
    expect((await app.gql<Me>(meQuery, {}, user.token)).data?.me).toMatchObject({ role: 'ADMIN', isAdmin: true });

    await app.server.database.db.update(users).set({ role: 'customer' }).where(eq(users.id, user.userId));
    const demoted = await app.gql(usersQuery, {}, user.token);
    expect(demoted.status).toBe(403);
    expect(demoted.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('granting admin through the API also takes effect on the next request of that user', async () => {
    const user = await signUp(app, { verified: true });
    const grant = await app.gql(
      'mutation($email: String!) { grantAdmin(email: $email) { role } }',
      { email: user.email },
      admin.token,
    );
    expect(grant.data).toEqual({ grantAdmin: { role: 'ADMIN' } });
    expect((await app.gql(usersQuery, {}, user.token)).status).toBe(200);
  });

  it('a customer cannot grant admin (403 FORBIDDEN) and nothing changes', async () => {
    const user = await signUp(app);
    const grant = await app.gql(
      'mutation($email: String!) { grantAdmin(email: $email) { role } }',
      { email: user.email },
      customer.token,
    );
    expect(grant.status).toBe(403);
    expect(grant.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const [row] = await app.server.database.db.select().from(users).where(eq(users.id, user.userId));
    expect(row.role).toBe('customer');
  });
});

describe.each(databaseKinds)('ADMIN_EMAILS (%s)', (kind) => {
  const listed = uniqueEmail('boss');
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp(kind, { adminEmails: [listed] });
  });
  afterAll(() => app?.close());

  /** Exchanges a Firebase ID token for the shop's access token. */
  async function exchange(idToken: string): Promise<string> {
    const result = await app.gql<{ signIn: { token: string } }>(
      'mutation($idToken: String!) { signIn(idToken: $idToken) { token } }',
      { idToken },
    );
    if (!result.data) throw new Error(JSON.stringify(result.errors));
    return result.data.signIn.token;
  }

  it('a listed email is made admin only once its owner has verified it', async () => {
    const idToken = await emulatorSignUp(listed, 'Secret#123', 'Listed Rider');
    const unverified = await exchange(idToken);
    expect((await app.gql<Me>(meQuery, {}, unverified)).data?.me).toMatchObject({ email: listed, role: 'CUSTOMER' });
    expect((await app.gql(usersQuery, {}, unverified)).status).toBe(403);

    const verified = await exchange(await emulatorVerifyEmail(listed, 'Secret#123'));
    expect((await app.gql<Me>(meQuery, {}, verified)).data?.me).toMatchObject({ email: listed, role: 'ADMIN' });
    expect((await app.gql(usersQuery, {}, verified)).status).toBe(200);
    // The role is the account's: the first token works as admin too now.
    expect((await app.gql(usersQuery, {}, unverified)).status).toBe(200);
  });

  it('an email not listed signs in as a customer, verified or not', async () => {
    const email = uniqueEmail('plain');
    await emulatorSignUp(email, 'Secret#123', 'Plain Rider');
    const token = await exchange(await emulatorVerifyEmail(email, 'Secret#123'));
    expect((await app.gql<Me>(meQuery, {}, token)).data?.me.role).toBe('CUSTOMER');
    expect((await app.gql(usersQuery, {}, token)).status).toBe(403);
  });
});

describe('configuration (src/config.ts)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'partsyard-config-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const problemsOf = (env: NodeJS.ProcessEnv): string[] => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
    throw new Error('loadConfig accepted the environment');
  };

  it('with nothing configured: embedded mode, PGlite under the data folder, port 4000, the test gateway', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.mode).toBe('embedded');
    expect(config.port).toBe(4000);
    expect(config.database).toEqual({ kind: 'pglite', dataDir: path.join(dataDir, 'pg') });
    expect(config.stripe).toBeNull();
    expect(config.firebase.emulatorHost).toBe('127.0.0.1:9099');
    expect(config.firebase.projectId).toBe('demo-partsyard');
    expect(config.seedDemo).toBe(true);
    expect(config.adminEmails).toEqual([]);
  });

  it('generates a JWT secret once, keeps it under the data folder and reuses it', () => {
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'jwt-secret');
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.jwt.secret);
    expect(first.jwt.secret.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dataDir }).jwt.secret).toBe(first.jwt.secret);
  });

  it('DATABASE_URL without JWT_SECRET throws a ConfigError naming JWT_SECRET', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x/y', DATA_DIR: dataDir })).toThrow(ConfigError);
    const problems = problemsOf({ DATABASE_URL: 'postgres://x/y', DATA_DIR: dataDir });
    expect(problems.some((p) => p.includes('JWT_SECRET'))).toBe(true);
    // and no secret was generated for production
    expect(existsSync(path.join(dataDir, 'jwt-secret'))).toBe(false);
  });

  it('a JWT_SECRET shorter than 32 characters is named', () => {
    const problems = problemsOf({ JWT_SECRET: 'short', DATA_DIR: dataDir });
    expect(problems.some((p) => p.includes('JWT_SECRET'))).toBe(true);
  });

  it('a DATABASE_URL that is not postgres:// is named', () => {
    const problems = problemsOf({ DATABASE_URL: 'mysql://x/y', JWT_SECRET: secret, DATA_DIR: dataDir });
    expect(problems.some((p) => p.includes('DATABASE_URL'))).toBe(true);
  });

  it('a PORT that is not a port number is named', () => {
    expect(problemsOf({ PORT: 'eighty', DATA_DIR: dataDir }).some((p) => p.includes('PORT'))).toBe(true);
    expect(problemsOf({ PORT: '70000', DATA_DIR: dataDir }).some((p) => p.includes('PORT'))).toBe(true);
  });

  it('malformed Stripe keys are each named', () => {
    const problems = problemsOf({
      DATA_DIR: dataDir,
      STRIPE_SECRET_KEY: 'pk_wrong_kind',
      STRIPE_PUBLISHABLE_KEY: 'sk_wrong_kind',
      STRIPE_WEBHOOK_SECRET: 'secret',
    });
    expect(problems.some((p) => p.includes('STRIPE_SECRET_KEY'))).toBe(true);
    expect(problems.some((p) => p.includes('STRIPE_PUBLISHABLE_KEY'))).toBe(true);
    expect(problems.some((p) => p.includes('STRIPE_WEBHOOK_SECRET'))).toBe(true);
  });

  it('a Stripe key given alone names the missing others', () => {
    const problems = problemsOf({ DATA_DIR: dataDir, STRIPE_SECRET_KEY: 'sk_test_x' });
    expect(problems.some((p) => p.includes('STRIPE_PUBLISHABLE_KEY'))).toBe(true);
    expect(problems.some((p) => p.includes('STRIPE_WEBHOOK_SECRET'))).toBe(true);
  });

  it('well-formed Stripe keys switch payments to Stripe', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    });
    expect(config.stripe).toMatchObject({
      secretKey: 'sk_test_x',
      publishableKey: 'pk_test_x',
      webhookSecret: 'whsec_x',
    });
  });

  it('ADMIN_EMAILS is split on commas, trimmed and lower-cased', () => {
    const config = loadConfig({ DATA_DIR: dataDir, ADMIN_EMAILS: ' Boss@Example.test, ,ops@example.test ' });
    expect(config.adminEmails).toEqual(['boss@example.test', 'ops@example.test']);
  });

  it('production settings give production mode with pooled PostgreSQL and no emulator or demo seed', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://db.example.test/shop',
      JWT_SECRET: secret,
      FIREBASE_PROJECT_ID: 'partsyard-prod',
      FIREBASE_API_KEY: 'web-api-key',
      FIREBASE_SERVICE_ACCOUNT: JSON.stringify({
        project_id: 'partsyard-prod',
        client_email: 'firebase-adminsdk@partsyard-prod.iam.gserviceaccount.com',
        private_key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
          type: 'pkcs8',
          format: 'pem',
        }),
      }),
      PORT: '8080',
    });
    expect(config.mode).toBe('production');
    expect(config.port).toBe(8080);
    expect(config.database).toMatchObject({ kind: 'postgres', url: 'postgres://db.example.test/shop' });
    expect(config.jwt.secret).toBe(secret);
    expect(config.firebase.emulatorHost).toBeUndefined();
    expect(config.seedDemo).toBe(false);
  });
});
