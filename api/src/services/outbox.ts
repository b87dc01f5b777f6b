import { createHash } from 'node:crypto';
import type { DbOrTx } from '../db/database';
import { outbox } from '../db/schema';

/** One email to send, as the builders in emails.ts make it. */
export interface OutboxMessage {
  /** What it tells: order_placed, payment_receipt, order_shipped, order_expired, contact_confirmation. */
  kind: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Enqueueing a second message with the same key does nothing (a retried change sends one email). */
  dedupeKey?: string;
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
  const written = await tx
    .insert(outbox)
    .values({
      kind: message.kind,
      toAddress: message.to.trim(),
      subject: message.subject,
      html: message.html,
      text: message.text,
      dedupeKey: storedKey(message.dedupeKey),
    })
    .onConflictDoNothing()
    .returning({ id: outbox.id });
  return written.length > 0;
}
