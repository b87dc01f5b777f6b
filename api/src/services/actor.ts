import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { users } from '../db/schema';
import { isId } from './paging';

/** Who is calling, as read from the database for this request. Null for a visitor. */
export interface Actor {
  userId: string;
  /** The account's email as of its last sign-in (null once the address moved to another account). */
  email: string | null;
  role: 'admin' | 'customer';
}

/**
 * The account an access token names, not read yet: a service given it reads the caller in the same statement as
 * its data (one round trip: issue 15), and decides the right on the account as that statement finds it, exactly
 * as it would on an `Actor` read just before.
 */
export interface AccountClaim {
  userId: string;
  firebaseUid: string;
}

/** Whether a claim can name an account at all (an id that is not a UUID would be a query error, not a miss). */
export const wellFormed = ({ userId, firebaseUid }: AccountClaim): boolean => isId(userId) && firebaseUid !== '';

/** Whether a caller has been read already (an Actor) or is only claimed by its token. */
export const isClaim = (caller: Actor | AccountClaim): caller is AccountClaim => 'firebaseUid' in caller;

/**
 * How an Actor is read, in one place for the caller's own lookup and for the statements that read it with their
 * data: these columns of the user whose id and Firebase uid are the token's (placeholders `callerId` and
 * `callerUid`). A deleted account, or an id now held by another uid, finds no row.
 */
export const actorColumns = { userId: users.id, email: users.email, role: users.role };
export const claimedAccount = and(
  eq(users.id, sql.placeholder('callerId')),
  eq(users.firebaseUid, sql.placeholder('callerUid')),
);

/**
 * Reads the account a token claims: the Actor, or null when it no longer exists (deleted, or its id now held by
 * another uid). One prepared statement; the services share one reader (services/index.ts).
 */
export function actorReader(db: Db) {
  const statement = db.select(actorColumns).from(users).where(claimedAccount).prepare('users_actor');
  return async (claim: AccountClaim): Promise<Actor | null> => {
    if (!wellFormed(claim)) return null;
    const [actor] = await statement.execute({ callerId: claim.userId, callerUid: claim.firebaseUid });
    return actor ?? null;
  };
}
export type ReadActor = ReturnType<typeof actorReader>;
