import { accountGone, AppError } from '../errors';
import type { AccessTokens } from '../identity/accessTokens';
import type { Actor } from '../services/actor';
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
 * Who is calling: the access token's user with the role the database holds now. One path for GraphQL and
 * the REST shim. A deleted user's token no longer works.
 */
export async function resolveCaller(
  header: string | undefined,
  tokens: AccessTokens,
  users: UsersService,
): Promise<Caller> {
  return callerOf(header, tokens, users).lookUp();
}

/**
 * The caller in two steps: the token is checked at once (its signature and expiry, no I/O), the account (does
 * it still exist, which role does it hold now) only when `lookUp` is called, at most once. GraphQL looks it up
 * only for an operation that needs a caller (graphql/callerLookup.ts): an operation of public fields alone
 * never uses it, so it spares the round trip.
 */
export function callerOf(
  header: string | undefined,
  tokens: AccessTokens,
  users: UsersService,
): { authError: AppError | null; lookUp: () => Promise<Caller> } {
  const token = bearerToken(header);
  if (!token) return { authError: null, lookUp: () => Promise.resolve({ actor: null, authError: null }) };
  let claims: ReturnType<AccessTokens['verify']>;
  try {
    claims = tokens.verify(token);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const refused: Caller = { actor: null, authError: error };
    return { authError: error, lookUp: () => Promise.resolve(refused) };
  }
  let found: Promise<Caller> | undefined;
  return {
    authError: null,
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
