import { describeError, logger } from '../logger';
import type { Services } from './index';

/**
 * The periodic work of the shop: expiring unpaid orders whose reservation ran out, reconciling payment
 * intents with the gateway, then reminding companies of their overdue invoices (once each). Each run is a few statements that are safe on any number of replicas at the same
 * moment (orders are expired under `FOR UPDATE SKIP LOCKED`, intents are claimed by one statement with a
 * lease), so every replica simply runs them on its own timer: the timer holds no state, and correctness never
 * depends on which process runs a sweep, or on a process running at all (a payment or an order finding a due
 * order expires it there). With N replicas the sweeps run about N times per interval, each finding less to do.
 */
export interface Sweeps {
  /** Runs both sweeps once now (and answers what they did); a run already in progress is waited for. */
  runOnce(): Promise<{ expired: number; reconciled: number; reminded: number }>;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

export function startSweeps(services: Services, intervalMs: number | null): Sweeps {
  let running: Promise<{ expired: number; reconciled: number; reminded: number }> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const sweep = async () => {
    let expired = 0;
    let reconciled = 0;
    try {
      expired = await services.orders.expireDueOrders();
    } catch (error) {
      logger.warn('the expiry sweep failed; it runs again shortly', describeError(error));
    }
    try {
      reconciled = (await services.payments.reconcile()).checked;
    } catch (error) {
      logger.warn('the reconciliation sweep failed; it runs again shortly', describeError(error));
    }
    let reminded = 0;
    try {
      reminded = await services.invoicing.remindOverdue();
    } catch (error) {
      logger.warn('the overdue invoice reminders failed; they run again shortly', describeError(error));
    }
    return { expired, reconciled, reminded };
  };
  const runOnce = () => {
    running ??= sweep().finally(() => {
      running = null;
    });
    return running;
  };
  // Each wait is 75-100% of the interval, so replicas started together do not sweep in lockstep, and no wait
  // is longer than the interval.
  const schedule = (ms: number) => {
    if (stopped || intervalMs === null) return;
    timer = setTimeout(() => {
      void runOnce().finally(() => schedule(intervalMs * (0.75 + Math.random() * 0.25)));
    }, ms);
    timer.unref();
  };
  if (intervalMs !== null) schedule(Math.random() * intervalMs);

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
