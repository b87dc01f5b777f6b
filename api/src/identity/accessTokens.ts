import { createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import { AppError } from '../errors';
import type { Config } from '../config';

/**
 * What the product's access token says: which user (our id) and which Firebase account it was issued for (the
 * web compares the latter with the account signed in to Firebase). No email and no role: the email is an
 * attribute that may change, and the role is read from the database on every request.
 */
export interface AccessClaims {
  userId: string;
  firebaseUid: string;
}

const algorithm = 'HS256';
const issuer = 'partsyard';

export interface AccessTokens {
  sign(claims: AccessClaims): string;
  /** Throws UNAUTHENTICATED for a missing, malformed, forged, expired or never-expiring token. */
  verify(token: string): AccessClaims;
}

const invalid = () => new AppError('UNAUTHENTICATED', 'Invalid access token');

const expired = () => new AppError('UNAUTHENTICATED', 'Your session has expired, please sign in again');

/** Whether a token expiring at `exp` (seconds) has expired now, as jsonwebtoken decides it. */
const isExpired = (exp: number) => Math.floor(Date.now() / 1000) >= exp;

/**
 * `verifiedTokens`: how many accepted tokens are remembered. A signed-in person sends the same token with every
 * request until it expires; checking its signature and claims again each time cost about 3 % of a signed-in
 * read's CPU (issue 15). A remembered token is the exact string that was verified (signature included), and its
 * expiry is checked again at each use. What the token grants is still read from the database on every request
 * (http/caller.ts): the account, its role, whether it still exists.
 */
export function createAccessTokens(
  { secret, expiresInSeconds }: Config['jwt'],
  { verifiedTokens = 10_000 }: { verifiedTokens?: number } = {},
): AccessTokens {
  // Derived once: given the string, jsonwebtoken derives the key again on every call.
  const key = createSecretKey(Buffer.from(secret));
  const verified = new LRUCache<string, { claims: AccessClaims; exp: number }>({ max: verifiedTokens });
  return {
    // A number: jsonwebtoken reads a numeric string as milliseconds.
    sign: ({ userId, firebaseUid }) =>
      jwt.sign({ fid: firebaseUid }, key, { algorithm, issuer, subject: userId, expiresIn: expiresInSeconds }),
    verify(token) {
      const known = verified.get(token);
      if (known) {
        if (isExpired(known.exp)) {
          verified.delete(token);
          throw expired();
        }
        return known.claims;
      }
      let payload: string | jwt.JwtPayload;
      try {
        // The algorithm is pinned: tokens with alg "none" or any other algorithm are refused.
        payload = jwt.verify(token, key, { algorithms: [algorithm], issuer });
      } catch (error) {
        if (error instanceof jwt.TokenExpiredError) throw expired();
        throw invalid();
      }
      // jsonwebtoken checks `exp` only when a token has one: a token without an expiry would never expire.
      if (
        typeof payload === 'string' ||
        typeof payload.exp !== 'number' ||
        typeof payload.sub !== 'string' ||
        typeof payload.fid !== 'string'
      ) {
        throw invalid();
      }
      const claims = Object.freeze({ userId: payload.sub, firebaseUid: payload.fid });
      verified.set(token, { claims, exp: payload.exp });
      return claims;
    },
  };
}
