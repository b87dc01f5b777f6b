import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { Db } from '../db/database';
import { outbox, type OutboxRow } from '../db/schema';
import { describeError, logger } from '../logger';
import { lazyPackage } from '../lazyPackage';

const nodemailer = lazyPackage<typeof import('nodemailer')>('nodemailer');

/**
 * The mail worker: delivers the outbox (outbox.ts) over SMTP with nodemailer.
 *
 * - Claiming: one statement takes up to `batch` due rows `FOR UPDATE SKIP LOCKED` and sets a lease
 *   (`locked_until = now() + lease`) and a new `lease_token`, so any number of workers (replicas) run at once and
 *   never hold the same message: a row leased by one is not due for the others until its lease runs out.
 * - The lease is fenced (issue 32): every later write of the worker (renewing, marking sent, retry or failed)
 *   names its token, so once another worker has claimed the row again the first can no longer touch it. Before
 *   each send the worker renews the message's lease, and sends nothing if that finds the message claimed by
 *   another (its lease ran out while the worker was busy with the batch's earlier messages, on a slow relay); while
 *   the send lasts, the lease is renewed every third of it, so a slow or tarpitting relay never lets the lease run
 *   out under a send in progress and another worker send the message too.
 * - Delivery: each message is sent, then marked sent. A failure (server down, timeout, a 4xx answer) puts the
 *   message back with exponential backoff (base x 2^(attempts-1), capped, with jitter) and the error noted; a
 *   permanent refusal (5xx to the recipient or the data) marks it failed and logs an error, it is not retried.
 * - Nothing is lost: a message leaves the table's due set only once the server accepted it. A worker that dies
 *   mid-send leaves a lease that runs out, and the next worker sends it again: delivery is at least once. Only a
 *   crash (or the database out of reach for a whole lease) between the server's "250 accepted" and the "sent" mark
 *   can send one twice, and then with the same Message-ID (`<outbox id@domain>`) for the receiver.
 * - Time is the database's `now()`, so replicas with skewed clocks agree on what is due.
 */
export interface Mailer {
  /** Delivers what is due now (one batch after another until none is left); a run in progress is waited for. */
  runOnce(): Promise<MailRun>;
  /** Stops the timer, waits for a run in progress, closes the SMTP transport. */
  stop(): Promise<void>;
}

export interface MailRun {
  sent: number;
  /** Put back for a later attempt. */
  retried: number;
  /** Refused for good. */
  failed: number;
}

export interface MailerOptions {
  /** smtp:// or smtps:// URL. */
  smtpUrl: string;
  from: string;
  /** Period of the worker's timer; null: no timer (tests call runOnce). */
  pollIntervalMs: number | null;
  batch?: number;
  /** How long a claim holds a message; renewed before its send and every third of it while the send lasts. */
  leaseMs?: number;
  /** First retry after this; doubled per attempt up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** nodemailer's connection, greeting and socket timeouts. */
  timeoutMs?: number;
}

export const mailDefaults = {
  /** Few: the batch's later messages wait under their claim's lease while the earlier ones are sent. */
  batch: 5,
  leaseMs: 5 * 60_000,
  backoffMs: 5_000,
  maxBackoffMs: 60 * 60_000,
  timeoutMs: 30_000,
};

/** The wait before the next attempt after `attempts` tries: exponential, capped, with up to 20 % jitter. */
export function backoffMs(attempts: number, base: number, max: number): number {
  const raw = Math.min(max, base * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
  return Math.round(raw * (0.8 + Math.random() * 0.2));
}

interface SmtpError {
  responseCode?: number;
  command?: string;
  code?: string;
}
/** The server refused this message for good: retrying cannot help (a full mailbox is 4xx, retried). */
const isPermanent = (error: unknown) => {
  const { responseCode, command, code } = (error ?? {}) as SmtpError;
  if (code === 'EENVELOPE' && (responseCode ?? 0) >= 500) return true;
  return (responseCode ?? 0) >= 500 && (command === 'RCPT TO' || command === 'DATA');
};

/** A message as a claim took it: `leaseToken` names that claim. */
export type ClaimedMail = OutboxRow & { leaseToken: string };

/** Takes up to `batch` due messages under a lease, in one statement (see above). */
export async function claimDueMail(db: Db, batch: number, leaseMs: number): Promise<ClaimedMail[]> {
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        isNull(outbox.sentAt),
        isNull(outbox.failedAt),
        lte(outbox.nextAttemptAt, sql`now()`),
        or(isNull(outbox.lockedUntil), lte(outbox.lockedUntil, sql`now()`)),
      ),
    )
    .orderBy(asc(outbox.nextAttemptAt))
    .limit(batch)
    .for('update', { skipLocked: true });
  const leaseToken = randomUUID();
  const claimed = await db
    .update(outbox)
    .set({ lockedUntil: leaseFor(leaseMs), leaseToken, attempts: sql`${outbox.attempts} + 1` })
    .where(inArray(outbox.id, due))
    .returning();
  return claimed.map((row) => ({ ...row, leaseToken }));
}

const leaseFor = (leaseMs: number) => sql`now() + make_interval(secs => ${leaseMs / 1000})`;

/** The row, while the claim that took it still holds it. */
const heldBy = (row: ClaimedMail) => and(eq(outbox.id, row.id), eq(outbox.leaseToken, row.leaseToken));

/**
 * Extends the lease of a claimed, unsent message to `leaseMs` from now: false when another claim holds it (or it
 * was sent or failed meanwhile), and then this worker must not send it.
 */
export async function renewLease(db: Db, row: ClaimedMail, leaseMs: number): Promise<boolean> {
  const renewed = await db
    .update(outbox)
    .set({ lockedUntil: leaseFor(leaseMs) })
    .where(and(heldBy(row), isNull(outbox.sentAt), isNull(outbox.failedAt)))
    .returning({ id: outbox.id });
  return renewed.length > 0;
}

function messageIdDomain(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return address.split('@')[1]?.trim() || 'partsyard.localhost';
}

export function createTransport(smtpUrl: string, timeoutMs: number): Transporter {
  const url = new URL(smtpUrl);
  return nodemailer().createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    // One kept-open connection per worker, reused for a batch (closed by stop()).
    pool: true,
    maxConnections: 1,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
}

export function startMailer(db: Db, options: MailerOptions): Mailer {
  const settings = { ...mailDefaults, ...options };
  const transport = createTransport(settings.smtpUrl, settings.timeoutMs);
  const domain = messageIdDomain(settings.from);
  let running: Promise<MailRun> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  /** Runs `send` with the lease of `row` renewed every third of it, so that no other worker takes it meanwhile. */
  async function holdingLease<T>(row: ClaimedMail, send: () => Promise<T>): Promise<T> {
    const renewal = setInterval(() => {
      renewLease(db, row, settings.leaseMs).catch((error: unknown) =>
        logger.warn('the lease of an email being sent could not be renewed', {
          outboxId: row.id,
          ...describeError(error),
        }),
      );
    }, settings.leaseMs / 3);
    try {
      return await send();
    } finally {
      clearInterval(renewal);
    }
  }

  async function deliver(row: ClaimedMail, run: MailRun) {
    if (!(await renewLease(db, row, settings.leaseMs))) {
      // Its claim's lease ran out while earlier messages were sent: another worker holds it now and sends it.
      logger.info('an email claimed by this worker was claimed by another before it was sent: left to that one', {
        event: 'email_lease_lost',
        outboxId: row.id,
        kind: row.kind,
      });
      return;
    }
    try {
      await holdingLease(row, () =>
        transport.sendMail({
          from: settings.from,
          to: row.toAddress,
          subject: row.subject,
          html: row.html,
          text: row.text,
          messageId: `<${row.id}@${domain}>`,
          attachments: row.attachments?.map((file) => ({
            filename: file.filename,
            contentType: file.contentType,
            content: Buffer.from(file.contentBase64, 'base64'),
          })),
        }),
      );
    } catch (error) {
      const { error: message } = describeError(error);
      if (isPermanent(error)) {
        await db
          .update(outbox)
          .set({ failedAt: sql`now()`, lockedUntil: null, leaseToken: null, lastError: message })
          .where(heldBy(row));
        logger.error('the mail server refused an email for good: it is not retried', {
          event: 'email_failed',
          outboxId: row.id,
          kind: row.kind,
          attempts: row.attempts,
          error: message,
        });
        run.failed += 1;
        return;
      }
      const waitMs = backoffMs(row.attempts, settings.backoffMs, settings.maxBackoffMs);
      await db
        .update(outbox)
        .set({
          nextAttemptAt: sql`now() + make_interval(secs => ${waitMs / 1000})`,
          lockedUntil: null,
          leaseToken: null,
          lastError: message,
        })
        .where(and(heldBy(row), isNull(outbox.sentAt)));
      logger.warn('an email could not be sent yet: it is tried again later', {
        outboxId: row.id,
        kind: row.kind,
        attempts: row.attempts,
        retryInSeconds: Math.round(waitMs / 1000),
        error: message,
      });
      run.retried += 1;
      return;
    }
    const marked = await db
      .update(outbox)
      .set({ sentAt: sql`now()`, lockedUntil: null, leaseToken: null, lastError: null })
      .where(heldBy(row))
      .returning({ id: outbox.id });
    if (!marked.length) {
      // The lease could not be renewed for a whole lease (the database out of reach): another worker may send it
      // again, with the same Message-ID.
      logger.warn('an email was sent after its lease was lost: it may be delivered twice', {
        event: 'email_sent_lease_lost',
        outboxId: row.id,
        kind: row.kind,
      });
    }
    logger.info('email sent', { event: 'email_sent', outboxId: row.id, kind: row.kind, attempts: row.attempts });
    run.sent += 1;
  }

  const work = async (): Promise<MailRun> => {
    const run: MailRun = { sent: 0, retried: 0, failed: 0 };
    for (;;) {
      if (stopped && run.sent + run.retried + run.failed > 0) return run;
      const claimed = await claimDueMail(db, settings.batch, settings.leaseMs);
      for (const row of claimed) await deliver(row, run);
      if (claimed.length < settings.batch) return run;
    }
  };
  const runOnce = () => {
    running ??= work().finally(() => {
      running = null;
    });
    return running;
  };
  const schedule = (ms: number) => {
    if (stopped || settings.pollIntervalMs === null) return;
    const interval = settings.pollIntervalMs;
    timer = setTimeout(() => {
      void runOnce()
        .catch((error: unknown) => logger.warn('the mail worker failed; it runs again shortly', describeError(error)))
        .finally(() => schedule(interval * (0.75 + Math.random() * 0.25)));
    }, ms);
    timer.unref();
  };
  if (settings.pollIntervalMs !== null) schedule(Math.random() * settings.pollIntervalMs);

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
      transport.close();
    },
  };
}
