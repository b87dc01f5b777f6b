import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';
import { logger } from './logger';

/**
 * Several server processes on one port (`WORKERS`, node:cluster): a Node process answers on one core, and a
 * signed-in request's cost is mostly its own JavaScript (docs/performance.md), so one process per core is how
 * the shop uses a machine's cores without a load balancer. Each worker is a whole server, as a replica is
 * (README, "Replicas"): what they share lives in PostgreSQL (or Redis), never in a process. The primary only
 * starts, restarts and stops them, and gathers their metrics.
 *
 * - Start: the first worker starts alone (it applies the migrations and seeds), the others once it listens.
 * - A worker that dies is replaced, unless it died before it listened (it cannot start: the database is not
 *   there, say) or within `crashLoopMs` of listening: then the primary stops the others and exits 1, so that the
 *   orchestrator sees the fault instead of a loop of restarts.
 * - SIGTERM or SIGINT: each worker gets it and stops as one process does (finishes its requests in flight);
 *   the primary exits once they have, 0 if they all exited 0. A worker whose primary is gone stops too.
 * - /metrics: whichever worker answers the scrape asks the primary, which sums every worker's (prom-client's
 *   AggregatorRegistry): a scrape never sees one worker's counters alone.
 */

const metricsRequest = 'partsyard:metrics-request';
const metricsAnswer = 'partsyard:metrics-answer';
/** A worker that dies sooner than this after it listened is taken for a fault, not replaced. */
const crashLoopMs = 10_000;

interface MetricsMessage {
  type: string;
  id: number;
  text?: string;
  error?: string;
}

/**
 * The primary: starts `workers` server processes (this same script, as workers) and looks after them until
 * they have all stopped, then exits. `graceMs` is how long a worker may take to stop before it is killed.
 */
export function runPrimary({
  workers,
  graceMs,
  heapLimitMiB,
}: {
  workers: number;
  graceMs: number;
  /** Each worker's V8 old-generation limit (`--max-old-space-size`), in MiB. */
  heapLimitMiB: number;
}): void {
  // The launcher's exit-with-parent hook (scripts/start.mjs) watches fd 3, which in a worker is the primary's
  // channel: workers watch their primary through that channel instead. The primary's own heap limit is not the
  // workers'.
  const execArgv: string[] = [];
  for (let i = 0; i < process.execArgv.length; i++) {
    const arg = process.execArgv[i];
    if (arg === '--require' && process.execArgv[i + 1]?.endsWith('exit-with-parent.cjs')) i++;
    else if (arg.startsWith('--max-old-space-size')) continue;
    else if (!(arg.startsWith('--require=') && arg.endsWith('exit-with-parent.cjs'))) execArgv.push(arg);
  }
  execArgv.push(`--max-old-space-size=${heapLimitMiB}`);
  cluster.setupPrimary({ execArgv });
  const aggregator = new AggregatorRegistry();
  /** When each worker listening now started listening. */
  const listeningAt = new Map<Worker, number>();
  /** The signal the workers were told to stop with; undefined until the primary stops. */
  let stopSignal: NodeJS.Signals | undefined;
  let failed = false;

  const fork = () => {
    const worker = cluster.fork();
    worker.on('message', (message: MetricsMessage) => {
      if (message?.type !== metricsRequest) return;
      aggregator.clusterMetrics().then(
        (text) => worker.isConnected() && worker.send({ type: metricsAnswer, id: message.id, text }),
        (error: Error) =>
          worker.isConnected() && worker.send({ type: metricsAnswer, id: message.id, error: error.message }),
      );
    });
    return worker;
  };

  const stop = (signal: NodeJS.Signals, reason: string) => {
    if (stopSignal) return;
    stopSignal = signal;
    logger.info(`${reason}: stopping ${Object.keys(cluster.workers ?? {}).length} worker(s)`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    // Each worker exits within its own grace period; this is the last resort if one hangs.
    setTimeout(() => {
      logger.error('workers did not stop in time: killing them');
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(1);
    }, graceMs + 3_000);
  };

  cluster.on('exit', (worker, code, signal) => {
    const since = listeningAt.get(worker);
    listeningAt.delete(worker);
    if (stopSignal) {
      // A worker stopped by the signal passed on before it had set up its own handling (still starting) stopped
      // as asked; any other end is a failure.
      if (code !== 0 && !(code === null && signal === stopSignal)) failed = true;
    } else {
      const listenedSeconds = since === undefined ? null : Math.round((Date.now() - since) / 1000);
      logger.error('a worker exited', { worker: worker.id, code, signal, listenedSeconds });
      if (since === undefined || Date.now() - since < crashLoopMs) {
        failed = true;
        stop('SIGTERM', since === undefined ? 'a worker could not start' : 'a worker failed soon after it started');
      } else fork();
    }
    if (Object.keys(cluster.workers ?? {}).length === 0) {
      logger.info('all workers stopped');
      process.exit(failed ? 1 : 0);
    }
  });

  process.on('SIGINT', () => stop('SIGINT', 'SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM', 'SIGTERM'));

  cluster.on('listening', (worker) => {
    listeningAt.set(worker, Date.now());
    if (listeningAt.size === workers) logger.info(`all ${workers} workers are ready`);
  });
  fork().once('listening', () => {
    if (!stopSignal) for (let i = 1; i < workers; i++) fork();
  });
}

/** In a worker: hands its registry's metrics to the primary when asked (prom-client's cluster protocol). */
export function shareMetricsWithPrimary(registry: Registry): void {
  if (!cluster.isWorker) return;
  AggregatorRegistry.setRegistries([registry]);
  new AggregatorRegistry(); // installs the worker's side of the protocol
}

let nextRequest = 0;

/**
 * In a worker: every worker's metrics, summed by the primary, in Prometheus' text format. Null in a process
 * that is not a worker (its own registry is the whole story).
 */
export function metricsOfAllWorkers(): Promise<string> | null {
  if (!cluster.isWorker || !process.send) return null;
  const id = nextRequest++;
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      process.off('message', onMessage);
    };
    const onMessage = (message: MetricsMessage) => {
      if (message?.type !== metricsAnswer || message.id !== id) return;
      done();
      if (message.error !== undefined) reject(new Error(message.error));
      else resolve(message.text ?? '');
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error('the primary did not answer'));
    }, 6_000);
    process.on('message', onMessage);
    process.send!({ type: metricsRequest, id });
  });
}

/** In a worker: `onGone` runs when its primary's channel closes (the primary died). */
export function whenPrimaryGone(onGone: () => void): void {
  if (cluster.isWorker) process.on('disconnect', onGone);
}
