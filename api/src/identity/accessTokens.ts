import { createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
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

export function createAccessTokens({ secret, expiresInSeconds }: Config['jwt']): AccessTokens {
  // Derived once: given the string, jsonwebtoken derives the key again on every call.
  const key = createSecretKey(Buffer.from(secret));
  return {
    // A number: jsonwebtoken reads a numeric string as milliseconds.
    sign: ({ userId, firebaseUid }) =>
      jwt.sign({ fid: firebaseUid }, key, { algorithm, issuer, subject: userId, expiresIn: expiresInSeconds }),
    verify(token) {
      let payload: string | jwt.JwtPayload;
      try {
        // The algorithm is pinned: tokens with alg "none" or any other algorithm are refused.
        payload = jwt.verify(token, key, { algorithms: [algorithm], issuer });
      } catch (error) {
        if (error instanceof jwt.TokenExpiredError) {
          throw new AppError('UNAUTHENTICATED', 'Your session has expired, please sign in again');
        }
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
      return { userId: payload.sub, firebaseUid: payload.fid };
    },
  };
}
