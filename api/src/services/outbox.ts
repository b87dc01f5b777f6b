import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { lightStatementOnFirstUse, type DbOrTx } from '../db/database';
import { outbox, type OutboxAttachment } from '../db/schema';

/** One email to send, as the builders in emails.ts make it. */
export interface OutboxMessage {
  /**
   * What it tells: order_placed, payment_receipt, payment_refunded, payment_disputed, order_shipped, order_expired,
   * contact_confirmation, company_invitation, invoice_issued (with its PDF attached), invoice_overdue.
   */
  kind: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Enqueueing a second message with the same key does nothing (a retried change sends one email). */
  dedupeKey?: string;
  /** Files sent with it (an invoice's PDF), kept in the row. */
  attachments?: OutboxAttachment[];
}

/** Keys longer than this (a sweep expiring 200 orders names them all) are stored as their SHA-256. */
const longestKey = 200;
const storedKey = (key: string | undefined) =>
  !key ? null : key.length <= longestKey ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;

/**
 * THE way a service sends an email: call it inside the transaction of the change the email tells about
 * (`db.transaction(async (tx) => { ...change...; await enqueueEmail(tx, receiptEmail(...)); })`). The message
 * is a row of that transaction: if the change rolls back, no email exists; once it commits, the mail worker
 * (mailer.ts) delivers it, however often the mail server or this process goes down meanwhile. A message with
 * no recipient (an account with no email) is skipped. Answers whether a row was written.
 */
export async function enqueueEmail(tx: DbOrTx, message: OutboxMessage): Promise<boolean> {
  if (!message.to.trim()) return false;
  if (message.attachments?.length) {
    const rows = await tx
      .insert(outbox)
      .values({
        kind: message.kind,
        toAddress: message.to.trim(),
        subject: message.subject,
        html: message.html,
        text: message.text,
        dedupeKey: storedKey(message.dedupeKey),
        attachments: message.attachments,
      })
      .onConflictDoNothing()
      .returning(writtenColumns);
    return rows.length > 0;
  }
  const written = await enqueueStatement(tx).execute({
    kind: message.kind,
    toAddress: message.to.trim(),
    subject: message.subject,
    html: message.html,
    text: message.text,
    dedupeKey: storedKey(message.dedupeKey),
  });
  return written.length > 0;
}

/** The insert, built once (a named statement: every order placed runs it). */
const writtenColumns = { id: outbox.id };
const enqueueStatement = lightStatementOnFirstUse<{ id: string }>(
  'outbox_enqueue',
  (tx) =>
    tx
      .insert(outbox)
      .values({
        kind: sql.placeholder('kind'),
        toAddress: sql.placeholder('toAddress'),
        subject: sql.placeholder('subject'),
        html: sql.placeholder('html'),
        text: sql.placeholder('text'),
        dedupeKey: sql.placeholder('dedupeKey'),
      })
      .onConflictDoNothing()
      .returning(writtenColumns),
  writtenColumns,
);
