import { createPrivateKey, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The one place that reads the environment. Everything else receives a Config.
 * Mode: `embedded` (nothing configured: PGlite, the auth emulator, the test gateway) or
 * `production` (DATABASE_URL set; Firebase and Stripe from their settings).
 */
export interface Config {
  mode: 'embedded' | 'production';
  port: number;
  host: string;
  /** Where embedded data lives (PGlite files, the generated JWT secret, emulator exports). */
  dataDir: string;
  database: { kind: 'pglite'; dataDir: string | undefined } | { kind: 'postgres'; url: string; poolSize: number };
  firebase: {
    projectId: string;
    /**
     * host:port of the Auth emulator; when set, firebase-admin accepts the emulator's unsigned tokens. In
     * production mode only with ALLOW_AUTH_EMULATOR=true (staging and tests: anyone can sign in as anyone).
     */
    emulatorHost: string | undefined;
    /** Service account JSON for production (else Application Default Credentials). */
    serviceAccountJson: string | undefined;
    /** Web configuration handed to the browser's identity SDK. */
    webApiKey: string;
    authDomain: string;
  };
  /** Our access tokens: the signing secret and their lifetime in whole seconds. */
  jwt: { secret: string; expiresInSeconds: number };
  adminEmails: string[];
  stripe: {
    secretKey: string;
    publishableKey: string;
    webhookSecret: string;
    /** Overrides for the Stripe API address (tests point the SDK at a local server). */
    apiHost: string | undefined;
    apiPort: number | undefined;
    apiProtocol: 'http' | 'https' | undefined;
  } | null;
  /** Seed demo parts, reviews and the two demo accounts into an empty database. */
  seedDemo: boolean;
  /** The embedded default with its demo accounts: the login form may be prefilled. */
  demoMode: boolean;
  /** Where the built web app is (served at /). */
  webDistDir: string;
  logRequests: boolean;
  /** Origins allowed to call the API from another site (CORS); none by default. */
  corsOrigins: string[];
  /** Attempts allowed per caller and window (api/src/http/rateLimit.ts); null turns a rule off. */
  rateLimits: RateLimits;
  orders: OrderLimits;
  /**
   * How often this process runs the database sweeps (expiring unpaid orders, reconciling payment intents):
   * a timer that only triggers statements safe to run on any number of replicas at once. Null: no timer
   * (the tests run the sweeps themselves).
   */
  sweepIntervalMs: number | null;
}

/** What one customer's unpaid orders may hold (issue 11: stock cannot be held hostage). */
export interface OrderLimits {
  /** How long an unpaid order holds its stock; then it expires and the stock goes back on sale. */
  unpaidExpiryMs: number;
  /** How many unpaid orders one customer may hold at once. */
  unpaidPerCustomer: number;
}

export const defaultOrderLimits: OrderLimits = { unpaidExpiryMs: 60 * 60_000, unpaidPerCustomer: 10 };
/** The sweeps' default period: expired stock is back within this (plus the sweep's own run time). */
export const defaultSweepIntervalMs = 15_000;

/** At most `max` attempts per key in each window of `windowMs`. */
export interface RateLimitRule {
  max: number;
  windowMs: number;
}

export interface RateLimits {
  /** Exchanges of a Firebase ID token for our access token (`signIn`, REST PUT /api/user/{email}). */
  signInPerAddress: RateLimitRule | null;
  signInPerEmail: RateLimitRule | null;
  /** Contact form messages (`sendContactMessage`, POST /api/contact). */
  contactPerAddress: RateLimitRule | null;
  /** Orders placed (`placeOrder`, POST /api/orders): unpaid orders hold stock. */
  ordersPerUser: RateLimitRule | null;
  ordersPerAddress: RateLimitRule | null;
}

/** Production defaults: generous for people, tight for scripts. Also the embedded default's. */
export const defaultRateLimits: RateLimits = {
  signInPerAddress: { max: 30, windowMs: 10 * 60_000 },
  signInPerEmail: { max: 10, windowMs: 10 * 60_000 },
  contactPerAddress: { max: 10, windowMs: 60 * 60_000 },
  ordersPerUser: { max: 30, windowMs: 60 * 60_000 },
  ordersPerAddress: { max: 60, windowMs: 60 * 60_000 },
};

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(
      `Configuration is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}\n` +
        'Every setting is described in .env.example and in the README.',
    );
    this.name = 'ConfigError';
  }
}

const repoRoot = path.resolve(__dirname, '..', '..');

function readOrCreateSecret(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

const durationUnits: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * A duration setting in whole seconds: a number of seconds (`3600`) or a number with a unit (`90s`, `30m`,
 * `12h`, `7d`). Parsed here, never handed on as text: jsonwebtoken reads a bare number in a string as
 * milliseconds.
 */
export function parseDurationSeconds(value: string): number | null {
  const match = /^(\d{1,9})\s*([smhd]?)$/i.exec(value.trim());
  if (!match) return null;
  const seconds = Number(match[1]) * durationUnits[(match[2] || 's').toLowerCase()];
  return seconds >= 1 && Number.isSafeInteger(seconds) ? seconds : null;
}

function parseBoolean(name: string, value: string | undefined, fallback: boolean, problems: string[]): boolean {
  const v = value?.trim().toLowerCase();
  if (!v) return fallback;
  if (v === 'true' || v === 'false') return v === 'true';
  problems.push(`${name} must be true or false, got "${value}"`);
  return fallback;
}

const windowUnits: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };

/** A rate limit setting: `<attempts>/<window>` (`30/10m`, `5/1h`, `20/30s`) or `off`. */
function parseRateLimit(
  name: string,
  value: string | undefined,
  fallback: RateLimitRule | null,
  problems: string[],
): RateLimitRule | null {
  const v = value?.trim().toLowerCase();
  if (!v) return fallback;
  if (v === 'off') return null;
  const match = /^(\d+)\s*\/\s*(\d+)\s*(s|m|h)$/.exec(v);
  const max = match ? Number(match[1]) : 0;
  const windowMs = match ? Number(match[2]) * windowUnits[match[3]] : 0;
  if (max >= 1 && windowMs >= 1000) return { max, windowMs };
  problems.push(`${name} must be attempts per window like 30/10m (window in s, m or h), or off; got "${value}"`);
  return fallback;
}

/**
 * A duration setting in milliseconds, written as parseDurationSeconds reads it (`90s`, `30m`, `24h`, `2d`, or
 * whole seconds), between `min` and `max` milliseconds.
 */
function parseDuration(
  name: string,
  value: string | undefined,
  bounds: { fallback: number; min: number; max: number; range: string },
  problems: string[],
): number {
  if (!value?.trim()) return bounds.fallback;
  const seconds = parseDurationSeconds(value);
  const ms = seconds === null ? NaN : seconds * 1000;
  if (ms >= bounds.min && ms <= bounds.max) return ms;
  problems.push(
    `${name} must be a duration like 90s, 30m or 24h (or whole seconds) from ${bounds.range}, got "${value}"`,
  );
  return bounds.fallback;
}

/** A whole number setting between `min` and `max`. */
function parseCount(
  name: string,
  value: string | undefined,
  bounds: { fallback: number; min: number; max: number },
  problems: string[],
): number {
  const v = value?.trim();
  if (!v) return bounds.fallback;
  const n = /^\d{1,9}$/.test(v) ? Number(v) : NaN;
  if (n >= bounds.min && n <= bounds.max) return n;
  problems.push(`${name} must be a whole number from ${bounds.min} to ${bounds.max}, got "${value}"`);
  return bounds.fallback;
}

function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

/**
 * firebase-admin reads the Auth emulator's address from the environment only, so the one module that owns
 * the environment hands it over, once the configuration has decided to use the emulator.
 */
export function exportFirebaseEmulatorHost(host: string): void {
  process.env.FIREBASE_AUTH_EMULATOR_HOST = host;
}

/**
 * Checks a service account key as the Firebase console downloads it (JSON with project_id, client_email,
 * private_key), so a truncated or mangled value stops the start instead of the first sign-in.
 */
function checkServiceAccount(json: string, projectId: string, problems: string[]): void {
  let account: unknown;
  try {
    account = JSON.parse(json);
  } catch {
    problems.push('FIREBASE_SERVICE_ACCOUNT must be the service account key as JSON (it does not parse as JSON)');
    return;
  }
  if (!account || typeof account !== 'object' || Array.isArray(account)) {
    problems.push('FIREBASE_SERVICE_ACCOUNT must be a JSON object (the service account key file)');
    return;
  }
  const fields = account as Record<string, unknown>;
  const missing = ['project_id', 'client_email', 'private_key'].filter(
    (f) => typeof fields[f] !== 'string' || !fields[f].trim(),
  );
  if (missing.length) {
    problems.push(`FIREBASE_SERVICE_ACCOUNT lacks ${missing.join(', ')}`);
    return;
  }
  try {
    createPrivateKey(fields.private_key as string);
  } catch {
    problems.push('FIREBASE_SERVICE_ACCOUNT has a private_key that is not a PEM private key');
  }
  if (projectId && fields.project_id !== projectId) {
    problems.push(
      `FIREBASE_SERVICE_ACCOUNT is for project "${String(fields.project_id)}" but FIREBASE_PROJECT_ID is "${projectId}"`,
    );
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  const mode = databaseUrl ? 'production' : 'embedded';
  const dataDir = path.resolve(repoRoot, env.DATA_DIR ?? '.data');

  const port = Number(env.PORT ?? 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push(`PORT must be a port number, got "${env.PORT}"`);

  if (databaseUrl && (!/^postgres(ql)?:\/\//.test(databaseUrl) || !URL.canParse(databaseUrl))) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }

  let jwtSecret = env.JWT_SECRET?.trim() ?? '';
  if (!jwtSecret) {
    if (mode === 'production') problems.push('JWT_SECRET is required when DATABASE_URL is set (32 characters or more)');
    else jwtSecret = readOrCreateSecret(path.join(dataDir, 'jwt-secret'));
  } else if (jwtSecret.length < 32) {
    problems.push('JWT_SECRET must be at least 32 characters long');
  }

  const jwtExpiresIn = env.JWT_EXPIRES_IN?.trim() || '12h';
  const jwtExpiresInSeconds = parseDurationSeconds(jwtExpiresIn);
  if (jwtExpiresInSeconds === null)
    problems.push(
      `JWT_EXPIRES_IN must be whole seconds or a whole number with a unit (90s, 30m, 12h, 7d), got "${jwtExpiresIn}"`,
    );

  const emulatorHost = env.FIREBASE_AUTH_EMULATOR_HOST?.trim() || (mode === 'embedded' ? '127.0.0.1:9099' : undefined);
  if (emulatorHost && !/^[\w.-]+:\d{1,5}$/.test(emulatorHost))
    problems.push(`FIREBASE_AUTH_EMULATOR_HOST must be host:port, got "${emulatorHost}"`);
  const allowAuthEmulator = parseBoolean('ALLOW_AUTH_EMULATOR', env.ALLOW_AUTH_EMULATOR, false, problems);
  if (mode === 'production' && emulatorHost && !allowAuthEmulator) {
    // The emulator's ID tokens carry no signature: anyone who can reach the server could sign in as anyone.
    problems.push(
      'FIREBASE_AUTH_EMULATOR_HOST is set with DATABASE_URL: the Auth emulator accepts unsigned ID tokens, so anyone could sign in as anyone. Unset it to use Firebase, or set ALLOW_AUTH_EMULATOR=true for staging and tests only',
    );
  }
  const projectId = env.FIREBASE_PROJECT_ID?.trim() || (mode === 'embedded' ? 'demo-partsyard' : '');
  if (!projectId) problems.push('FIREBASE_PROJECT_ID is required when DATABASE_URL is set');
  else if (!/^[a-z0-9][a-z0-9-]{3,61}$/.test(projectId))
    problems.push(
      `FIREBASE_PROJECT_ID must be a Firebase project id (lower-case letters, digits, -), got "${projectId}"`,
    );

  const serviceAccountJson = env.FIREBASE_SERVICE_ACCOUNT?.trim() || undefined;
  if (serviceAccountJson) checkServiceAccount(serviceAccountJson, projectId, problems);
  else if (mode === 'production' && !emulatorHost) {
    problems.push(
      'FIREBASE_SERVICE_ACCOUNT (the service account key JSON for firebase-admin) is required when DATABASE_URL is set, unless FIREBASE_AUTH_EMULATOR_HOST names an Auth emulator',
    );
  }

  const stripeKeys = [env.STRIPE_SECRET_KEY, env.STRIPE_PUBLISHABLE_KEY, env.STRIPE_WEBHOOK_SECRET].map(
    (v) => v?.trim() ?? '',
  );
  let stripe: Config['stripe'] = null;
  if (stripeKeys.some(Boolean)) {
    const [secretKey, publishableKey, webhookSecret] = stripeKeys;
    if (!secretKey.startsWith('sk_')) problems.push('STRIPE_SECRET_KEY must start with sk_');
    if (!publishableKey.startsWith('pk_')) problems.push('STRIPE_PUBLISHABLE_KEY must start with pk_');
    if (!webhookSecret.startsWith('whsec_')) problems.push('STRIPE_WEBHOOK_SECRET must start with whsec_');
    const protocol = env.STRIPE_API_PROTOCOL?.trim();
    if (protocol && protocol !== 'http' && protocol !== 'https')
      problems.push('STRIPE_API_PROTOCOL must be http or https');
    const apiPort = env.STRIPE_API_PORT?.trim() ? Number(env.STRIPE_API_PORT) : undefined;
    if (apiPort !== undefined && !(Number.isInteger(apiPort) && apiPort > 0 && apiPort <= 65535))
      problems.push(`STRIPE_API_PORT must be a port number, got "${env.STRIPE_API_PORT}"`);
    stripe = {
      secretKey,
      publishableKey,
      webhookSecret,
      apiHost: env.STRIPE_API_HOST?.trim() || undefined,
      apiPort,
      apiProtocol: (protocol as 'http' | 'https' | undefined) || undefined,
    };
  }

  const poolSize = Number(env.DATABASE_POOL_SIZE ?? 10);
  if (!Number.isInteger(poolSize) || poolSize < 1)
    problems.push('DATABASE_POOL_SIZE must be a whole number of 1 or more');

  if (mode === 'production' && !emulatorHost && !env.FIREBASE_API_KEY?.trim()) {
    problems.push('FIREBASE_API_KEY (the web API key of the Firebase project) is required when DATABASE_URL is set');
  }
  const seedDemo = parseBoolean('SEED_DEMO', env.SEED_DEMO, mode === 'embedded', problems);
  if (seedDemo && mode === 'production' && !emulatorHost) {
    // The demo accounts' passwords are published in the README: never create them in a real Firebase project.
    problems.push('SEED_DEMO=true needs an Auth emulator (FIREBASE_AUTH_EMULATOR_HOST): the demo passwords are public');
  }
  const logRequests = parseBoolean('LOG_REQUESTS', env.LOG_REQUESTS, true, problems);

  const adminEmails = splitList(env.ADMIN_EMAILS).map((e) => e.toLowerCase());
  for (const email of adminEmails.filter((e) => !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e)))
    problems.push(`ADMIN_EMAILS has "${email}", which is not an email address`);

  const corsOrigins = splitList(env.CORS_ORIGINS);
  for (const origin of corsOrigins) {
    const parsed = URL.canParse(origin) ? new URL(origin) : null;
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin)
      problems.push(`CORS_ORIGINS has "${origin}", which is not an origin like https://partner.example`);
  }

  const rateLimits: RateLimits = {
    signInPerAddress: parseRateLimit(
      'RATE_LIMIT_SIGN_IN_PER_ADDRESS',
      env.RATE_LIMIT_SIGN_IN_PER_ADDRESS,
      defaultRateLimits.signInPerAddress,
      problems,
    ),
    signInPerEmail: parseRateLimit(
      'RATE_LIMIT_SIGN_IN_PER_EMAIL',
      env.RATE_LIMIT_SIGN_IN_PER_EMAIL,
      defaultRateLimits.signInPerEmail,
      problems,
    ),
    contactPerAddress: parseRateLimit(
      'RATE_LIMIT_CONTACT_PER_ADDRESS',
      env.RATE_LIMIT_CONTACT_PER_ADDRESS,
      defaultRateLimits.contactPerAddress,
      problems,
    ),
    ordersPerUser: parseRateLimit(
      'RATE_LIMIT_ORDERS_PER_USER',
      env.RATE_LIMIT_ORDERS_PER_USER,
      defaultRateLimits.ordersPerUser,
      problems,
    ),
    ordersPerAddress: parseRateLimit(
      'RATE_LIMIT_ORDERS_PER_ADDRESS',
      env.RATE_LIMIT_ORDERS_PER_ADDRESS,
      defaultRateLimits.ordersPerAddress,
      problems,
    ),
  };

  const orders: OrderLimits = {
    unpaidExpiryMs: parseDuration(
      'UNPAID_ORDER_EXPIRY',
      env.UNPAID_ORDER_EXPIRY,
      { fallback: defaultOrderLimits.unpaidExpiryMs, min: 1000, max: 30 * 86_400_000, range: '1s to 30d' },
      problems,
    ),
    unpaidPerCustomer: parseCount(
      'UNPAID_ORDERS_PER_CUSTOMER',
      env.UNPAID_ORDERS_PER_CUSTOMER,
      { fallback: defaultOrderLimits.unpaidPerCustomer, min: 1, max: 1000 },
      problems,
    ),
  };
  // At most 30 s: expired stock must be back on sale within a minute of its expiry, whatever the sweep costs.
  const sweepIntervalMs = parseDuration(
    'SWEEP_INTERVAL',
    env.SWEEP_INTERVAL,
    { fallback: defaultSweepIntervalMs, min: 1000, max: 30_000, range: '1s to 30s' },
    problems,
  );

  if (problems.length) throw new ConfigError(problems);

  return {
    mode,
    port,
    host: env.HOST?.trim() || '0.0.0.0',
    dataDir,
    database: databaseUrl
      ? { kind: 'postgres', url: databaseUrl, poolSize }
      : { kind: 'pglite', dataDir: path.join(dataDir, 'pg') },
    firebase: {
      projectId,
      emulatorHost,
      serviceAccountJson,
      webApiKey: env.FIREBASE_API_KEY?.trim() || 'demo-api-key',
      authDomain: env.FIREBASE_AUTH_DOMAIN?.trim() || `${projectId}.firebaseapp.com`,
    },
    jwt: { secret: jwtSecret, expiresInSeconds: jwtExpiresInSeconds ?? 0 },
    adminEmails,
    stripe,
    seedDemo,
    demoMode: mode === 'embedded' && seedDemo,
    webDistDir: path.resolve(repoRoot, env.WEB_DIST_DIR ?? 'web/dist'),
    logRequests,
    corsOrigins,
    rateLimits,
    orders,
    sweepIntervalMs,
  };
}
