import { randomBytes } from 'node:crypto';
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
    /** host:port of the Auth emulator; when set, firebase-admin accepts the emulator's unsigned tokens. */
    emulatorHost: string | undefined;
    /** Service account JSON for production (else Application Default Credentials). */
    serviceAccountJson: string | undefined;
    /** Web configuration handed to the browser's identity SDK. */
    webApiKey: string;
    authDomain: string;
  };
  jwt: { secret: string; expiresIn: string };
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
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Configuration is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  const mode = databaseUrl ? 'production' : 'embedded';
  const dataDir = path.resolve(repoRoot, env.DATA_DIR ?? '.data');

  const port = Number(env.PORT ?? 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push(`PORT must be a port number, got "${env.PORT}"`);

  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }

  let jwtSecret = env.JWT_SECRET?.trim() ?? '';
  if (!jwtSecret) {
    if (mode === 'production') problems.push('JWT_SECRET is required when DATABASE_URL is set (32 characters or more)');
    else jwtSecret = readOrCreateSecret(path.join(dataDir, 'jwt-secret'));
  } else if (jwtSecret.length < 32) {
    problems.push('JWT_SECRET must be at least 32 characters long');
  }

  const emulatorHost = env.FIREBASE_AUTH_EMULATOR_HOST?.trim() || (mode === 'embedded' ? '127.0.0.1:9099' : undefined);
  const projectId = env.FIREBASE_PROJECT_ID?.trim() || (mode === 'embedded' ? 'demo-partsyard' : '');
  if (!projectId) problems.push('FIREBASE_PROJECT_ID is required when DATABASE_URL is set');

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
    stripe = {
      secretKey,
      publishableKey,
      webhookSecret,
      apiHost: env.STRIPE_API_HOST?.trim() || undefined,
      apiPort: env.STRIPE_API_PORT ? Number(env.STRIPE_API_PORT) : undefined,
      apiProtocol: (protocol as 'http' | 'https' | undefined) || undefined,
    };
  }

  const poolSize = Number(env.DATABASE_POOL_SIZE ?? 10);
  if (!Number.isInteger(poolSize) || poolSize < 1)
    problems.push('DATABASE_POOL_SIZE must be a whole number of 1 or more');

  if (mode === 'production' && !emulatorHost && !env.FIREBASE_API_KEY?.trim()) {
    problems.push('FIREBASE_API_KEY (the web API key of the Firebase project) is required when DATABASE_URL is set');
  }
  const seedDemo = (env.SEED_DEMO ?? (mode === 'embedded' ? 'true' : 'false')) === 'true';

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
      serviceAccountJson: env.FIREBASE_SERVICE_ACCOUNT?.trim() || undefined,
      webApiKey: env.FIREBASE_API_KEY?.trim() || 'demo-api-key',
      authDomain: env.FIREBASE_AUTH_DOMAIN?.trim() || `${projectId}.firebaseapp.com`,
    },
    jwt: { secret: jwtSecret, expiresIn: env.JWT_EXPIRES_IN?.trim() || '12h' },
    adminEmails: (env.ADMIN_EMAILS ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
    stripe,
    seedDemo,
    demoMode: mode === 'embedded' && seedDemo,
    webDistDir: path.resolve(repoRoot, env.WEB_DIST_DIR ?? 'web/dist'),
    logRequests: env.LOG_REQUESTS !== 'false',
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  };
}
