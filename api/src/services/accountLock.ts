import { eq, sql } from 'drizzle-orm';
import { lightStatementOnFirstUse, type Tx } from '../db/database';
import { users } from '../db/schema';

/**
 * Lock order between an account and the rows that point at it. Writing an order or a payment for a user
 * locks that user's row first (FOR KEY SHARE, which the foreign key takes anyway, only earlier); deleting
 * the user locks it first too (FOR UPDATE, in `usersService.deleteUser`). So a deletion waits for the orders
 * and payments in flight, and they wait for it, each while holding nothing else: no deadlock over a part's
 * stock, and no order left behind without its user or refused with a foreign-key error.
 *
 * Placing an order takes the row `FOR NO KEY UPDATE` instead: one customer's orders are placed one at a time,
 * so the cap on unpaid orders is counted with no other order of theirs in flight (payments, which take
 * KEY SHARE, are not held up by it).
 *
 * Answers whether the account still exists (it may have been deleted since the request was authenticated).
 */
export async function holdAccount(
  tx: Tx,
  userId: string,
  strength: 'key share' | 'no key update' = 'key share',
): Promise<boolean> {
  const [user] = await holdStatements[strength](tx).execute({ userId });
  return Boolean(user);
}

/** The hold of each strength, built once (a named statement: every order and payment runs one). */
const heldColumns = { id: users.id };
const holdOf = (strength: 'key share' | 'no key update') =>
  lightStatementOnFirstUse<{ id: string }>(
    `users_hold_${strength.replace(/ /g, '_')}`,
    (tx) =>
      tx
        .select(heldColumns)
        .from(users)
        .where(eq(users.id, sql.placeholder('userId')))
        .for(strength),
    heldColumns,
  );
const holdStatements = { 'key share': holdOf('key share'), 'no key update': holdOf('no key update') };
