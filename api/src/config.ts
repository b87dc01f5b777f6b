import { createPrivateKey, randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

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
  /** Attempts allowed per caller and window (api/src/rateLimits.ts); null turns a rule off. */
  rateLimits: RateLimits;
  orders: OrderLimits;
  /**
   * How often this process runs the database sweeps (expiring unpaid orders, reconciling payment intents):
   * a timer that only triggers statements safe to run on any number of replicas at once. Null: no timer
   * (the tests run the sweeps themselves).
   */
  sweepIntervalMs: number | null;
  /**
   * When a running import whose heartbeat stopped (its process died) is failed by another replica's worker
   * (IMPORT_STALE_AFTER, default 60 s); the worker polls for queued imports every `sweepIntervalMs`.
   */
  importStaleAfterMs: number;
  mail: MailSettings;
  /** The seller its invoices name (SHOP_NAME, SHOP_ADDRESS, SHOP_TAX_ID). */
  seller: { name: string; address: string; taxId: string };
  /** How long a client may take over its request (slow clients must not hold sockets for minutes). */
  http: HttpTimeouts;
  /**
   * Redis for what replicas share (rate limit counters, the public answer cache's invalidations); unset: the
   * PostgreSQL database in production mode, this process's memory in the embedded default.
   */
  redisUrl: string | undefined;
  /** Prefix of this shop's Redis keys and channel (several shops, or test runs, may share one Redis). */
  redisKeyPrefix: string;
  /**
   * Bearer token /metrics asks for. Unset: /metrics is public in the embedded default and answers 404 in
   * production mode.
   */
  metricsToken: string | undefined;
  /**
   * How many times a signed-in caller's query is asked before it runs compiled (graphql/compiledExecution.ts);
   * 1 compiles at the first.
   */
  graphqlCompileAfter: number;
  /**
   * How many server processes answer on the port (node:cluster; api/src/cluster.ts): 1, or more on PostgreSQL
   * only (PGlite lives in one process). `WORKERS=auto` is one per core the process may use.
   */
  workers: number;
  /**
   * The V8 old-generation limit of each worker (`--max-old-space-size`, MiB) when `workers` is above 1, so that a
   * worker stays within its share of the machine's memory (README, "Memory").
   */
  workerHeapLimitMiB: number;
  /**
   * How long one admin overview may be answered again (services/overviewService.ts) while no write has been
   * made through this process or announced by a replica; 0 computes it for every request.
   */
  overviewMaxAgeMs: number;
  /**
   * On SIGTERM, how long the server goes on accepting and answering (with `Connection: close`) while /readyz
   * answers 503, before it stops listening and drains: the time a load balancer takes to see it is not ready.
   */
  shutdownDelayMs: number;
}

/** Access token life when JWT_EXPIRES_IN is unset: 15 minutes (the bound for a deleted Firebase account). */
export const defaultAccessTokenSeconds = 15 * 60;

/** Node's HTTP server timeouts (README, "Settings"). */
export interface HttpTimeouts {
  /** From the connection (or the end of the previous request) to the end of the request's headers. */
  headersTimeoutMs: number;
  /** From the connection (or the end of the previous request) to the end of the request's body. */
  requestTimeoutMs: number;
  /** How long a kept-alive connection may stay idle between requests. */
  keepAliveTimeoutMs: number;
}

export const defaultHttpTimeouts: HttpTimeouts = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

/**
 * Order emails (issue 14): written to the outbox table in the transaction of the change, delivered by a worker
 * over SMTP. Without `smtpUrl` nothing is delivered: the mail stays queued (and goes out once SMTP_URL is set).
 */
export interface MailSettings {
  /** smtp:// or smtps:// URL of the mail server (`npm start` sets its local catcher's); none: mail stays queued. */
  smtpUrl: string | undefined;
  /** The From header, `PartsYard <orders@shop.example>` or a bare address. */
  from: string;
  /** How often the worker looks for mail to send; null: no timer (tests deliver with `mailer.runOnce()`). */
  pollIntervalMs: number | null;
}

/** The seller on invoices when SHOP_NAME, SHOP_ADDRESS, SHOP_TAX_ID are unset. */
export const defaultSeller = {
  name: 'PartsYard',
  address: '12 Workshop Lane, Dhaka 1207, Bangladesh',
  taxId: 'BIN 000000000-0101',
};

export const defaultMailFrom = 'PartsYard <orders@partsyard.localhost>';
/** Mail waiting in the outbox goes out within this. */
export const defaultMailPollIntervalMs = 2_000;

/** What one customer's unpaid orders may hold (issue 11: stock cannot be held hostage). */
export interface OrderLimits {
  /** How long an unpaid order holds its stock; then it expires and the stock goes back on sale. */
  unpaidExpiryMs: number;
  /** How many unpaid orders one customer may hold at once. */
  unpaidPerCustomer: number;
  /**
   * What one customer's unpaid orders not yet due may cost together, in cents: the stock one account can keep off
   * sale (issue 32); paid orders do not count, so a buyer who pays as they go can still buy a part's whole stock.
   */
  unpaidValuePerCustomerCents: number;
}

/** A signed-in caller's query runs compiled once asked this many times (GRAPHQL_COMPILE_AFTER). */
export const defaultGraphqlCompileAfter = 10;
/** An admin overview is reused for at most this long (OVERVIEW_MAX_AGE), unless a write comes first. */
export const defaultOverviewMaxAgeMs = 5_000;

export const defaultOrderLimits: OrderLimits = {
  unpaidExpiryMs: 60 * 60_000,
  unpaidPerCustomer: 10,
  // $10,000: under 4 % of the demo catalog's $254,000, and below the whole stock of most of its parts.
  unpaidValuePerCustomerCents: 1_000_000,
};
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
  /** Confirmations of contact messages per recipient address (normalised); past it the message is kept unconfirmed. */
  contactPerRecipient: RateLimitRule | null;
  /** Orders placed (`placeOrder`, POST /api/orders): unpaid orders hold stock. */
  ordersPerUser: RateLimitRule | null;
  ordersPerAddress: RateLimitRule | null;
  /** Payment intents asked for (`createPaymentIntent`, POST /api/create-payment-intent): each may ask the gateway. */
  paymentIntentsPerUser: RateLimitRule | null;
}

/** Production defaults: generous for people, tight for scripts. Also the embedded default's. */
export const defaultRateLimits: RateLimits = {
  signInPerAddress: { max: 30, windowMs: 10 * 60_000 },
  signInPerEmail: { max: 10, windowMs: 10 * 60_000 },
  contactPerAddress: { max: 10, windowMs: 60 * 60_000 },
  contactPerRecipient: { max: 3, windowMs: 24 * 60 * 60_000 },
  ordersPerUser: { max: 30, windowMs: 60 * 60_000 },
  ordersPerAddress: { max: 60, windowMs: 60 * 60_000 },
  paymentIntentsPerUser: { max: 60, windowMs: 60 * 60_000 },
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

/*
 * The settings (README, "Settings"; .env.example) are one zod schema over the environment, `environment` below:
 * each key is a setting's name, its schema says what the setting may hold and what it becomes, and each problem
 * is reported under that name, so every message names its setting (ConfigError lists them all at once).
 * Settings whose meaning depends on others (what production requires, the Stripe keys as a set) are checked
 * by `acrossSettings`; `loadConfig` then fills in the defaults that depend on the mode.
 */

/** A setting as written: trimmed, and unset when empty. */
const written = z
  .string()
  .optional()
  .transform((value) => value?.trim() || undefined);
/** A setting read with `schema` when it is set. */
const setting = <T>(schema: z.ZodType<T, string>) => written.pipe(schema.optional());

/** Records a problem with the setting being read (its name is put in front by `problemsOf`). */
const problem = (ctx: z.RefinementCtx, message: string): never => {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
};

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

/** A duration in milliseconds (`90s`, `30m`, `24h`, `2d`, or whole seconds) from `min` to `max` ms. */
const duration = (min: number, max: number, range: string) =>
  z.string().transform((value, ctx) => {
    // Zero (`0`, `0s`) is a duration too, for the settings whose range starts there.
    const ms = /^0+\s*[smhd]?$/i.test(value.trim()) ? 0 : (parseDurationSeconds(value) ?? NaN) * 1000;
    if (ms >= min && ms <= max) return ms;
    return problem(ctx, `must be a duration like 90s, 30m or 24h (or whole seconds) from ${range}, got "${value}"`);
  });

/** `true` or `false`, in any case. */
const flag = z.string().transform((value, ctx) => {
  const v = value.toLowerCase();
  return v === 'true' || v === 'false' ? v === 'true' : problem(ctx, `must be true or false, got "${value}"`);
});

/** A whole number from `min` to `max`; `message` says so. */
const wholeNumber = (min: number, max: number, message: (value: string) => string) =>
  z.string().transform((value, ctx) => {
    const n = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
    return n >= min && n <= max ? n : problem(ctx, message(value));
  });
const portNumber = wholeNumber(0, 65535, (value) => `must be a port number, got "${value}"`);

const windowUnits: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };

/** A rate limit: `<attempts>/<window>` (`30/10m`, `5/1h`, `20/30s`), or `off` (null). */
const rateLimit = z.string().transform((value, ctx): RateLimitRule | null => {
  const v = value.toLowerCase();
  if (v === 'off') return null;
  const match = /^(\d+)\s*\/\s*(\d+)\s*(s|m|h)$/.exec(v);
  const max = match ? Number(match[1]) : 0;
  const windowMs = match ? Number(match[2]) * windowUnits[match[3]] : 0;
  if (max >= 1 && windowMs >= 1000) return { max, windowMs };
  return problem(ctx, `must be attempts per window like 30/10m (window in s, m or h), or off; got "${value}"`);
});

/** A comma-separated list whose items each pass `item` (a problem per bad item). */
const list = (item: z.ZodType<string, string>) =>
  z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item));

/** A URL of one of the given schemes (`prefix` a regular expression such as `^rediss?://`). */
const urlOf = (prefix: RegExp, message: string) =>
  z.string().refine((value) => prefix.test(value) && URL.canParse(value), message);

const emailAddress = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A service account key as the Firebase console downloads it (JSON with project_id, client_email,
 * private_key), so a truncated or mangled value stops the start instead of the first sign-in.
 */
const serviceAccount = z.string().transform((json, ctx) => {
  let account: unknown;
  try {
    account = JSON.parse(json);
  } catch {
    return problem(ctx, 'must be the service account key as JSON (it does not parse as JSON)');
  }
  if (!account || typeof account !== 'object' || Array.isArray(account))
    return problem(ctx, 'must be a JSON object (the service account key file)');
  const fields = account as Record<string, unknown>;
  const missing = ['project_id', 'client_email', 'private_key'].filter(
    (f) => typeof fields[f] !== 'string' || !fields[f].trim(),
  );
  if (missing.length) return problem(ctx, `lacks ${missing.join(', ')}`);
  try {
    createPrivateKey(fields.private_key as string);
  } catch {
    problem(ctx, 'has a private_key that is not a PEM private key');
  }
  return { json, projectId: fields.project_id as string };
});

/** The environment's settings, each under its own name. */
const environment = z
  .object({
    DATABASE_URL: setting(urlOf(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')),
    DATA_DIR: written,
    PORT: setting(portNumber),
    HOST: written,
    JWT_SECRET: setting(z.string().min(32, 'must be at least 32 characters long')),
    JWT_EXPIRES_IN: setting(
      z
        .string()
        .transform(
          (value, ctx) =>
            parseDurationSeconds(value) ??
            problem(ctx, `must be whole seconds or a whole number with a unit (90s, 30m, 12h, 7d), got "${value}"`),
        ),
    ),
    FIREBASE_AUTH_EMULATOR_HOST: setting(
      z.string().regex(/^[\w.-]+:\d{1,5}$/, { error: (issue) => `must be host:port, got "${String(issue.input)}"` }),
    ),
    ALLOW_AUTH_EMULATOR: setting(flag),
    FIREBASE_PROJECT_ID: setting(
      z.string().regex(/^[a-z0-9][a-z0-9-]{3,61}$/, {
        error: (issue) => `must be a Firebase project id (lower-case letters, digits, -), got "${String(issue.input)}"`,
      }),
    ),
    FIREBASE_SERVICE_ACCOUNT: setting(serviceAccount),
    FIREBASE_API_KEY: written,
    FIREBASE_AUTH_DOMAIN: written,
    STRIPE_SECRET_KEY: written,
    STRIPE_PUBLISHABLE_KEY: written,
    STRIPE_WEBHOOK_SECRET: written,
    STRIPE_API_HOST: written,
    STRIPE_API_PROTOCOL: setting(z.enum(['http', 'https'], 'must be http or https')),
    STRIPE_API_PORT: setting(wholeNumber(1, 65535, (value) => `must be a port number, got "${value}"`)),
    DATABASE_POOL_SIZE: setting(wholeNumber(1, 1e9, () => 'must be a whole number of 1 or more')),
    WORKERS: setting(
      z
        .string()
        .transform((value, ctx) =>
          value === 'auto'
            ? coresAvailable()
            : /^\d{1,3}$/.test(value) && Number(value) >= 1 && Number(value) <= 64
              ? Number(value)
              : problem(ctx, `must be auto or a whole number from 1 to 64, got "${value}"`),
        ),
    ),
    WORKER_HEAP_LIMIT: setting(
      wholeNumber(128, 16_384, (value) => `must be a whole number of MiB from 128 to 16384, got "${value}"`),
    ),
    SEED_DEMO: setting(flag),
    LOG_REQUESTS: setting(flag),
    ADMIN_EMAILS: setting(
      list(
        z
          .string()
          .transform((email) => email.toLowerCase())
          .pipe(
            z.string().regex(emailAddress, {
              error: (issue) => `has "${String(issue.input)}", which is not an email address`,
            }),
          ),
      ),
    ),
    CORS_ORIGINS: setting(
      list(
        z
          .string()
          .refine(
            (origin) =>
              URL.canParse(origin) && /^https?:$/.test(new URL(origin).protocol) && new URL(origin).origin === origin,
            { error: (issue) => `has "${String(issue.input)}", which is not an origin like https://partner.example` },
          ),
      ),
    ),
    RATE_LIMIT_SIGN_IN_PER_ADDRESS: setting(rateLimit),
    RATE_LIMIT_SIGN_IN_PER_EMAIL: setting(rateLimit),
    RATE_LIMIT_CONTACT_PER_ADDRESS: setting(rateLimit),
    RATE_LIMIT_CONTACT_PER_RECIPIENT: setting(rateLimit),
    RATE_LIMIT_ORDERS_PER_USER: setting(rateLimit),
    RATE_LIMIT_ORDERS_PER_ADDRESS: setting(rateLimit),
    RATE_LIMIT_PAYMENT_INTENTS: setting(rateLimit),
    UNPAID_ORDER_EXPIRY: setting(duration(1000, 30 * 86_400_000, '1s to 30d')),
    UNPAID_ORDERS_PER_CUSTOMER: setting(
      wholeNumber(1, 1000, (value) => `must be a whole number from 1 to 1000, got "${value}"`),
    ),
    UNPAID_VALUE_PER_CUSTOMER: setting(
      wholeNumber(1, 100_000_000, (value) => `must be whole dollars from 1 to 100000000, got "${value}"`),
    ),
    GRAPHQL_COMPILE_AFTER: setting(
      wholeNumber(1, 1000, (value) => `must be a whole number from 1 to 1000, got "${value}"`),
    ),
    OVERVIEW_MAX_AGE: setting(
      wholeNumber(0, 60, (value) => `must be a whole number of seconds from 0 to 60, got "${value}"`),
    ),
    // At most 30 s: expired stock must be back on sale within a minute of its expiry, whatever the sweep costs.
    SWEEP_INTERVAL: setting(duration(1000, 30_000, '1s to 30s')),
    // Longer than a few heartbeats (5 s each), so a busy but live worker is never taken for a dead one.
    IMPORT_STALE_AFTER: setting(duration(15_000, 600_000, '15s to 10m')),
    SMTP_URL: setting(
      z
        .string()
        .refine(
          (url) => /^smtps?:\/\//.test(url) && URL.canParse(url) && new URL(url).hostname !== '',
          'must be an smtp:// or smtps:// URL like smtps://user:password@mail.example:465',
        ),
    ),
    MAIL_FROM: setting(
      z.string().regex(/^(?:[^<>@\r\n]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/, {
        error: (issue) => `must be an address or Name <address>, got "${String(issue.input)}"`,
      }),
    ),
    SHOP_NAME: setting(z.string().max(100, 'must be at most 100 characters')),
    SHOP_ADDRESS: setting(z.string().max(300, 'must be at most 300 characters (lines separated by commas)')),
    SHOP_TAX_ID: setting(z.string().max(50, 'must be at most 50 characters')),
    HTTP_HEADERS_TIMEOUT: setting(duration(1000, 300_000, '1s to 5m')),
    HTTP_REQUEST_TIMEOUT: setting(duration(1000, 300_000, '1s to 5m')),
    HTTP_KEEP_ALIVE_TIMEOUT: setting(duration(1000, 300_000, '1s to 5m')),
    SHUTDOWN_DELAY: setting(duration(0, 60_000, '0 to 60s')),
    REDIS_URL: setting(urlOf(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')),
    REDIS_KEY_PREFIX: setting(
      z.string().regex(/^[\w.-]{1,64}$/, {
        error: (issue) => `must be 1 to 64 letters, digits, _, . or -, got "${String(issue.input)}"`,
      }),
    ),
    METRICS_TOKEN: setting(
      z.string().regex(/^[\x21-\x7e]{16,}$/, 'must be 16 printable characters or more, without spaces'),
    ),
    WEB_DIST_DIR: written,
  })
  // Run even when a setting is malformed, so that one start names every problem.
  .superRefine((settings, ctx) => acrossSettings(settings, ctx), { when: () => true });

type Settings = z.output<typeof environment>;

/** The names of every setting (.env.example and the README document each). */
export const settingNames = Object.keys(environment.shape);

/** The rules between settings: what production requires, what goes together. */
function acrossSettings(settings: Settings, ctx: z.RefinementCtx<Settings>): void {
  const malformed = new Set(ctx.issues.map((issue) => issue.path?.[0]));
  /** A setting's value, unless it is malformed (then as if unset: its own problem is named already). */
  const valid = <K extends keyof Settings>(name: K): Settings[K] | undefined =>
    malformed.has(name) ? undefined : settings[name];
  /** Whether a setting was written at all, well-formed or not. */
  const given = (name: keyof Settings) => malformed.has(name) || settings[name] !== undefined;
  const report = (name: keyof Settings, message: string) =>
    ctx.addIssue({ code: 'custom', path: [name], message, input: undefined });

  const production = given('DATABASE_URL');
  const emulator = given('FIREBASE_AUTH_EMULATOR_HOST');
  if (production && !given('JWT_SECRET'))
    report('JWT_SECRET', 'is required when DATABASE_URL is set (32 characters or more)');
  if (production && emulator && !valid('ALLOW_AUTH_EMULATOR')) {
    // The emulator's ID tokens carry no signature: anyone who can reach the server could sign in as anyone.
    report(
      'FIREBASE_AUTH_EMULATOR_HOST',
      'is set with DATABASE_URL: the Auth emulator accepts unsigned ID tokens, so anyone could sign in as anyone. Unset it to use Firebase, or set ALLOW_AUTH_EMULATOR=true for staging and tests only',
    );
  }
  if (production && !given('FIREBASE_PROJECT_ID'))
    report('FIREBASE_PROJECT_ID', 'is required when DATABASE_URL is set');
  const account = valid('FIREBASE_SERVICE_ACCOUNT');
  const projectId = valid('FIREBASE_PROJECT_ID') ?? (production ? undefined : embeddedProjectId);
  if (account && projectId && account.projectId !== projectId) {
    report(
      'FIREBASE_SERVICE_ACCOUNT',
      `is for project "${account.projectId}" but FIREBASE_PROJECT_ID is "${projectId}"`,
    );
  }
  if (production && !emulator && !given('FIREBASE_SERVICE_ACCOUNT')) {
    report(
      'FIREBASE_SERVICE_ACCOUNT',
      '(the service account key JSON for firebase-admin) is required when DATABASE_URL is set, unless FIREBASE_AUTH_EMULATOR_HOST names an Auth emulator',
    );
  }
  // The three Stripe keys go together: any one switches payments to Stripe.
  const stripeKeys = [
    ['STRIPE_SECRET_KEY', 'sk_'],
    ['STRIPE_PUBLISHABLE_KEY', 'pk_'],
    ['STRIPE_WEBHOOK_SECRET', 'whsec_'],
  ] as const;
  if (stripeKeys.some(([name]) => given(name))) {
    for (const [name, prefix] of stripeKeys)
      if (!valid(name)?.startsWith(prefix)) report(name, `must start with ${prefix}`);
  }
  if (production && !emulator && !given('FIREBASE_API_KEY'))
    report('FIREBASE_API_KEY', '(the web API key of the Firebase project) is required when DATABASE_URL is set');
  if (production && !emulator && valid('SEED_DEMO')) {
    // The demo accounts' passwords are published in the README: never create them in a real Firebase project.
    report(
      'SEED_DEMO',
      'SEED_DEMO=true needs an Auth emulator (FIREBASE_AUTH_EMULATOR_HOST): the demo passwords are public',
    );
  }
  const workers = valid('WORKERS');
  if (!production && workers !== undefined && workers > 1) {
    report(
      'WORKERS',
      `is ${workers}, but the embedded database (PGlite) lives in one process: more than one worker needs DATABASE_URL`,
    );
  }
  const headers = valid('HTTP_HEADERS_TIMEOUT') ?? defaultHttpTimeouts.headersTimeoutMs;
  const request = valid('HTTP_REQUEST_TIMEOUT') ?? defaultHttpTimeouts.requestTimeoutMs;
  if (!malformed.has('HTTP_HEADERS_TIMEOUT') && !malformed.has('HTTP_REQUEST_TIMEOUT') && headers > request)
    report('HTTP_HEADERS_TIMEOUT', 'must not be longer than HTTP_REQUEST_TIMEOUT');
}

/**
 * Connections per process unless DATABASE_POOL_SIZE says: 10 for a replica in all, shared out over its workers
 * (5 each for two), at least 2 each. More connections than that did not answer more: under the bench's race for
 * one part, two workers of 10 each answered 992-1,113 requests/s, of 5 each 1,426-1,465 (fewer transactions queued
 * on the part's row); and WORKERS=auto on a large machine opens far fewer connections than 10 a worker would.
 */
/**
 * A worker's old generation by default: with 16 MB semi-spaces (the image's) and its code, buffers and pool, a
 * worker's resident set stays under 384 MiB under the bench's load (docs/decisions.md, "Memory").
 */
export const defaultWorkerHeapLimitMiB = 256;

export const defaultPoolSize = (workers: number) => Math.max(2, Math.ceil(10 / workers));

/**
 * The cores this process may use: those it may run on, fewer when its cgroup (a container's `--cpus`, a
 * Kubernetes CPU limit) allows less time than that; at least 1.
 */
export function coresAvailable(cpuMaxFile = '/sys/fs/cgroup/cpu.max'): number {
  let cores = availableParallelism();
  try {
    const [quota, period] = readFileSync(cpuMaxFile, 'utf8').trim().split(/\s+/);
    if (quota !== 'max' && Number(quota) > 0 && Number(period) > 0)
      cores = Math.min(cores, Math.ceil(Number(quota) / Number(period)));
  } catch {
    // no cgroup v2 limit to read: the cores it may run on
  }
  return Math.max(1, cores);
}

const embeddedProjectId = 'demo-partsyard';
const embeddedEmulatorHost = '127.0.0.1:9099';

/** Each problem as one line that starts with the setting's name. */
function problemsOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const name = String(issue.path[0] ?? 'The environment');
    return issue.message.startsWith(name) ? issue.message : `${name} ${issue.message}`;
  });
}

/**
 * firebase-admin reads the Auth emulator's address from the environment only, so the one module that owns
 * the environment hands it over, once the configuration has decided to use the emulator.
 */
export function exportFirebaseEmulatorHost(host: string): void {
  process.env.FIREBASE_AUTH_EMULATOR_HOST = host;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environment.safeParse(env);
  if (!parsed.success) throw new ConfigError(problemsOf(parsed.error));
  const settings = parsed.data;

  const databaseUrl = settings.DATABASE_URL;
  const mode = databaseUrl ? 'production' : 'embedded';
  const dataDir = path.resolve(repoRoot, settings.DATA_DIR ?? '.data');
  const projectId = settings.FIREBASE_PROJECT_ID ?? embeddedProjectId;
  const seedDemo = settings.SEED_DEMO ?? mode === 'embedded';
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_PUBLISHABLE_KEY: publishableKey } = settings;
  const webhookSecret = settings.STRIPE_WEBHOOK_SECRET;
  const workers = settings.WORKERS ?? 1;
  return {
    mode,
    port: settings.PORT ?? 4000,
    host: settings.HOST ?? '0.0.0.0',
    dataDir,
    database: databaseUrl
      ? { kind: 'postgres', url: databaseUrl, poolSize: settings.DATABASE_POOL_SIZE ?? defaultPoolSize(workers) }
      : { kind: 'pglite', dataDir: path.join(dataDir, 'pg') },
    firebase: {
      projectId,
      emulatorHost: settings.FIREBASE_AUTH_EMULATOR_HOST ?? (mode === 'embedded' ? embeddedEmulatorHost : undefined),
      serviceAccountJson: settings.FIREBASE_SERVICE_ACCOUNT?.json,
      webApiKey: settings.FIREBASE_API_KEY ?? 'demo-api-key',
      authDomain: settings.FIREBASE_AUTH_DOMAIN ?? `${projectId}.firebaseapp.com`,
    },
    jwt: {
      // Production requires JWT_SECRET (acrossSettings); the embedded default makes one once and keeps it.
      secret: settings.JWT_SECRET ?? readOrCreateSecret(path.join(dataDir, 'jwt-secret')),
      // Minutes, not hours: the web renews it from the Firebase ID token before it runs out, and a renewal is
      // refused once the Firebase account is deleted or disabled, so this is how long such an account keeps
      // access (docs/security.md, "Identity").
      expiresInSeconds: settings.JWT_EXPIRES_IN ?? defaultAccessTokenSeconds,
    },
    adminEmails: settings.ADMIN_EMAILS ?? [],
    stripe:
      secretKey && publishableKey && webhookSecret
        ? {
            secretKey,
            publishableKey,
            webhookSecret,
            apiHost: settings.STRIPE_API_HOST,
            apiPort: settings.STRIPE_API_PORT,
            apiProtocol: settings.STRIPE_API_PROTOCOL,
          }
        : null,
    seedDemo,
    demoMode: mode === 'embedded' && seedDemo,
    webDistDir: path.resolve(repoRoot, settings.WEB_DIST_DIR ?? 'web/dist'),
    logRequests: settings.LOG_REQUESTS ?? true,
    corsOrigins: settings.CORS_ORIGINS ?? [],
    rateLimits: {
      signInPerAddress: orDefault(settings.RATE_LIMIT_SIGN_IN_PER_ADDRESS, defaultRateLimits.signInPerAddress),
      signInPerEmail: orDefault(settings.RATE_LIMIT_SIGN_IN_PER_EMAIL, defaultRateLimits.signInPerEmail),
      contactPerAddress: orDefault(settings.RATE_LIMIT_CONTACT_PER_ADDRESS, defaultRateLimits.contactPerAddress),
      contactPerRecipient: orDefault(settings.RATE_LIMIT_CONTACT_PER_RECIPIENT, defaultRateLimits.contactPerRecipient),
      ordersPerUser: orDefault(settings.RATE_LIMIT_ORDERS_PER_USER, defaultRateLimits.ordersPerUser),
      ordersPerAddress: orDefault(settings.RATE_LIMIT_ORDERS_PER_ADDRESS, defaultRateLimits.ordersPerAddress),
      paymentIntentsPerUser: orDefault(settings.RATE_LIMIT_PAYMENT_INTENTS, defaultRateLimits.paymentIntentsPerUser),
    },
    orders: {
      unpaidExpiryMs: settings.UNPAID_ORDER_EXPIRY ?? defaultOrderLimits.unpaidExpiryMs,
      unpaidPerCustomer: settings.UNPAID_ORDERS_PER_CUSTOMER ?? defaultOrderLimits.unpaidPerCustomer,
      unpaidValuePerCustomerCents:
        settings.UNPAID_VALUE_PER_CUSTOMER === undefined
          ? defaultOrderLimits.unpaidValuePerCustomerCents
          : settings.UNPAID_VALUE_PER_CUSTOMER * 100,
    },
    sweepIntervalMs: settings.SWEEP_INTERVAL ?? defaultSweepIntervalMs,
    importStaleAfterMs: settings.IMPORT_STALE_AFTER ?? 60_000,
    mail: {
      smtpUrl: settings.SMTP_URL,
      from: settings.MAIL_FROM ?? defaultMailFrom,
      pollIntervalMs: defaultMailPollIntervalMs,
    },
    seller: {
      name: settings.SHOP_NAME ?? defaultSeller.name,
      address: settings.SHOP_ADDRESS ?? defaultSeller.address,
      taxId: settings.SHOP_TAX_ID ?? defaultSeller.taxId,
    },
    http: {
      headersTimeoutMs: settings.HTTP_HEADERS_TIMEOUT ?? defaultHttpTimeouts.headersTimeoutMs,
      requestTimeoutMs: settings.HTTP_REQUEST_TIMEOUT ?? defaultHttpTimeouts.requestTimeoutMs,
      keepAliveTimeoutMs: settings.HTTP_KEEP_ALIVE_TIMEOUT ?? defaultHttpTimeouts.keepAliveTimeoutMs,
    },
    redisUrl: settings.REDIS_URL,
    redisKeyPrefix: settings.REDIS_KEY_PREFIX ?? 'partsyard',
    metricsToken: settings.METRICS_TOKEN,
    graphqlCompileAfter: settings.GRAPHQL_COMPILE_AFTER ?? defaultGraphqlCompileAfter,
    workers,
    overviewMaxAgeMs:
      settings.OVERVIEW_MAX_AGE === undefined ? defaultOverviewMaxAgeMs : settings.OVERVIEW_MAX_AGE * 1000,
    shutdownDelayMs: settings.SHUTDOWN_DELAY ?? 0,
    workerHeapLimitMiB: settings.WORKER_HEAP_LIMIT ?? defaultWorkerHeapLimitMiB,
  };
}

/** A rate limit as set (null: `off`), or its default when unset. */
const orDefault = (rule: RateLimitRule | null | undefined, fallback: RateLimitRule | null) =>
  rule === undefined ? fallback : rule;
