import { and, asc, desc, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/database';
import { gatewayIntents, type GatewayIntentRow } from '../db/schema';
import type { GatewayIntent, PaymentGateway } from '../payments/paymentGateway';

/**
 * The shop's own record of the intents it created at its gateway (`gateway_intents`), so that no charge stays
 * unaccounted for: each is `open` until it is recorded as its order's payment, refunded or cancelled, and the
 * reconciliation sweep asks the gateway about the open ones when they are due. Every write here is one
 * statement that says whether it changed anything, so a money event seen twice (the confirmation and the
 * webhook) is logged once.
 */

export type IntentOutcome = 'recorded' | 'refunded' | 'canceled';

/** When an open intent is first asked about: the customer normally confirms within seconds of paying. */
const firstCheck = sql`now() + interval '1 minute'`;

const rowOf = (intent: GatewayIntent, kind: PaymentGateway['kind'], orderId: string) => ({
  id: intent.id,
  orderId,
  gateway: kind,
  amountCents: intent.amountCents,
  currency: intent.currency,
  nextCheckAt: firstCheck,
});

/**
 * Notes an intent just created for `orderId` (an order's or a checkout's id) and its owner `userId`; answers
 * whether it is new (Stripe answers a repeat with the same).
 */
export async function noteCreated(
  db: DbOrTx,
  intent: GatewayIntent,
  kind: PaymentGateway['kind'],
  orderId: string,
  userId: string | null,
): Promise<boolean> {
  const inserted = await db
    .insert(gatewayIntents)
    .values({ ...rowOf(intent, kind, orderId), userId })
    .onConflictDoNothing()
    .returning({ id: gatewayIntents.id });
  return inserted.length > 0;
}

/**
 * The newest intent still open in the ledger for `orderId` (an order's or a checkout's id), made for `userId` and
 * this amount: the one to hand again rather than make another (issue 32). The gateway says whether it still can be.
 */
export async function openIntentId(
  db: DbOrTx,
  kind: PaymentGateway['kind'],
  orderId: string,
  userId: string,
  amountCents: number,
): Promise<string | null> {
  const [row] = await db
    .select({ id: gatewayIntents.id })
    .from(gatewayIntents)
    .where(
      and(
        eq(gatewayIntents.orderId, orderId),
        eq(gatewayIntents.status, 'open'),
        eq(gatewayIntents.gateway, kind),
        eq(gatewayIntents.userId, userId),
        eq(gatewayIntents.amountCents, amountCents),
      ),
    )
    .orderBy(desc(gatewayIntents.createdAt))
    .limit(1);
  return row?.id ?? null;
}

/**
 * Who an intent was created for, as the ledger says: a user id, null when it does not know (an intent noted
 * before owners were, or its owner deleted), undefined when the intent is not in it.
 */
export async function intentOwner(db: DbOrTx, intentId: string): Promise<string | null | undefined> {
  const [row] = await db
    .select({ userId: gatewayIntents.userId })
    .from(gatewayIntents)
    .where(eq(gatewayIntents.id, intentId));
  return row?.userId;
}

/** Notes that an intent of this shop succeeded; answers whether this is the first time the shop saw it. */
export async function noteSucceeded(
  db: DbOrTx,
  intent: GatewayIntent,
  kind: PaymentGateway['kind'],
  orderId: string,
): Promise<boolean> {
  const flipped = await db
    .insert(gatewayIntents)
    .values({ ...rowOf(intent, kind, orderId), succeededAt: sql`now()` })
    .onConflictDoUpdate({
      target: gatewayIntents.id,
      set: { succeededAt: sql`now()` },
      setWhere: sql`${gatewayIntents.succeededAt} is null`,
    })
    .returning({ id: gatewayIntents.id });
  return flipped.length > 0;
}

/** Settles an intent (recorded, refunded or cancelled); answers whether this call settled it. */
export async function settleIntent(
  db: DbOrTx,
  intent: GatewayIntent,
  kind: PaymentGateway['kind'],
  orderId: string,
  outcome: IntentOutcome,
): Promise<boolean> {
  const settled = await db
    .insert(gatewayIntents)
    .values({ ...rowOf(intent, kind, orderId), status: outcome, settledAt: sql`now()` })
    .onConflictDoUpdate({
      target: gatewayIntents.id,
      set: { status: outcome, settledAt: sql`now()` },
      setWhere: sql`${gatewayIntents.status} = 'open'`,
    })
    .returning({ id: gatewayIntents.id });
  return settled.length > 0;
}

/** Asks the reconciliation sweep to look at an open intent again at `when` (an SQL time). */
export async function checkAgain(db: DbOrTx, intentId: string, when: SQL): Promise<void> {
  await db
    .update(gatewayIntents)
    .set({ nextCheckAt: when })
    .where(and(eq(gatewayIntents.id, intentId), eq(gatewayIntents.status, 'open')));
}

/**
 * Claims up to `batch` open intents of this gateway whose check is due, in one statement: their next check
 * moves `lease` ahead, so another replica running the sweep at the same moment claims others (SKIP LOCKED),
 * and one that died mid-check leaves them to be claimed again once the lease is over.
 */
export async function claimDueIntents(
  db: Db,
  kind: PaymentGateway['kind'],
  batch: number,
  lease: SQL = sql`now() + interval '2 minutes'`,
): Promise<GatewayIntentRow[]> {
  const due = db
    .select({ id: gatewayIntents.id })
    .from(gatewayIntents)
    .where(
      and(
        eq(gatewayIntents.status, 'open'),
        eq(gatewayIntents.gateway, kind),
        lte(gatewayIntents.nextCheckAt, sql`now()`),
      ),
    )
    .orderBy(asc(gatewayIntents.nextCheckAt))
    .limit(batch)
    .for('update', { skipLocked: true });
  return db
    .update(gatewayIntents)
    .set({ nextCheckAt: lease, checks: sql`${gatewayIntents.checks} + 1` })
    .where(and(inArray(gatewayIntents.id, due), eq(gatewayIntents.status, 'open')))
    .returning();
}
