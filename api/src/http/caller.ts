import { accountGone, AppError } from '../errors';
import type { AccessTokens } from '../identity/accessTokens';
import type { AccountClaim, Actor } from '../services/actor';
import type { UsersService } from '../services/usersService';

export interface Caller {
  actor: Actor | null;
  /** Set when a token was sent but not accepted; reported only where a caller is needed. */
  authError: AppError | null;
}

/** The bearer token of an Authorization header, if any. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1] : null;
}

/**
 * Who is calling: the access token's user with the role the database holds now, one path for GraphQL and the
 * REST shim (a deleted user's token no longer works). In two steps: the token is checked at once (its signature
 * and expiry, no I/O), the account (does it still exist, which role does it hold now) only when `lookUp` is
 * called, at most once. GraphQL looks it up only for an operation that needs a caller (graphql/callerLookup.ts),
 * REST when a route asks (`actorOf`): public reads never use it, so they spare the round trip.
 */
export interface PendingCaller {
  /** Why the token sent was refused at once (its signature, its expiry), before any lookup. */
  authError: AppError | null;
  /**
   * The account an accepted token names, not read yet: for a service that reads the caller in the same
   * statement as its data (graphql/callerLookup.ts). Null without a token, or when it was refused.
   */
  claim: AccountClaim | null;
  lookUp: () => Promise<Caller>;
}

export function callerOf(header: string | undefined, tokens: AccessTokens, users: UsersService): PendingCaller {
  const token = bearerToken(header);
  if (!token) return { authError: null, claim: null, lookUp: () => Promise.resolve({ actor: null, authError: null }) };
  let claims: ReturnType<AccessTokens['verify']>;
  try {
    claims = tokens.verify(token);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const refused: Caller = { actor: null, authError: error };
    return { authError: error, claim: null, lookUp: () => Promise.resolve(refused) };
  }
  let found: Promise<Caller> | undefined;
  return {
    authError: null,
    claim: { userId: claims.userId, firebaseUid: claims.firebaseUid },
    lookUp: () =>
      (found ??= users.actorFor(claims.userId, claims.firebaseUid).then(
        (actor): Caller => (actor ? { actor, authError: null } : { actor: null, authError: accountGone() }),
        (error: unknown): Caller => {
          if (error instanceof AppError) return { actor: null, authError: error };
          throw error;
        },
      )),
  };
}
