import { and, count, eq, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/database';
import { describeError, logger } from '../logger';
import { importSteps } from './importApply';
import { importJobs, importRejections, importRows, type ImportJobRow } from './importSchema';

/**
 * Runs queued imports (importService.ts), one at a time across every replica: a worker claims the oldest queued
 * job under a transaction lock only while no job runs, and renews the job's heartbeat while it works. A job whose
 * heartbeat is older than `staleAfterMs` (its process stopped: a deploy, a crash, kill -9) is marked failed by any
 * replica's worker; its transaction died with its connection, so the catalog is as it was before it. A job left
 * receiving (its file never finished) for `abandonAfterMs` is failed too, and its staged rows dropped.
 *
 * A job: its rows are checked against the catalog (rejections kept), then applied in ONE transaction, range by
 * range of lines, checking between ranges whether it was cancelled: shoppers read the old catalog until it
 * commits, and the new one after; a cancel or a failure rolls it all back. On PostgreSQL, progress and heartbeat
 * are written outside that transaction (another connection), so the dashboard sees them live; the embedded
 * PGlite has one connection, whose transaction holds every other statement until it ends, so there they show at
 * the end (and shoppers wait for it: the embedded default is for small catalogs).
 */
export interface ImportWorker {
  /** Fails stale jobs, then runs queued ones until none is left (or another replica runs one). */
  runOnce(): Promise<number>;
  /** Asks for a run soon (a job was queued in this process). */
  kick(): void;
  stop(): Promise<void>;
}

export interface ImportWorkerOptions {
  /** Whether the database has more than one connection (PostgreSQL): progress is then written as it goes. */
  separateConnections: boolean;
  pollIntervalMs: number | null;
  staleAfterMs?: number;
  abandonAfterMs?: number;
  heartbeatMs?: number;
  /** Lines applied per statement (the unit of progress and of cancelling). */
  rangeLines?: number;
  /** Called once a job changed the catalog (the answer caches drop their answers). */
  onCatalogChanged?: () => void;
}

export const importWorkerDefaults = {
  staleAfterMs: 60_000,
  abandonAfterMs: 60 * 60_000,
  heartbeatMs: 5_000,
  rangeLines: 50_000,
};

class Cancelled extends Error {}

export function startImportWorker(db: Db, options: ImportWorkerOptions): ImportWorker {
  const settings = { ...importWorkerDefaults, ...options };
  let running: Promise<number> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  async function failStale(): Promise<void> {
    const ended = await db
      .update(importJobs)
      .set({
        status: 'failed',
        finishedAt: sql`now()`,
        phase: '',
        error: sql`case when ${importJobs.status} = 'receiving'
          then 'The file was not finished: no chunk arrived for a long time'
          else 'The server running this import stopped before it ended: nothing of it was applied' end`,
      })
      .where(
        sql`(${importJobs.status} = 'running' and ${importJobs.heartbeatAt} < now() - make_interval(secs => ${settings.staleAfterMs / 1000}))
         or (${importJobs.status} = 'receiving' and ${importJobs.heartbeatAt} < now() - make_interval(secs => ${settings.abandonAfterMs / 1000}))`,
      )
      .returning({ id: importJobs.id });
    for (const { id } of ended) {
      logger.warn('an import was failed: its worker or its file stopped', { event: 'import_stale', importId: id });
      await db.delete(importRows).where(eq(importRows.jobId, id));
    }
  }

  /** The oldest queued job, now running, when no other job runs. */
  async function claim(): Promise<ImportJobRow | null> {
    return db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('import_jobs.claim'))`);
      const [busy] = await tx
        .select({ id: importJobs.id })
        .from(importJobs)
        .where(eq(importJobs.status, 'running'))
        .limit(1);
      if (busy) return null;
      const [next] = await tx
        .select({ id: importJobs.id })
        .from(importJobs)
        .where(eq(importJobs.status, 'queued'))
        .orderBy(importJobs.createdAt)
        .limit(1);
      if (!next) return null;
      const [job] = await tx
        .update(importJobs)
        .set({ status: 'running', phase: 'checking', startedAt: sql`now()`, heartbeatAt: sql`now()`, rowsDone: 0 })
        .where(eq(importJobs.id, next.id))
        .returning();
      return job;
    });
  }

  /** Writes the job's progress where the dashboard sees it now (PostgreSQL), or not at all (PGlite). */
  const progress = async (id: string, values: Partial<typeof importJobs.$inferInsert>) => {
    if (!settings.separateConnections) return;
    await db
      .update(importJobs)
      .set({ ...values, heartbeatAt: sql`now()` })
      .where(and(eq(importJobs.id, id), eq(importJobs.status, 'running')));
  };

  async function run(job: ImportJobRow): Promise<void> {
    const steps = importSteps[job.kind];
    const started = Date.now();
    let beating = false;
    const heartbeat = setInterval(() => {
      if (beating || !settings.separateConnections) return;
      beating = true;
      progress(job.id, {})
        .catch((error: unknown) =>
          logger.warn('an import heartbeat failed', { importId: job.id, ...describeError(error) }),
        )
        .finally(() => {
          beating = false;
        });
    }, settings.heartbeatMs);
    try {
      // The staged rows' statistics, as the job's statements are planned on them: autovacuum has not seen a file
      // that arrived a minute ago, and planned on an empty table's guess the checks and the applying join ran
      // nested loops of index look-ups per row (EXPLAIN ANALYZE: 15.7 s for 50,000 fitment rows, 6.4 s after).
      await db.execute(sql`analyze import_rows`);
      await steps.check(db, job.id);
      const checkMs = Date.now() - started;
      const [{ n: rejected }] = await db
        .select({ n: count() })
        .from(importRejections)
        .where(eq(importRejections.jobId, job.id));
      await progress(job.id, { phase: 'applying', rowsRejected: rejected });
      const [{ last }] = await rowsOf<{ last: number }>(
        db,
        sql`select coalesce(max(line), 0)::int as last from import_rows where job_id = ${job.id}`,
      );
      const totals = await db.transaction(async (tx) => {
        const sum = { inserted: 0, updated: 0, records: 0 };
        await steps.prepare?.(tx, job.id);
        for (let from = 1; from <= last; from += settings.rangeLines) {
          const [state] = await tx
            .select({ cancel: importJobs.cancelRequested })
            .from(importJobs)
            .where(eq(importJobs.id, job.id));
          if (state?.cancel) throw new Cancelled();
          // This process is stopping: the job ends now, rolled back, rather than hold the stop.
          if (stopped) throw new Error('the server stopped before the import ended');
          const written = await steps.apply(tx, job.id, from, from + settings.rangeLines - 1);
          sum.inserted += written.inserted;
          sum.updated += written.updated;
          sum.records += written.records;
          await progress(job.id, { rowsDone: Math.max(0, Math.min(last, from + settings.rangeLines - 1) - rejected) });
        }
        await steps.finish?.(tx, job.id);
        const [{ n: rejectedNow }] = await tx
          .select({ n: count() })
          .from(importRejections)
          .where(eq(importRejections.jobId, job.id));
        const [done] = await tx
          .update(importJobs)
          .set({
            status: 'succeeded',
            phase: '',
            finishedAt: sql`now()`,
            rowsRejected: rejectedNow,
            rowsDone: sql`${importJobs.rowsReceived} - ${rejectedNow}`,
            inserted: sum.inserted,
            updated: sum.updated,
            unchanged: Math.max(0, sum.records - sum.inserted - sum.updated),
          })
          .where(and(eq(importJobs.id, job.id), eq(importJobs.status, 'running')))
          .returning();
        // Failed meanwhile as stale (this process was too slow to beat): nothing of it is kept.
        if (!done) throw new Error('the job was failed as stale while it ran');
        await tx.delete(importRows).where(eq(importRows.jobId, job.id));
        return done;
      });
      logger.info('an import ended', {
        event: 'import_succeeded',
        importId: job.id,
        kind: job.kind,
        rows: totals.rowsReceived,
        rejected: totals.rowsRejected,
        inserted: totals.inserted,
        updated: totals.updated,
        ms: Date.now() - started,
        checkMs,
      });
      settings.onCatalogChanged?.();
    } catch (error) {
      const cancelled = error instanceof Cancelled;
      await db
        .update(importJobs)
        .set({
          status: cancelled ? 'cancelled' : 'failed',
          phase: '',
          finishedAt: sql`now()`,
          error: cancelled ? null : `The import failed, and nothing of it was applied: ${describeError(error).error}`,
        })
        .where(and(eq(importJobs.id, job.id), eq(importJobs.status, 'running')));
      await db.delete(importRows).where(eq(importRows.jobId, job.id));
      if (cancelled) logger.info('an import was cancelled', { event: 'import_cancelled', importId: job.id });
      else logger.error('an import failed', { event: 'import_failed', importId: job.id, ...describeError(error) });
    } finally {
      clearInterval(heartbeat);
    }
  }

  const work = async () => {
    let ran = 0;
    try {
      await failStale();
      for (let job = await claim(); job && !stopped; job = await claim()) {
        await run(job);
        ran++;
      }
    } catch (error) {
      logger.warn('the import worker failed; it runs again shortly', describeError(error));
    }
    return ran;
  };
  const runOnce = () => {
    running ??= work().finally(() => {
      running = null;
    });
    return running;
  };
  const schedule = (ms: number) => {
    if (stopped || settings.pollIntervalMs === null) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      void runOnce().finally(() => schedule((settings.pollIntervalMs as number) * (0.75 + Math.random() * 0.25)));
    }, ms);
    timer.unref();
  };
  if (settings.pollIntervalMs !== null) schedule(Math.random() * settings.pollIntervalMs);

  return {
    runOnce,
    kick() {
      if (!stopped) void runOnce();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
