import { eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { users } from '../db/schema';
import type { Actor } from './actor';
import { validEmail } from './email';
import { authorize, authorizeTarget, type SignedInOperation } from './rights';

/**
 * The account the REST shim's "by email" rows name (`/orders/filter?email=`, `/payments/filter?email=`,
 * `/user/{email}`, `/admin/{email}`), as the caller may see it: their own (the address they hold now), or any
 * for an admin. Answers the account's id, or null when no account holds the address now. Data is then read by
 * that id, never by an email stored on orders or payments: a deleted customer's history is not handed to
 * whoever registers the address next.
 */
export async function accountNamedBy(
  db: Db,
  operation: SignedInOperation,
  actor: Actor | null,
  email: string,
  refusal = 'You may only see your own data',
): Promise<string | null> {
  const caller = authorize(operation, actor);
  if (caller.email !== null && caller.email === email.trim().toLowerCase()) return caller.userId;
  authorizeTarget(operation, caller, null, refusal); // someone else's address: an admin's, where the right allows
  const [holder] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, validEmail(email)));
  return holder?.id ?? null;
}
