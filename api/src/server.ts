import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { createApp } from './app';
import type { Config } from './config';
import { openDatabase, type Database } from './db/database';
import { seedDemo } from './db/seed';
import { createAccessTokens } from './identity/accessTokens';
import { createFirebaseIdentity, type Identity } from './identity/firebaseIdentity';
import type { PaymentGateway } from './payments/paymentGateway';
import { createStripeGateway } from './payments/stripeGateway';
import { createTestGateway } from './payments/testGateway';
import { createServices, type Services } from './services';
import { startMailer, type Mailer } from './services/mailer';
import { startSweeps, type Sweeps } from './services/sweeps';
import { startImportWorker, type ImportWorker } from './imports/importWorker';
import { lazyPackage } from './lazyPackage';
import { createRateLimits, type RateLimitStore } from './rateLimits';
import { createWriteTracker } from './http/answerCache';
import { noWriteBus, postgresWriteBus, redisWriteBus, type WriteBus } from './writeBus';

const ioredis = lazyPackage<typeof import('ioredis')>('ioredis');

export interface RunningServer {
  url: string;
  port: number;
  database: Database;
  services: Services;
  identity: Identity;
  /** The expiry and reconciliation sweeps of this process (its timer runs them every SWEEP_INTERVAL). */
  sweeps: Sweeps;
  /** The import worker of this process (it polls every SWEEP_INTERVAL; tests without a timer call runOnce). */
  imports: ImportWorker;
  /** The mail worker delivering the outbox over SMTP_URL; null without SMTP_URL (mail stays queued). */
  mailer: Mailer | null;
  /**
   * Stops: /readyz answers 503 at once, and every answer says `Connection: close`; for `delayMs` (default 0,
   * SHUTDOWN_DELAY) the server still accepts and answers, while a load balancer sees it is not ready; then it
   * stops taking connections, lets requests in flight finish (those still running after `graceMs`, default
   * 10 s, are cut), and closes the database.
   */
  close(options?: { graceMs?: number; delayMs?: number }): Promise<void>;
}

/**
 * While stopping, how long a connection accepted before the stop may take to send its first byte (a client
 * sends its request at once; a browser's speculative connection may never).
 */
const firstRequestWaitMs = 500;

/** Composes the shop from its configuration: database, identity, gateway, services, HTTP. */
export async function startServer(
  config: Config,
  overrides: {
    database?: Database;
    /** The identity provider (tests: a stand-in for Firebase). */
    identity?: Identity;
  } = {},
): Promise<RunningServer> {
  const database = overrides.database ?? (await openDatabase(config.database));
  const identity = overrides.identity ?? createFirebaseIdentity(config.firebase);
  const tokens = createAccessTokens(config.jwt);
  const gateway: PaymentGateway = config.stripe ? createStripeGateway(config.stripe) : createTestGateway(database.db);
  // What replicas share (docs/decisions.md, "Running in production"): Redis if configured, else PostgreSQL;
  // memory only in the embedded default.
  const redisPrefix = config.redisKeyPrefix;
  const redis = config.redisUrl
    ? new (ioredis().Redis)(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 })
    : null;
  if (redis) {
    redis.on('error', () => undefined); // ioredis reconnects; commands meanwhile fail and are answered 503
    await redis.connect();
  }
  const pool = database.pool;
  const store: RateLimitStore = redis
    ? { kind: 'redis', client: redis, keyPrefix: redisPrefix }
    : pool
      ? { kind: 'postgres', pool }
      : { kind: 'memory' };
  const writeBus: WriteBus = redis
    ? redisWriteBus(redis, redisPrefix)
    : pool && config.database.kind === 'postgres'
      ? postgresWriteBus(config.database.url, pool)
      : noWriteBus;
  const rateLimits = createRateLimits(config.rateLimits, store);
  // This process's writes and the replicas' (announced on the bus): what a kept answer must not outlive.
  const writes = createWriteTracker(() => writeBus.announce());
  let importWorker: ImportWorker | null = null;
  const services = createServices({
    db: database.db,
    identity,
    tokens,
    gateway,
    adminEmails: config.adminEmails,
    rateLimits,
    orderLimits: config.orders,
    overviewReuse: { maxAgeMs: config.overviewMaxAgeMs, generation: () => writes.generation() },
    importQueued: () => importWorker?.kick(),
    seller: config.seller,
  });
  if (config.seedDemo) await seedDemo(database.db, identity);
  await services.users.applyAdminEmails();
  const sweeps = startSweeps(services, config.sweepIntervalMs);
  // Imports run on a worker any replica may be (importWorker.ts); a finished one drops every replica's answers.
  const imports = startImportWorker(database.db, {
    separateConnections: database.kind === 'postgres',
    pollIntervalMs: config.sweepIntervalMs,
    staleAfterMs: config.importStaleAfterMs,
    onCatalogChanged: () => writes.changed(),
  });
  importWorker = imports;
  const { smtpUrl, from, pollIntervalMs } = config.mail;
  const mailer = smtpUrl ? startMailer(database.db, { smtpUrl, from, pollIntervalMs }) : null;

  const { app, beginShutdown, stop } = await createApp({ config, database, services, tokens, writeBus, writes });
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = config.http;
  // Slow clients are cut: headers within headersTimeout, the whole request within requestTimeout (answered
  // 408 by Node), idle kept-alive connections closed after keepAliveTimeout. Node checks the first two every
  // connectionsCheckingInterval (30 s by default: too coarse for a 10 s limit).
  const server: Server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(headersTimeoutMs / 4))),
    },
    app,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  let closing: Promise<void> | undefined;

  // While stopping, Node closes kept-alive connections idle between requests, but keeps one that has sent
  // nothing yet open until the grace period ends (a browser's speculative connection, a TCP health check held
  // the stop 8 s): such a connection gets firstRequestWaitMs from its acceptance to send its first byte.
  const accepted = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    accepted.set(socket, Date.now());
    socket.once('close', () => accepted.delete(socket));
  });
  const closeIdleConnections = () => {
    server.closeIdleConnections();
    const now = Date.now();
    for (const [socket, at] of accepted) if (socket.bytesRead === 0 && now - at > firstRequestWaitMs) socket.destroy();
  };

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    database,
    services,
    identity,
    sweeps,
    imports,
    mailer,
    async close({ graceMs = 10_000, delayMs = 0 } = {}) {
      if (closing) return closing;
      beginShutdown();
      // No sweep starts from here on; one in progress finishes before the database closes.
      const sweepsStopped = sweeps.stop();
      // An import in progress is rolled back and failed at its next step rather than hold the stop.
      const importsStopped = imports.stop();
      // Likewise the mail worker: a message being sent is sent (and marked) or put back before the database closes.
      const mailerStopped = mailer?.stop();
      closing = (async () => {
        // A load balancer that opened a connection before it saw /readyz fail still gets its answer: the
        // listening socket stays open until it has had time to notice (issue 32, point 8).
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        await new Promise<void>((resolve) => {
          // No new connections from here on; `close` calls back once every open connection has ended.
          server.close(() => resolve());
          // Kept-alive connections with no request in flight end now; busy ones end after their answer
          // (the app answers with `Connection: close` while stopping), silent ones after firstRequestWaitMs.
          closeIdleConnections();
          const idleSweep = setInterval(closeIdleConnections, 100);
          const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
          idleSweep.unref();
          deadline.unref();
          server.once('close', () => {
            clearInterval(idleSweep);
            clearTimeout(deadline);
          });
        });
        await stop();
        await sweepsStopped;
        await importsStopped;
        await mailerStopped;
        await identity.close();
        await writeBus.close();
        redis?.disconnect();
        await database.close();
      })();
      return closing;
    },
  };
}
