import { buyerUnitPriceCents, messages, packProblem, sentAmountProblem } from '@partsyard/common';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/database';
import { cartLines, parts, type PartRow } from '../db/schema';
import { accountGone } from '../errors';
import { buyerPricesFor, companyPriceOf } from '../companies/companyPrices';
import { holdAccount } from './accountLock';

/**
 * The cart's lines: the rule an amount of a part must pass to be in a cart (the purchase rules), the cart's size,
 * and how lines are written. The cart service (cartService.ts) and the ways of adding many lines at once (quick
 * order, order again, saved lists: api/src/ordering) both use these, so each rule is written here once.
 */

/** The most lines one cart holds (a checkout's lines are one transaction). */
export const maxCartLines = 50;
export const cartFullMessage = `A cart holds at most ${maxCartLines} parts: check out or remove some first`;

/**
 * Why `amount` of `part` cannot be in a cart (the purchase rules' message), or null when it can: the one amount
 * rule (common/src/orderAmount.ts), asked directly rather than through the forms' yup schema, which cost some
 * 50 µs a line to build, most of a 1,000-line quick-order check's CPU (docs/performance.md).
 */
export function amountProblem(part: PartRow, amount: number): string | null {
  if (part.priceCents < 1) return messages.partNotForSale;
  return sentAmountProblem(part, amount);
}

/** Which rule an amount broke: what a grid or an integrator acts on (the message says it in words). */
export type AmountProblemKind =
  'not_for_sale' | 'bad_quantity' | 'below_minimum' | 'not_pack_multiple' | 'not_enough_stock' | 'too_large';

export interface AmountProblem {
  kind: AmountProblemKind;
  message: string;
}

/** `amountProblem`, with the rule it broke named (read from the rule's own message, so the two never disagree). */
export function classifiedAmountProblem(part: PartRow, amount: number): AmountProblem | null {
  const message = amountProblem(part, amount);
  if (message === null) return null;
  const kind: AmountProblemKind =
    message === messages.partNotForSale
      ? 'not_for_sale'
      : message === messages.orderAmountBelowMin(part.minOrder)
        ? 'below_minimum'
        : message === messages.orderAmountAboveAvailable(part.available)
          ? 'not_enough_stock'
          : message === packProblem(part, amount)
            ? 'not_pack_multiple'
            : message === messages.wholeNumber || message === messages.orderAmountRequired
              ? 'bad_quantity'
              : 'too_large';
  return { kind, message };
}

/**
 * Runs `work` in one transaction with the caller's account held as placing an order holds it (FOR NO KEY UPDATE,
 * accountLock.ts): one customer's cart changes and checkouts run one at a time, so the lines a change counts are
 * the lines it writes to, and two at once cannot both pass the cart's size.
 */
export function withAccountHeld<T>(db: Db, userId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    if (!(await holdAccount(tx, userId, 'no key update'))) throw accountGone();
    return work(tx);
  });
}

export async function countCartLines(tx: Tx, userId: string): Promise<number> {
  const [{ n }] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(cartLines)
    .where(eq(cartLines.userId, userId));
  return n;
}

/**
 * Writes lines of the cart (the amount each part's line holds now, its unit price seen: the buyer's), in one statement: new
 * lines after every line the cart holds, in the order given, even within one tick of the clock (PGlite's is
 * coarse), never by a tie broken on part ids; lines already there get the new amount.
 */
export async function upsertCartLines(
  tx: Tx,
  userId: string,
  lines: readonly { part: PartRow; amount: number }[],
): Promise<void> {
  if (!lines.length) return;
  // The price seen is the buyer's (their company's, when lower: issue 35 point 3), as the cart shows it.
  const buyer = await buyerPricesFor(
    tx,
    userId,
    lines.map((l) => l.part.id),
  );
  await tx
    .insert(cartLines)
    .values(
      lines.map(({ part, amount }, i) => ({
        userId,
        partId: part.id,
        amount,
        seenUnitPriceCents: buyerUnitPriceCents(part, amount, companyPriceOf(buyer, part.id)),
        addedAt: sql`greatest(now(), (select max(${cartLines.addedAt}) + interval '1 microsecond' from ${cartLines}
                                      where ${cartLines.userId} = ${userId})) + ${i} * interval '1 microsecond'`,
      })),
    )
    .onConflictDoUpdate({
      target: [cartLines.userId, cartLines.partId],
      set: {
        amount: sql`excluded.amount`,
        seenUnitPriceCents: sql`excluded.seen_unit_price_cents`,
        updatedAt: sql`now()`,
      },
    });
}

/** A line to add at once with others: `amount` units of a part, for the caller's line `key` (a grid's row). */
export interface CartAddition {
  key: number;
  partId: string;
  amount: number;
}

/** Why an addition could not go in: a rule of the amount, the part gone, or the cart's size. */
export interface CartAdditionProblem {
  key: number;
  partId: string;
  kind: AmountProblemKind | 'part_gone' | 'cart_full';
  message: string;
}

export const partNoLongerSoldMessage = 'This part is no longer sold';
export const alreadyInCart = (amount: number, message: string) =>
  `Your cart holds ${amount} already, and with these: ${message}`;

/**
 * Adds every addition to the caller's cart, or none: in one transaction with the account held, each part's line is
 * checked as addToCart checks it (the amount the cart would hold, the part read now, the cart's size); when any
 * fails, nothing is written and the problems say which. Additions of the same part are summed. Answers the
 * problems (none when everything went in).
 */
export async function addToCartAtOnce(
  db: Db,
  userId: string,
  additions: readonly CartAddition[],
): Promise<CartAdditionProblem[]> {
  const wanted = new Map<string, { keys: number[]; amount: number }>();
  for (const a of additions) {
    const entry = wanted.get(a.partId) ?? { keys: [], amount: 0 };
    entry.keys.push(a.key);
    entry.amount += a.amount;
    wanted.set(a.partId, entry);
  }
  return withAccountHeld(db, userId, async (tx) => {
    const ids = [...wanted.keys()];
    // Held as a cart line's foreign key holds them until the lines are in: a part deleted meanwhile is not found.
    const found = ids.length ? await tx.select().from(parts).where(inArray(parts.id, ids)).for('key share') : [];
    const byId = new Map(found.map((p) => [p.id, p]));
    const existing = await tx
      .select({ partId: cartLines.partId, amount: cartLines.amount })
      .from(cartLines)
      .where(eq(cartLines.userId, userId));
    const have = new Map(existing.map((l) => [l.partId, l.amount]));
    const problems: CartAdditionProblem[] = [];
    const writes: { part: PartRow; amount: number }[] = [];
    let count = existing.length;
    for (const [partId, { keys, amount }] of wanted) {
      const say = (kind: CartAdditionProblem['kind'], message: string) =>
        keys.forEach((key) => problems.push({ key, partId, kind, message }));
      const part = byId.get(partId);
      if (!part) {
        say('part_gone', partNoLongerSoldMessage);
        continue;
      }
      const before = have.get(partId) ?? 0;
      const problem = classifiedAmountProblem(part, before + amount);
      if (problem) {
        say(problem.kind, before ? alreadyInCart(before, problem.message) : problem.message);
        continue;
      }
      if (!have.has(partId)) {
        if (count >= maxCartLines) {
          say('cart_full', cartFullMessage);
          continue;
        }
        count += 1;
      }
      writes.push({ part, amount: before + amount });
    }
    if (!problems.length) await upsertCartLines(tx, userId, writes);
    return problems.sort((a, b) => a.key - b.key);
  });
}
