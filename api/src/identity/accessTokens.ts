import { createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AppError } from '../errors';
import type { Config } from '../config';

/** What the product's access token says: who the user is. The role is read from the database per request. */
export interface AccessClaims {
  userId: string;
  email: string;
}

const algorithm = 'HS256';
const issuer = 'partsyard';

export interface AccessTokens {
  sign(claims: AccessClaims): string;
  /** Throws UNAUTHENTICATED for a missing, malformed, forged or expired token. */
  verify(token: string): AccessClaims;
}

export function createAccessTokens({ secret, expiresIn }: Config['jwt']): AccessTokens {
  // Derived once: given the string, jsonwebtoken derives the key again on every call.
  const key = createSecretKey(Buffer.from(secret));
  return {
    sign: ({ userId, email }) =>
      jwt.sign({ email }, key, {
        algorithm,
        issuer,
        subject: userId,
        expiresIn: expiresIn as jwt.SignOptions['expiresIn'],
      }),
    verify(token) {
      try {
        // The algorithm is pinned: tokens with alg "none" or any other algorithm are refused.
        const payload = jwt.verify(token, key, { algorithms: [algorithm], issuer });
        if (typeof payload === 'string' || typeof payload.sub !== 'string' || typeof payload.email !== 'string') {
          throw new AppError('UNAUTHENTICATED', 'Invalid access token');
        }
        return { userId: payload.sub, email: payload.email };
      } catch (error) {
        if (error instanceof jwt.TokenExpiredError) {
          throw new AppError('UNAUTHENTICATED', 'Your session has expired, please sign in again');
        }
        throw new AppError('UNAUTHENTICATED', 'Invalid access token');
      }
    },
  };
}
