import { type App, cert, deleteApp, initializeApp } from 'firebase-admin/app';
import { type Auth, getAuth } from 'firebase-admin/auth';
import { AppError } from '../errors';
import type { Config } from '../config';

/** What a verified Firebase ID token tells us. */
export interface VerifiedIdentity {
  uid: string;
  email: string;
  name: string;
  picture: string;
}

/** The identity provider as the services see it. */
export interface Identity {
  /** Verifies a Firebase ID token; UNAUTHENTICATED when it is not valid. */
  verifyIdToken(idToken: string): Promise<VerifiedIdentity>;
  /** Creates the account if it does not exist yet (used to seed demo accounts); answers its uid. */
  ensureAccount(email: string, password: string, displayName: string): Promise<string>;
  /** Deletes the account if it exists. */
  deleteAccount(uid: string): Promise<void>;
  close(): Promise<void>;
}

let appCount = 0;

export const signInUnavailable = 'Sign-in is unavailable right now, try again shortly';

/**
 * Whether verifying an ID token failed because the identity provider could not be reached (its public keys
 * in production, the account lookup on the emulator), not because the token is bad. firebase-admin reports
 * the first as app/network-error or -timeout, and a failed key download as auth/argument-error whose message
 * is the download's failure.
 */
export function identityUnreachable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === 'app/network-error' || code === 'app/network-timeout' || code === 'auth/internal-error') return true;
  return (
    typeof message === 'string' &&
    /Error while making request|Error fetching public keys|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|socket hang up/.test(
      message,
    )
  );
}

export function createFirebaseIdentity(firebase: Config['firebase']): Identity {
  if (firebase.emulatorHost) {
    // firebase-admin reads the emulator's address from the environment only; the config module decided it.
    process.env.FIREBASE_AUTH_EMULATOR_HOST = firebase.emulatorHost;
  }
  const app: App = initializeApp(
    {
      projectId: firebase.projectId,
      ...(firebase.serviceAccountJson ? { credential: cert(JSON.parse(firebase.serviceAccountJson)) } : {}),
    },
    `partsyard-${++appCount}`,
  );
  const auth: Auth = getAuth(app);

  return {
    async verifyIdToken(idToken) {
      let decoded;
      try {
        decoded = await auth.verifyIdToken(idToken);
      } catch (error) {
        if (identityUnreachable(error)) throw new AppError('SERVICE_UNAVAILABLE', signInUnavailable);
        throw new AppError('UNAUTHENTICATED', 'The sign-in token is not valid, please sign in again');
      }
      if (!decoded.email) throw new AppError('UNAUTHENTICATED', 'The sign-in account has no email address');
      return {
        uid: decoded.uid,
        email: decoded.email.toLowerCase(),
        name: typeof decoded.name === 'string' ? decoded.name : '',
        picture: typeof decoded.picture === 'string' ? decoded.picture : '',
      };
    },
    async ensureAccount(email, password, displayName) {
      try {
        return (await auth.getUserByEmail(email)).uid;
      } catch (error) {
        if ((error as { code?: string }).code !== 'auth/user-not-found') throw error;
      }
      try {
        return (await auth.createUser({ email, password, displayName, emailVerified: true })).uid;
      } catch (error) {
        // Another process created it in the meantime.
        if ((error as { code?: string }).code !== 'auth/email-already-exists') throw error;
        return (await auth.getUserByEmail(email)).uid;
      }
    },
    async deleteAccount(uid) {
      try {
        await auth.deleteUser(uid);
      } catch (error) {
        if ((error as { code?: string }).code !== 'auth/user-not-found') throw error;
      }
    },
    close: () => deleteApp(app),
  };
}
