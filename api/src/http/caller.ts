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
  const token = bearerToken(header);
  if (!token) return { actor: null, authError: null };
  try {
    const claims = tokens.verify(token);
    const actor = await users.actorFor(claims.userId, claims.firebaseUid);
    if (!actor) return { actor: null, authError: accountGone() };
    return { actor, authError: null };
  } catch (error) {
    if (error instanceof AppError) return { actor: null, authError: error };
    throw error;
  }
}
