import cluster from 'node:cluster';
import { runPrimary, whenPrimaryGone } from './cluster';
import { ConfigError, loadConfig } from './config';
import { logger } from './logger';

/** Orchestrators (Docker, Kubernetes) wait 10 s or more between SIGTERM and SIGKILL. */
const shutdownGraceMs = 8_000;

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  if (config.workers > 1 && cluster.isPrimary) {
    logger.info(`starting ${config.workers} workers on port ${config.port}`);
    // A worker may take SHUTDOWN_DELAY, then its grace period, to stop.
    runPrimary({
      workers: config.workers,
      graceMs: config.shutdownDelayMs + shutdownGraceMs,
      heapLimitMiB: config.workerHeapLimitMiB,
    });
    return;
  }
  // Imported here, not above: the primary only starts and watches workers, and without the server's modules
  // (Apollo, Drizzle, Express...) it needs a fraction of a worker's memory (README, "Memory").
  const { startServer } = await import('./server.js');
  const server = await startServer(config);
  logger.info(`PartsYard is ready on http://localhost:${server.port}`, {
    mode: config.mode,
    ...(cluster.isWorker ? { worker: cluster.worker?.id, workers: config.workers } : {}),
    database: server.database.kind,
    payments: config.stripe ? 'stripe' : 'test gateway',
    authEmulator: config.firebase.emulatorHost ?? null,
    unpaidOrderExpirySeconds: config.orders.unpaidExpiryMs / 1000,
    unpaidOrdersPerCustomer: config.orders.unpaidPerCustomer,
    unpaidValuePerCustomerDollars: config.orders.unpaidValuePerCustomerCents / 100,
    sweepIntervalSeconds: config.sweepIntervalMs === null ? null : config.sweepIntervalMs / 1000,
    mail: config.mail.smtpUrl ? `SMTP ${new URL(config.mail.smtpUrl).host}` : 'queued (no SMTP_URL)',
  });
  if (!config.mail.smtpUrl) {
    // Decided (issue 14): the shop runs without a mail server; its emails wait in the outbox table and go out,
    // oldest first, as soon as it is started with SMTP_URL. Nothing is dropped.
    logger.warn('SMTP_URL is not set: order emails are kept in the outbox table and not sent until it is');
  }

  if (config.mode === 'production' && config.firebase.emulatorHost) {
    logger.warn(
      'ALLOW_AUTH_EMULATOR=true: sign-in goes through an Auth emulator, whose ID tokens are not signature-checked. ' +
        'Use this for staging and tests only, never for real customers.',
      { authEmulator: config.firebase.emulatorHost },
    );
  }

  let stopping = false;
  /** `delayMs`: how long to go on answering, not ready, before stopping to listen (SHUTDOWN_DELAY). */
  const shutdown = async (signal: string, delayMs = 0) => {
    if (stopping) return;
    stopping = true;
    if (delayMs > 0)
      logger.info(`${signal}: not ready; answering for ${delayMs / 1000} s more (SHUTDOWN_DELAY)`, { delayMs });
    logger.info(`${signal}: finishing requests in flight, then stopping`);
    // close() cuts requests still running after the grace period; this is the last resort if closing hangs.
    // It is not unref'd: a stop that never finishes must end here, loudly, not whenever the last timer does.
    setTimeout(
      () => {
        logger.error('stopping did not finish in time: exiting anyway');
        process.exit(1);
      },
      delayMs + shutdownGraceMs + 1_500,
    );
    await server.close({ graceMs: shutdownGraceMs, delayMs });
    logger.info('stopped');
    process.exit(0);
  };
  // SIGTERM is how orchestrators stop a replica behind a load balancer; Ctrl-C (SIGINT) stops at once, and a
  // worker whose primary is gone has no listening socket left to keep open.
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM', config.shutdownDelayMs));
  whenPrimaryGone(() => void shutdown('the primary process is gone'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
