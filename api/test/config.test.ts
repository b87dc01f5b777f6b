import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, coresAvailable, loadConfig, settingNames, type Config } from '../src/config';

/** Production start-up: every missing or malformed setting is named, all of them in one message. */

const root = path.resolve(__dirname, '..', '..');
const jwtSecret = 'x'.repeat(40);
const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const serviceAccount = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'service_account',
    project_id: 'partsyard-prod',
    client_email: 'firebase-adminsdk@partsyard-prod.iam.gserviceaccount.com',
    private_key: privateKey,
    ...fields,
  });

describe('configuration for production (DATABASE_URL set)', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'partsyard-config-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /** A complete production environment, which the tests break one setting at a time. */
  const production = (changes: Record<string, string | undefined> = {}): NodeJS.ProcessEnv => ({
    DATA_DIR: dataDir,
    DATABASE_URL: 'postgres://shop:pw@db.example.test:5432/partsyard',
    JWT_SECRET: jwtSecret,
    FIREBASE_PROJECT_ID: 'partsyard-prod',
    FIREBASE_SERVICE_ACCOUNT: serviceAccount(),
    FIREBASE_API_KEY: 'AIzaSy-web-api-key',
    ...changes,
  });

  const failureOf = (env: NodeJS.ProcessEnv): ConfigError => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return error as ConfigError;
    }
    throw new Error('loadConfig accepted the environment');
  };
  const problemsOf = (env: NodeJS.ProcessEnv) => failureOf(env).problems;

  it('a complete environment starts production: PostgreSQL, real Firebase with the service account, no seed', () => {
    const config = loadConfig(production());
    expect(config.mode).toBe('production');
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://shop:pw@db.example.test:5432/partsyard',
      poolSize: 10,
    });
    expect(config.firebase).toMatchObject({
      projectId: 'partsyard-prod',
      emulatorHost: undefined,
      serviceAccountJson: serviceAccount(),
      webApiKey: 'AIzaSy-web-api-key',
      authDomain: 'partsyard-prod.firebaseapp.com',
    });
    expect(config.stripe).toBeNull();
    expect(config.seedDemo).toBe(false);
    expect(config.demoMode).toBe(false);
  });

  it('only DATABASE_URL set: the message names every other required setting, one line each', () => {
    const error = failureOf({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://db.example.test/partsyard' });
    expect(error.problems).toEqual([
      'JWT_SECRET is required when DATABASE_URL is set (32 characters or more)',
      'FIREBASE_PROJECT_ID is required when DATABASE_URL is set',
      'FIREBASE_SERVICE_ACCOUNT (the service account key JSON for firebase-admin) is required when DATABASE_URL is set, unless FIREBASE_AUTH_EMULATOR_HOST names an Auth emulator',
      'FIREBASE_API_KEY (the web API key of the Firebase project) is required when DATABASE_URL is set',
    ]);
    expect(error.message).toMatch(/^Configuration is not valid:\n {2}- JWT_SECRET is required/);
    expect(error.message).toContain('.env.example');
  });

  it.each([
    ['mysql://db.example.test/partsyard', 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    ['postgres:/db.example.test/partsyard', 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
  ])('DATABASE_URL "%s" is named as malformed', (url, message) => {
    expect(problemsOf(production({ DATABASE_URL: url }))).toEqual([message]);
  });

  it('JWT_SECRET missing or shorter than 32 characters is named', () => {
    expect(problemsOf(production({ JWT_SECRET: undefined }))).toEqual([
      'JWT_SECRET is required when DATABASE_URL is set (32 characters or more)',
    ]);
    expect(problemsOf(production({ JWT_SECRET: 'short-secret' }))).toEqual([
      'JWT_SECRET must be at least 32 characters long',
    ]);
  });

  it.each([
    ['3600', 3600],
    ['90s', 90],
    ['30m', 1800],
    ['12h', 43_200],
    ['7d', 604_800],
    [' 2H ', 7200],
    [undefined, 900],
  ])('JWT_EXPIRES_IN %j is %d seconds (a bare number is seconds, as documented)', (value, seconds) => {
    expect(loadConfig(production({ JWT_EXPIRES_IN: value })).jwt.expiresInSeconds).toBe(seconds);
  });

  it('by default an access token lives at most 15 minutes: how long a deleted or disabled Firebase account keeps access', () => {
    expect(loadConfig(production()).jwt.expiresInSeconds).toBeLessThanOrEqual(15 * 60);
    expect(loadConfig({ DATA_DIR: dataDir }).jwt.expiresInSeconds).toBeLessThanOrEqual(15 * 60);
  });

  it.each(['twelve hours', '0', '1.5h', '-5m', '10ms', '3w', '1e3', '99999999999'])(
    'JWT_EXPIRES_IN "%s" is named as malformed',
    (value) => {
      expect(problemsOf(production({ JWT_EXPIRES_IN: value }))).toEqual([
        `JWT_EXPIRES_IN must be whole seconds or a whole number with a unit (90s, 30m, 12h, 7d), got "${value.trim()}"`,
      ]);
    },
  );

  it('JWT_SECRET of exactly 32 characters is accepted; 31 is not', () => {
    expect(loadConfig(production({ JWT_SECRET: 's'.repeat(32) })).jwt.secret).toBe('s'.repeat(32));
    expect(problemsOf(production({ JWT_SECRET: 's'.repeat(31) }))).toEqual([
      'JWT_SECRET must be at least 32 characters long',
    ]);
  });

  it('FIREBASE_AUTH_EMULATOR_HOST in production is refused unless ALLOW_AUTH_EMULATOR=true says it is meant', () => {
    const withEmulator = (changes: Record<string, string | undefined> = {}) =>
      production({ FIREBASE_SERVICE_ACCOUNT: undefined, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099', ...changes });
    expect(problemsOf(withEmulator())).toEqual([
      'FIREBASE_AUTH_EMULATOR_HOST is set with DATABASE_URL: the Auth emulator accepts unsigned ID tokens, so anyone could sign in as anyone. Unset it to use Firebase, or set ALLOW_AUTH_EMULATOR=true for staging and tests only',
    ]);
    expect(problemsOf(withEmulator({ ALLOW_AUTH_EMULATOR: 'false' }))).toHaveLength(1);
    expect(problemsOf(withEmulator({ ALLOW_AUTH_EMULATOR: 'yes' }))).toEqual([
      'ALLOW_AUTH_EMULATOR must be true or false, got "yes"',
      'FIREBASE_AUTH_EMULATOR_HOST is set with DATABASE_URL: the Auth emulator accepts unsigned ID tokens, so anyone could sign in as anyone. Unset it to use Firebase, or set ALLOW_AUTH_EMULATOR=true for staging and tests only',
    ]);
    expect(loadConfig(withEmulator({ ALLOW_AUTH_EMULATOR: 'true' })).firebase.emulatorHost).toBe('127.0.0.1:9099');
    // The embedded default uses its emulator without being told.
    expect(loadConfig({ DATA_DIR: dataDir }).firebase.emulatorHost).toBe('127.0.0.1:9099');
  });

  it('the server process itself refuses to start (exit 2) with FIREBASE_AUTH_EMULATOR_HOST in production', () => {
    const env = Object.fromEntries(
      Object.entries({
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...production({ FIREBASE_SERVICE_ACCOUNT: undefined, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' }),
      }).filter(([, value]) => value !== undefined),
    );
    const started = spawnSync('node', ['--import', 'tsx', 'api/src/main.ts'], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect({
      status: started.status,
      refused: /FIREBASE_AUTH_EMULATOR_HOST is set with DATABASE_URL/.test(started.stderr),
    }).toEqual({ status: 2, refused: true });
  }, 40_000);

  it('FIREBASE_PROJECT_ID missing or not a project id is named', () => {
    expect(problemsOf(production({ FIREBASE_PROJECT_ID: undefined }))).toEqual([
      'FIREBASE_PROJECT_ID is required when DATABASE_URL is set',
    ]);
    expect(
      problemsOf(
        production({
          FIREBASE_PROJECT_ID: 'My Project',
          FIREBASE_SERVICE_ACCOUNT: undefined,
          FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
          ALLOW_AUTH_EMULATOR: 'true',
        }),
      ),
    ).toEqual(['FIREBASE_PROJECT_ID must be a Firebase project id (lower-case letters, digits, -), got "My Project"']);
  });

  describe('the service account', () => {
    it('is required with real Firebase', () => {
      expect(problemsOf(production({ FIREBASE_SERVICE_ACCOUNT: undefined }))).toEqual([
        'FIREBASE_SERVICE_ACCOUNT (the service account key JSON for firebase-admin) is required when DATABASE_URL is set, unless FIREBASE_AUTH_EMULATOR_HOST names an Auth emulator',
      ]);
    });

    it('must parse as JSON', () => {
      expect(problemsOf(production({ FIREBASE_SERVICE_ACCOUNT: '{"project_id": "partsyard-prod",' }))).toEqual([
        'FIREBASE_SERVICE_ACCOUNT must be the service account key as JSON (it does not parse as JSON)',
      ]);
      expect(problemsOf(production({ FIREBASE_SERVICE_ACCOUNT: '"a string"' }))).toEqual([
        'FIREBASE_SERVICE_ACCOUNT must be a JSON object (the service account key file)',
      ]);
    });

    it('must have project_id, client_email and private_key', () => {
      expect(problemsOf(production({ FIREBASE_SERVICE_ACCOUNT: JSON.stringify({ type: 'service_account' }) }))).toEqual(
        ['FIREBASE_SERVICE_ACCOUNT lacks project_id, client_email, private_key'],
      );
      expect(problemsOf(production({ FIREBASE_SERVICE_ACCOUNT: serviceAccount({ client_email: '' }) }))).toEqual([
        'FIREBASE_SERVICE_ACCOUNT lacks client_email',
      ]);
    });

    it('must carry a private key that parses, for the configured project', () => {
      expect(
        problemsOf(production({ FIREBASE_SERVICE_ACCOUNT: serviceAccount({ private_key: 'not a key' }) })),
      ).toEqual(['FIREBASE_SERVICE_ACCOUNT has a private_key that is not a PEM private key']);
      expect(
        problemsOf(production({ FIREBASE_SERVICE_ACCOUNT: serviceAccount({ project_id: 'someone-else' }) })),
      ).toEqual(['FIREBASE_SERVICE_ACCOUNT is for project "someone-else" but FIREBASE_PROJECT_ID is "partsyard-prod"']);
    });

    it('is not needed with an Auth emulator, which also makes FIREBASE_API_KEY optional', () => {
      const config = loadConfig(
        production({
          FIREBASE_SERVICE_ACCOUNT: undefined,
          FIREBASE_API_KEY: undefined,
          FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
          ALLOW_AUTH_EMULATOR: 'true',
        }),
      );
      expect(config.firebase).toMatchObject({ emulatorHost: '127.0.0.1:9099', serviceAccountJson: undefined });
      expect(problemsOf(production({ FIREBASE_AUTH_EMULATOR_HOST: 'localhost', ALLOW_AUTH_EMULATOR: 'true' }))).toEqual(
        ['FIREBASE_AUTH_EMULATOR_HOST must be host:port, got "localhost"'],
      );
    });
  });

  it('FIREBASE_API_KEY is required with real Firebase', () => {
    expect(problemsOf(production({ FIREBASE_API_KEY: ' ' }))).toEqual([
      'FIREBASE_API_KEY (the web API key of the Firebase project) is required when DATABASE_URL is set',
    ]);
  });

  describe('Stripe', () => {
    const stripe = {
      STRIPE_SECRET_KEY: 'sk_live_abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
    };

    it('no Stripe key at all: the test gateway, nothing named', () => {
      expect(loadConfig(production()).stripe).toBeNull();
    });

    it('all three keys switch payments to Stripe', () => {
      expect(loadConfig(production(stripe)).stripe).toMatchObject({
        secretKey: 'sk_live_abc',
        publishableKey: 'pk_live_abc',
        webhookSecret: 'whsec_abc',
      });
    });

    it('any one key set: each missing or malformed other key is named', () => {
      expect(problemsOf(production({ STRIPE_PUBLISHABLE_KEY: 'pk_live_abc' }))).toEqual([
        'STRIPE_SECRET_KEY must start with sk_',
        'STRIPE_WEBHOOK_SECRET must start with whsec_',
      ]);
      expect(problemsOf(production({ ...stripe, STRIPE_SECRET_KEY: 'pk_live_wrong' }))).toEqual([
        'STRIPE_SECRET_KEY must start with sk_',
      ]);
    });

    it('the API address overrides (a local Stripe-compatible server) are checked', () => {
      expect(problemsOf(production({ ...stripe, STRIPE_API_PROTOCOL: 'ftp', STRIPE_API_PORT: 'twelve' }))).toEqual([
        'STRIPE_API_PROTOCOL must be http or https',
        'STRIPE_API_PORT must be a port number, got "twelve"',
      ]);
    });
  });

  it('malformed optional settings are named: pool size, port, flags, admin emails, CORS origins', () => {
    expect(
      problemsOf(
        production({
          DATABASE_POOL_SIZE: '0',
          PORT: 'http',
          LOG_REQUESTS: 'no',
          ADMIN_EMAILS: 'boss@example.test, not-an-email',
          CORS_ORIGINS: 'https://partner.example, partner.example, https://partner.example/app',
        }),
      ),
    ).toEqual([
      'PORT must be a port number, got "http"',
      'DATABASE_POOL_SIZE must be a whole number of 1 or more',
      'LOG_REQUESTS must be true or false, got "no"',
      'ADMIN_EMAILS has "not-an-email", which is not an email address',
      'CORS_ORIGINS has "partner.example", which is not an origin like https://partner.example',
      'CORS_ORIGINS has "https://partner.example/app", which is not an origin like https://partner.example',
    ]);
  });

  describe('rate limits', () => {
    it('default to limits generous for people and tight for scripts', () => {
      expect(loadConfig(production()).rateLimits).toEqual({
        signInPerAddress: { max: 30, windowMs: 10 * 60_000 },
        signInPerEmail: { max: 10, windowMs: 10 * 60_000 },
        contactPerAddress: { max: 10, windowMs: 60 * 60_000 },
        contactPerRecipient: { max: 3, windowMs: 24 * 60 * 60_000 },
        ordersPerUser: { max: 30, windowMs: 60 * 60_000 },
        ordersPerAddress: { max: 60, windowMs: 60 * 60_000 },
        paymentIntentsPerUser: { max: 60, windowMs: 60 * 60_000 },
      });
    });

    it('are set as attempts per window (s, m or h), or off', () => {
      const config = loadConfig(
        production({
          RATE_LIMIT_SIGN_IN_PER_ADDRESS: '100/15m',
          RATE_LIMIT_SIGN_IN_PER_EMAIL: '5 / 30s',
          RATE_LIMIT_CONTACT_PER_ADDRESS: '3/2h',
          RATE_LIMIT_CONTACT_PER_RECIPIENT: '5/48h',
          RATE_LIMIT_ORDERS_PER_USER: 'off',
          RATE_LIMIT_ORDERS_PER_ADDRESS: 'OFF',
          RATE_LIMIT_PAYMENT_INTENTS: '10/5m',
        }),
      );
      expect(config.rateLimits).toEqual({
        signInPerAddress: { max: 100, windowMs: 15 * 60_000 },
        signInPerEmail: { max: 5, windowMs: 30_000 },
        contactPerAddress: { max: 3, windowMs: 2 * 3_600_000 },
        contactPerRecipient: { max: 5, windowMs: 48 * 3_600_000 },
        ordersPerUser: null,
        ordersPerAddress: null,
        paymentIntentsPerUser: { max: 10, windowMs: 5 * 60_000 },
      });
    });

    it('malformed values are named', () => {
      expect(
        problemsOf(
          production({
            RATE_LIMIT_SIGN_IN_PER_ADDRESS: '30',
            RATE_LIMIT_SIGN_IN_PER_EMAIL: '0/10m',
            RATE_LIMIT_CONTACT_PER_ADDRESS: '10/1d',
            RATE_LIMIT_ORDERS_PER_USER: 'none',
            RATE_LIMIT_ORDERS_PER_ADDRESS: '10/0s',
          }),
        ),
      ).toEqual([
        'RATE_LIMIT_SIGN_IN_PER_ADDRESS must be attempts per window like 30/10m (window in s, m or h), or off; got "30"',
        'RATE_LIMIT_SIGN_IN_PER_EMAIL must be attempts per window like 30/10m (window in s, m or h), or off; got "0/10m"',
        'RATE_LIMIT_CONTACT_PER_ADDRESS must be attempts per window like 30/10m (window in s, m or h), or off; got "10/1d"',
        'RATE_LIMIT_ORDERS_PER_USER must be attempts per window like 30/10m (window in s, m or h), or off; got "none"',
        'RATE_LIMIT_ORDERS_PER_ADDRESS must be attempts per window like 30/10m (window in s, m or h), or off; got "10/0s"',
      ]);
    });
  });

  describe('unpaid orders and the sweeps', () => {
    it('default to a one-hour reservation, 10 unpaid orders and $10,000 unpaid per customer, a sweep every 15 s', () => {
      const config = loadConfig(production());
      expect(config.orders).toEqual({
        unpaidExpiryMs: 3_600_000,
        unpaidPerCustomer: 10,
        unpaidValuePerCustomerCents: 1_000_000,
      });
      expect(config.sweepIntervalMs).toBe(15_000);
    });

    it.each([
      ['90s', 90_000],
      ['30m', 1_800_000],
      ['24h', 86_400_000],
      ['2d', 172_800_000],
      ['600', 600_000],
      [' 45 M ', 2_700_000],
    ])('UNPAID_ORDER_EXPIRY=%s is %d ms', (value, ms) => {
      expect(loadConfig(production({ UNPAID_ORDER_EXPIRY: value })).orders.unpaidExpiryMs).toBe(ms);
    });

    it('durations jsonwebtoken would read (or read otherwise) are named, with the setting', () => {
      const message = (value: string) =>
        `UNPAID_ORDER_EXPIRY must be a duration like 90s, 30m or 24h (or whole seconds) from 1s to 30d, got "${value}"`;
      for (const value of ['1.5h', '2 days', '100ms', '1w', 'an hour', '-5m', '0s', '31d', '1y'])
        expect(problemsOf(production({ UNPAID_ORDER_EXPIRY: value }))).toEqual([message(value)]);
    });

    it('UNPAID_ORDERS_PER_CUSTOMER is a whole number from 1 to 1000', () => {
      expect(loadConfig(production({ UNPAID_ORDERS_PER_CUSTOMER: '3' })).orders.unpaidPerCustomer).toBe(3);
      for (const value of ['0', '-1', '2.5', 'ten', '1001'])
        expect(problemsOf(production({ UNPAID_ORDERS_PER_CUSTOMER: value }))).toEqual([
          `UNPAID_ORDERS_PER_CUSTOMER must be a whole number from 1 to 1000, got "${value}"`,
        ]);
    });

    it('UNPAID_VALUE_PER_CUSTOMER is whole dollars from 1 to 100000000, kept in cents', () => {
      expect(loadConfig(production({ UNPAID_VALUE_PER_CUSTOMER: '2500' })).orders.unpaidValuePerCustomerCents).toBe(
        250_000,
      );
      for (const value of ['0', '-1', '2500.50', '$2500', 'ten', '100000001'])
        expect(problemsOf(production({ UNPAID_VALUE_PER_CUSTOMER: value }))).toEqual([
          `UNPAID_VALUE_PER_CUSTOMER must be whole dollars from 1 to 100000000, got "${value}"`,
        ]);
    });

    it('HTTP_HEADERS_TIMEOUT, HTTP_REQUEST_TIMEOUT, HTTP_KEEP_ALIVE_TIMEOUT: durations from 1s to 5m (defaults 10s, 30s, 5s)', () => {
      expect(loadConfig(production({})).http).toEqual({
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
      });
      expect(
        loadConfig(
          production({ HTTP_HEADERS_TIMEOUT: '5s', HTTP_REQUEST_TIMEOUT: '1m', HTTP_KEEP_ALIVE_TIMEOUT: '65' }),
        ).http,
      ).toEqual({ headersTimeoutMs: 5000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 65_000 });
      for (const value of ['0s', '6m', 'slow'])
        expect(problemsOf(production({ HTTP_KEEP_ALIVE_TIMEOUT: value }))).toEqual([
          `HTTP_KEEP_ALIVE_TIMEOUT must be a duration like 90s, 30m or 24h (or whole seconds) from 1s to 5m, got "${value}"`,
        ]);
      expect(problemsOf(production({ HTTP_HEADERS_TIMEOUT: '40s' }))).toEqual([
        'HTTP_HEADERS_TIMEOUT must not be longer than HTTP_REQUEST_TIMEOUT',
      ]);
    });

    it('REDIS_URL is a redis:// or rediss:// URL; REDIS_KEY_PREFIX a short name (default partsyard)', () => {
      expect(loadConfig(production({})).redisUrl).toBeUndefined();
      const config = loadConfig(production({ REDIS_URL: 'redis://cache:6379/0', REDIS_KEY_PREFIX: 'shop-2' }));
      expect([config.redisUrl, config.redisKeyPrefix]).toEqual(['redis://cache:6379/0', 'shop-2']);
      expect(problemsOf(production({ REDIS_URL: 'http://cache:6379' }))).toEqual([
        'REDIS_URL must be a redis:// or rediss:// URL',
      ]);
      expect(problemsOf(production({ REDIS_KEY_PREFIX: 'a b' }))).toEqual([
        'REDIS_KEY_PREFIX must be 1 to 64 letters, digits, _, . or -, got "a b"',
      ]);
    });

    it('METRICS_TOKEN: 16 printable characters or more, no spaces (unset by default)', () => {
      expect(loadConfig(production({})).metricsToken).toBeUndefined();
      expect(loadConfig(production({})).graphqlCompileAfter).toBe(10);
      expect(loadConfig(production({})).overviewMaxAgeMs).toBe(5_000);
      expect(loadConfig(production({ METRICS_TOKEN: 'scrape-me-0123456789' })).metricsToken).toBe(
        'scrape-me-0123456789',
      );
      for (const value of ['short', 'has a space in it 0123'])
        expect(problemsOf(production({ METRICS_TOKEN: value }))).toEqual([
          'METRICS_TOKEN must be 16 printable characters or more, without spaces',
        ]);
    });

    it('SWEEP_INTERVAL is a duration from 1s to 30s (expired stock is back within a minute)', () => {
      expect(loadConfig(production({ SWEEP_INTERVAL: '5s' })).sweepIntervalMs).toBe(5000);
      for (const value of ['0s', '1m', '45s', 'often'])
        expect(problemsOf(production({ SWEEP_INTERVAL: value }))).toEqual([
          `SWEEP_INTERVAL must be a duration like 90s, 30m or 24h (or whole seconds) from 1s to 30s, got "${value}"`,
        ]);
    });
  });

  it('IMPORT_STALE_AFTER is a duration from 15s to 10m (longer than a few heartbeats)', () => {
    expect(loadConfig(production({})).importStaleAfterMs).toBe(60_000);
    expect(loadConfig(production({ IMPORT_STALE_AFTER: '2m' })).importStaleAfterMs).toBe(120_000);
    for (const value of ['5s', '1h', 'soon'])
      expect(problemsOf(production({ IMPORT_STALE_AFTER: value }))).toEqual([
        `IMPORT_STALE_AFTER must be a duration like 90s, 30m or 24h (or whole seconds) from 15s to 10m, got "${value}"`,
      ]);
  });

  describe('stopping behind a load balancer (SHUTDOWN_DELAY)', () => {
    it('is 0 unless set: SIGTERM stops listening at once, as `npm start` wants', () => {
      expect(loadConfig(production({})).shutdownDelayMs).toBe(0);
      expect(loadConfig({ DATA_DIR: dataDir }).shutdownDelayMs).toBe(0);
    });

    it.each([
      ['0', 0],
      ['0s', 0],
      ['1', 1000],
      ['10s', 10_000],
      ['1m', 60_000],
    ])('SHUTDOWN_DELAY=%s is %d ms', (value, ms) => {
      expect(loadConfig(production({ SHUTDOWN_DELAY: value })).shutdownDelayMs).toBe(ms);
    });

    it('refuses what is no duration from 0 to 60s, saying so', () => {
      for (const value of ['61s', '2m', '-1', '1.5s', 'soon'])
        expect(problemsOf(production({ SHUTDOWN_DELAY: value }))).toEqual([
          `SHUTDOWN_DELAY must be a duration like 90s, 30m or 24h (or whole seconds) from 0 to 60s, got "${value}"`,
        ]);
    });
  });

  describe("a worker's memory (WORKER_HEAP_LIMIT)", () => {
    it('is 256 MiB of old generation per worker unless set, from 128 to 16384', () => {
      expect(loadConfig(production({})).workerHeapLimitMiB).toBe(256);
      expect(loadConfig(production({ WORKER_HEAP_LIMIT: '128' })).workerHeapLimitMiB).toBe(128);
      expect(loadConfig(production({ WORKER_HEAP_LIMIT: '1024' })).workerHeapLimitMiB).toBe(1024);
      for (const value of ['64', '20000', '256m', 'lots'])
        expect(problemsOf(production({ WORKER_HEAP_LIMIT: value }))).toEqual([
          `WORKER_HEAP_LIMIT must be a whole number of MiB from 128 to 16384, got "${value}"`,
        ]);
    });
  });

  describe('order emails (SMTP_URL, MAIL_FROM)', () => {
    it('without SMTP_URL no mail server is used (mail stays queued), from a default sender', () => {
      const config = loadConfig(production());
      expect(config.mail).toEqual({
        smtpUrl: undefined,
        from: 'PartsYard <orders@partsyard.localhost>',
        pollIntervalMs: 2000,
      });
    });

    it('SMTP_URL and MAIL_FROM are taken as given', () => {
      const config = loadConfig(
        production({ SMTP_URL: 'smtps://user:pw@mail.example:465', MAIL_FROM: 'Shop <orders@shop.example>' }),
      );
      expect(config.mail).toMatchObject({
        smtpUrl: 'smtps://user:pw@mail.example:465',
        from: 'Shop <orders@shop.example>',
      });
      expect(loadConfig(production({ MAIL_FROM: 'orders@shop.example' })).mail.from).toBe('orders@shop.example');
    });

    it('a SMTP_URL that is not smtp:// or smtps://, or a MAIL_FROM that is not an address, is named', () => {
      for (const value of ['mail.example:25', 'http://mail.example', 'smtp://'])
        expect(problemsOf(production({ SMTP_URL: value }))).toEqual([
          'SMTP_URL must be an smtp:// or smtps:// URL like smtps://user:password@mail.example:465',
        ]);
      for (const value of ['orders', 'Shop <orders>', 'a@b.example\r\nBcc: x@y.example'])
        expect(problemsOf(production({ MAIL_FROM: value }))).toEqual([
          `MAIL_FROM must be an address or Name <address>, got "${value}"`,
        ]);
    });
  });

  describe('at the bounds (the schema of config.ts)', () => {
    it.each([
      ['JWT_EXPIRES_IN', '1', (c: Config) => c.jwt.expiresInSeconds, 1],
      ['JWT_EXPIRES_IN', '90s', (c: Config) => c.jwt.expiresInSeconds, 90],
      ['JWT_EXPIRES_IN', '30m', (c: Config) => c.jwt.expiresInSeconds, 1800],
      ['JWT_EXPIRES_IN', '24h', (c: Config) => c.jwt.expiresInSeconds, 86_400],
      ['UNPAID_ORDER_EXPIRY', '1s', (c: Config) => c.orders.unpaidExpiryMs, 1000],
      ['UNPAID_ORDER_EXPIRY', '30d', (c: Config) => c.orders.unpaidExpiryMs, 30 * 86_400_000],
      ['UNPAID_ORDERS_PER_CUSTOMER', '1', (c: Config) => c.orders.unpaidPerCustomer, 1],
      ['UNPAID_ORDERS_PER_CUSTOMER', '1000', (c: Config) => c.orders.unpaidPerCustomer, 1000],
      ['UNPAID_VALUE_PER_CUSTOMER', '1', (c: Config) => c.orders.unpaidValuePerCustomerCents, 100],
      ['UNPAID_VALUE_PER_CUSTOMER', '100000000', (c: Config) => c.orders.unpaidValuePerCustomerCents, 10_000_000_000],
      ['GRAPHQL_COMPILE_AFTER', '1', (c: Config) => c.graphqlCompileAfter, 1],
      ['GRAPHQL_COMPILE_AFTER', '1000', (c: Config) => c.graphqlCompileAfter, 1000],
      ['OVERVIEW_MAX_AGE', '0', (c: Config) => c.overviewMaxAgeMs, 0],
      ['OVERVIEW_MAX_AGE', '60', (c: Config) => c.overviewMaxAgeMs, 60_000],
      ['SWEEP_INTERVAL', '1', (c: Config) => c.sweepIntervalMs, 1000],
      ['SWEEP_INTERVAL', '30s', (c: Config) => c.sweepIntervalMs, 30_000],
      ['HTTP_KEEP_ALIVE_TIMEOUT', '5m', (c: Config) => c.http.keepAliveTimeoutMs, 300_000],
      ['PORT', '65535', (c: Config) => c.port, 65535],
      ['PORT', '0', (c: Config) => c.port, 0],
      ['DATABASE_POOL_SIZE', '1', (c: Config) => (c.database.kind === 'postgres' ? c.database.poolSize : 0), 1],
      ['METRICS_TOKEN', 'm'.repeat(16), (c: Config) => c.metricsToken, 'm'.repeat(16)],
      ['REDIS_KEY_PREFIX', 'p'.repeat(64), (c: Config) => c.redisKeyPrefix, 'p'.repeat(64)],
      ['WORKERS', '1', (c: Config) => c.workers, 1],
      ['WORKERS', '64', (c: Config) => c.workers, 64],
      ['WORKERS', 'auto', (c: Config) => c.workers, coresAvailable()],
    ])('%s=%s is accepted at its bound', (name, value, read, expected) => {
      expect(read(loadConfig(production({ [name]: value })))).toBe(expected);
    });

    it.each([
      ['JWT_SECRET', 's'.repeat(31), 'JWT_SECRET must be at least 32 characters long'],
      ['UNPAID_ORDER_EXPIRY', String(30 * 86_400 + 1), 'UNPAID_ORDER_EXPIRY must be a duration'],
      ['UNPAID_ORDERS_PER_CUSTOMER', '1001', 'UNPAID_ORDERS_PER_CUSTOMER must be a whole number from 1 to 1000'],
      ['GRAPHQL_COMPILE_AFTER', '0', 'GRAPHQL_COMPILE_AFTER must be a whole number from 1 to 1000'],
      ['OVERVIEW_MAX_AGE', '61', 'OVERVIEW_MAX_AGE must be a whole number of seconds from 0 to 60'],
      ['OVERVIEW_MAX_AGE', '5s', 'OVERVIEW_MAX_AGE must be a whole number of seconds from 0 to 60'],
      ['SWEEP_INTERVAL', '31', 'SWEEP_INTERVAL must be a duration'],
      ['HTTP_KEEP_ALIVE_TIMEOUT', '301', 'HTTP_KEEP_ALIVE_TIMEOUT must be a duration'],
      ['PORT', '65536', 'PORT must be a port number'],
      ['DATABASE_POOL_SIZE', '0', 'DATABASE_POOL_SIZE must be a whole number of 1 or more'],
      ['METRICS_TOKEN', 'm'.repeat(15), 'METRICS_TOKEN must be 16 printable characters or more'],
      ['REDIS_KEY_PREFIX', 'p'.repeat(65), 'REDIS_KEY_PREFIX must be 1 to 64'],
      ['WORKERS', '0', 'WORKERS must be auto or a whole number from 1 to 64'],
      ['WORKERS', '65', 'WORKERS must be auto or a whole number from 1 to 64'],
      ['WORKERS', '2.5', 'WORKERS must be auto or a whole number from 1 to 64'],
    ])('%s=%s, one past its bound, is named', (name, value, start) => {
      const problems = problemsOf(production({ [name]: value }));
      expect(problems).toHaveLength(1);
      expect(problems[0].startsWith(start)).toBe(true);
    });

    it('an empty or blank setting is unset: its default applies', () => {
      const config = loadConfig(production({ PORT: ' ', JWT_EXPIRES_IN: '', SWEEP_INTERVAL: ' ', LOG_REQUESTS: '' }));
      expect([config.port, config.jwt.expiresInSeconds, config.sweepIntervalMs, config.logRequests]).toEqual([
        4000,
        900,
        15_000,
        true,
      ]);
    });

    it('every setting malformed at once: one message names them all, each line starting with its setting', () => {
      const malformed = Object.fromEntries(
        settingNames
          .filter(
            (name) =>
              ![
                'DATA_DIR',
                'HOST',
                'WEB_DIST_DIR',
                'FIREBASE_API_KEY',
                'FIREBASE_AUTH_DOMAIN',
                'STRIPE_API_HOST',
                // The seller's name, address and tax number on invoices: free text (only their length is bounded).
                'SHOP_NAME',
                'SHOP_ADDRESS',
                'SHOP_TAX_ID',
              ].includes(name),
          )
          .map((name) => [name, 'not valid here']),
      );
      const problems = problemsOf({ ...malformed, DATA_DIR: dataDir });
      for (const problem of problems)
        expect(settingNames.some((name) => problem.startsWith(`${name} `) || problem.startsWith(`${name}=`))).toBe(
          true,
        );
      const named = new Set(problems.map((problem) => /^[A-Z_]+/.exec(problem)?.[0]));
      expect(settingNames.filter((name) => malformed[name] !== undefined && !named.has(name))).toEqual([]);
      // A rule between settings is still checked: a malformed ALLOW_AUTH_EMULATOR allows no emulator in production.
      expect(problems).toContain(
        'FIREBASE_AUTH_EMULATOR_HOST is set with DATABASE_URL: the Auth emulator accepts unsigned ID tokens, so anyone could sign in as anyone. Unset it to use Firebase, or set ALLOW_AUTH_EMULATOR=true for staging and tests only',
      );
    });
  });

  it('WORKERS=auto: the cores the process may run on, fewer under a cgroup CPU limit, at least 1', () => {
    const limit = (text: string) => {
      const file = path.join(dataDir, 'cpu.max');
      writeFileSync(file, text);
      return coresAvailable(file);
    };
    expect(limit('max 100000\n')).toBe(os.availableParallelism());
    expect(limit('100000 100000\n')).toBe(1);
    expect(limit('150000 100000\n')).toBe(Math.min(2, os.availableParallelism()));
    expect(limit('1000 100000\n')).toBe(1);
    expect(limit('garbage')).toBe(os.availableParallelism());
    expect(coresAvailable(path.join(dataDir, 'no-such-file'))).toBe(os.availableParallelism());
  });

  it('the pool: 10 connections shared out over the workers unless DATABASE_POOL_SIZE is set, then that many each', () => {
    const pool = (env: Record<string, string>) => {
      const { database } = loadConfig(production(env));
      return database.kind === 'postgres' ? database.poolSize : 0;
    };
    expect([pool({}), pool({ WORKERS: '2' }), pool({ WORKERS: '3' }), pool({ WORKERS: '64' })]).toEqual([10, 5, 4, 2]);
    expect(pool({ WORKERS: '2', DATABASE_POOL_SIZE: '10' })).toBe(10);
    expect(pool({ WORKERS: '2', DATABASE_POOL_SIZE: '' })).toBe(5);
  });

  it('WORKERS: unset is one process; more than one needs PostgreSQL (PGlite lives in one process)', () => {
    expect(loadConfig(production()).workers).toBe(1);
    expect(loadConfig(production({ WORKERS: '3' })).workers).toBe(3);
    expect(problemsOf({ DATA_DIR: dataDir, WORKERS: '2' })).toEqual([
      'WORKERS is 2, but the embedded database (PGlite) lives in one process: more than one worker needs DATABASE_URL',
    ]);
    expect(loadConfig({ DATA_DIR: dataDir, WORKERS: '1' }).workers).toBe(1);
  });

  it('the demo seed (public passwords) is refused against real Firebase, allowed with an emulator', () => {
    expect(problemsOf(production({ SEED_DEMO: 'true' }))).toEqual([
      'SEED_DEMO=true needs an Auth emulator (FIREBASE_AUTH_EMULATOR_HOST): the demo passwords are public',
    ]);
    expect(problemsOf(production({ SEED_DEMO: 'yes' }))).toEqual(['SEED_DEMO must be true or false, got "yes"']);
    expect(
      loadConfig(
        production({ SEED_DEMO: 'true', FIREBASE_AUTH_EMULATOR_HOST: 'auth:9099', ALLOW_AUTH_EMULATOR: 'true' }),
      ).seedDemo,
    ).toBe(true);
  });
});

describe('.env.example', () => {
  const example = readFileSync(path.join(root, '.env.example'), 'utf8');
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  /** Every setting config.ts reads (the keys of its schema of the environment). */
  const settingsRead = settingNames;

  it('documents every setting config.ts reads, and the README names each of them', () => {
    expect(settingsRead.length).toBeGreaterThan(15);
    for (const name of settingsRead) {
      expect({ name, inExample: new RegExp(`^#? ?${name}=`, 'm').test(example) }).toEqual({
        name,
        inExample: true,
      });
      expect({ name, inReadme: readme.includes(`\`${name}\``) }).toEqual({ name, inReadme: true });
    }
  });

  it('documents nothing config.ts does not read (besides npm start’s emulator and mail catcher ports and compose’s own)', () => {
    const documented = [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    const notTheApis = [
      'AUTH_EMULATOR_PORT',
      'AUTH_EMULATOR_HUB_PORT',
      'AUTH_EMULATOR_LOGGING_PORT',
      'MAILDEV_SMTP_PORT',
      'MAILDEV_WEB_PORT',
      'POSTGRES_PASSWORD',
      'APP_PORT',
    ];
    expect(documented.filter((name) => !settingsRead.includes(name) && !notTheApis.includes(name))).toEqual([]);
  });
});
