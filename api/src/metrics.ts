import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Pool } from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { metricsOfAllWorkers, shareMetricsWithPrimary } from './cluster';
import type { Config } from './config';
import { onEvent } from './logger';

/**
 * Metrics in Prometheus' text format at /metrics (prom-client; README "Metrics", docs/security.md). Labels
 * never hold what a caller typed freely: a request is labelled by its route pattern (`/api/parts/:partId`),
 * never its URL; a GraphQL operation by its name only when it is a plain name, and past `maxOperationNames`
 * distinct names by "other".
 */

const maxOperationNames = 200;

/** Business events (their log lines' `event` field) counted, and under which metric and label. */
const orderEvents: Record<string, string> = {
  order_placed: 'placed',
  payment_recorded: 'paid',
  order_expired: 'expired',
};
const paymentEvents: Record<string, string> = {
  payment_intent_created: 'intent_created',
  payment_succeeded: 'succeeded',
  payment_recorded: 'recorded',
  payment_refunded: 'refunded',
  payment_refund_failed: 'refund_failed',
  payment_mismatched: 'mismatched',
};

export interface Metrics {
  registry: Registry;
  /** Express middleware: counts and times each request by method, route pattern and status. */
  requests: (req: Request, res: Response, next: NextFunction) => void;
  /** Counts a GraphQL operation by name, type and outcome. */
  operation: (name: string | null | undefined, type: string | undefined, ok: boolean) => void;
  /** Stops listening to business events (the registry's metrics stay readable). */
  close: () => void;
}

/** What the metrics read from elsewhere when scraped. */
export interface MetricSources {
  /** The GraphQL operations compiled now (graphql/compiledExecution.ts). */
  compiledOperations?: () => number;
}

export function createMetrics(pool: Pool | null, sources: MetricSources = {}): Metrics {
  const registry = new Registry();
  shareMetricsWithPrimary(registry);
  collectDefaultMetrics({ register: registry, prefix: 'partsyard_process_' });
  const labels = ['method', 'route', 'status'] as const;
  const requestsTotal = new Counter({
    name: 'partsyard_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: labels,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'partsyard_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status',
    labelNames: labels,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const operations = new Counter({
    name: 'partsyard_graphql_operations_total',
    help: 'GraphQL operations, by operation name, type (query, mutation) and outcome (ok, error)',
    labelNames: ['operation', 'type', 'outcome'] as const,
    registers: [registry],
  });
  const orders = new Counter({
    name: 'partsyard_orders_total',
    help: 'Orders placed, paid and expired',
    labelNames: ['event'] as const,
    registers: [registry],
  });
  const payments = new Counter({
    name: 'partsyard_payments_total',
    help: 'Payment events by outcome: intent_created, succeeded, recorded, refunded, refund_failed, mismatched',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const event of Object.values(orderEvents)) orders.inc({ event }, 0);
  new Gauge({
    name: 'partsyard_db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting: requests queued for one); none on PGlite',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      if (!pool) return;
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });

  new Gauge({
    name: 'partsyard_graphql_compiled_operations',
    help: 'GraphQL operations compiled (graphql-jit) and kept, for the queries signed-in people ask again and again',
    registers: [registry],
    collect() {
      this.set(sources.compiledOperations?.() ?? 0);
    },
  });

  const stopListening = onEvent((event) => {
    if (event in orderEvents) orders.inc({ event: orderEvents[event] });
    if (event in paymentEvents) payments.inc({ outcome: paymentEvents[event] });
  });

  const operationNames = new Set<string>();
  const operationLabel = (name: string | null | undefined) => {
    if (!name) return 'anonymous';
    if (!/^[A-Za-z_]\w{0,63}$/.test(name)) return 'other';
    if (operationNames.has(name)) return name;
    if (operationNames.size >= maxOperationNames) return 'other';
    operationNames.add(name);
    return name;
  };

  return {
    registry,
    requests(req, res, next) {
      const end = duration.startTimer();
      res.once('finish', () => {
        // The pattern of the route that answered; a router's mount path (`/graphql`, `/api/*`) if none did.
        const pattern = (req.route as { path?: unknown } | undefined)?.path;
        const route =
          typeof pattern === 'string' ? `${req.baseUrl}${pattern}` : req.baseUrl ? `${req.baseUrl}/*` : 'other';
        const values = { method: req.method, route, status: String(res.statusCode) };
        requestsTotal.inc(values);
        end(values);
      });
      next();
    },
    operation(name, type, ok) {
      operations.inc({ operation: operationLabel(name), type: type ?? 'unknown', outcome: ok ? 'ok' : 'error' });
    },
    close: stopListening,
  };
}

/**
 * GET /metrics. With METRICS_TOKEN set, only with `Authorization: Bearer <token>` (else 401); without it,
 * public in the embedded default and not there at all (404) in production mode.
 */
export function metricsEndpoint(metrics: Metrics, config: Pick<Config, 'mode' | 'metricsToken'>) {
  const expected = config.metricsToken ? Buffer.from(`Bearer ${config.metricsToken}`) : null;
  return async (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    if (!expected && config.mode === 'production') {
      res.status(404).json({ message: 'No route GET /metrics' });
      return;
    }
    if (expected) {
      const given = Buffer.from(req.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
        res.status(401).json({ message: 'Metrics need the metrics token' });
        return;
      }
    }
    // One of several workers (WORKERS): the sum of every worker's, gathered by the primary.
    const ofAllWorkers = metricsOfAllWorkers();
    let text: string;
    try {
      text = ofAllWorkers ? await ofAllWorkers : await metrics.registry.metrics();
    } catch {
      // A worker's part missing would make counters jump: no figures rather than wrong ones.
      res.status(503).json({ message: 'Metrics are unavailable while a worker restarts; try again' });
      return;
    }
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.send(text);
  };
}
