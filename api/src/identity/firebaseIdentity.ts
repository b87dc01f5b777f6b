import { type App, cert, deleteApp, initializeApp, type ServiceAccount } from 'firebase-admin/app';
import { type Auth, getAuth } from 'firebase-admin/auth';
import { AppError } from '../errors';
import { exportFirebaseEmulatorHost, type Config } from '../config';

/** What a verified Firebase ID token tells us. */
export interface VerifiedIdentity {
  /** The Firebase account: the identity. */
  uid: string;
  /** The account's email now, lower-cased: an attribute of the account, never a key. */
  email: string;
  /** Whether Firebase has seen the owner of the address prove it (a link followed; Google accounts are). */
  emailVerified: boolean;
  name: string;
  picture: string;
}

/** The calls of firebase-admin's Auth that the shop makes (tests give a stand-in). */
export type FirebaseAuthApi = Pick<
  Auth,
  'verifyIdToken' | 'getUser' | 'getUserByEmail' | 'createUser' | 'updateUser' | 'deleteUser'
>;

/** The identity provider as the services see it. */
export interface Identity {
  /**
   * Verifies a Firebase ID token, and that its account is neither disabled, deleted nor signed out everywhere
   * since the token was issued; UNAUTHENTICATED when any of that fails.
   */
  verifyIdToken(idToken: string): Promise<VerifiedIdentity>;
  /** The email a Firebase account has now (null: none), or null when the account no longer exists. */
  lookupAccount(uid: string): Promise<{ email: string | null } | null>;
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

/** What the caller is told when firebase-admin refuses an ID token, by its error code. */
const refusals: Record<string, string> = {
  'auth/id-token-expired': 'The sign-in has expired, please sign in again',
  'auth/id-token-revoked': 'This sign-in was revoked, please sign in again',
  'auth/user-disabled': 'This account has been disabled',
  'auth/user-not-found': 'This account no longer exists',
};

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

export function createFirebaseIdentity(firebase: Config['firebase'], standIn?: FirebaseAuthApi): Identity {
  let app: App | null = null;
  let auth: FirebaseAuthApi;
  if (standIn) auth = standIn;
  else {
    if (firebase.emulatorHost) exportFirebaseEmulatorHost(firebase.emulatorHost);
    app = initializeApp(
      {
        projectId: firebase.projectId,
        ...(firebase.serviceAccountJson
          ? { credential: cert(JSON.parse(firebase.serviceAccountJson) as ServiceAccount) }
          : {}),
      },
      `partsyard-${++appCount}`,
    );
    auth = getAuth(app);
  }

  return {
    async verifyIdToken(idToken) {
      let decoded;
      try {
        // checkRevoked: also asks Firebase whether the account was disabled, deleted or signed out everywhere
        // since the token was issued (an ID token is otherwise good for an hour whatever happens to it).
        decoded = await auth.verifyIdToken(idToken, true);
      } catch (error) {
        if (identityUnreachable(error)) throw new AppError('SERVICE_UNAVAILABLE', signInUnavailable);
        const code = codeOf(error);
        throw new AppError(
          'UNAUTHENTICATED',
          (typeof code === 'string' && refusals[code]) || 'The sign-in token is not valid, please sign in again',
        );
      }
      if (!decoded.email) throw new AppError('UNAUTHENTICATED', 'The sign-in account has no email address');
      return {
        uid: decoded.uid,
        email: decoded.email.toLowerCase(),
        emailVerified: decoded.email_verified === true,
        name: typeof decoded.name === 'string' ? decoded.name : '',
        picture: typeof decoded.picture === 'string' ? decoded.picture : '',
      };
    },
    async lookupAccount(uid) {
      try {
        const account = await auth.getUser(uid);
        return { email: account.email ? account.email.toLowerCase() : null };
      } catch (error) {
        if (codeOf(error) === 'auth/user-not-found') return null;
        if (identityUnreachable(error)) throw new AppError('SERVICE_UNAVAILABLE', signInUnavailable);
        throw error;
      }
    },
    async ensureAccount(email, password, displayName) {
      let existing;
      try {
        existing = await auth.getUserByEmail(email);
      } catch (error) {
        if (codeOf(error) !== 'auth/user-not-found') throw error;
      }
      if (existing) {
        // Accounts kept from before demo accounts were created verified.
        if (!existing.emailVerified) await auth.updateUser(existing.uid, { emailVerified: true });
        return existing.uid;
      }
      try {
        return (await auth.createUser({ email, password, displayName, emailVerified: true })).uid;
      } catch (error) {
        // Another process created it in the meantime.
        if (codeOf(error) !== 'auth/email-already-exists') throw error;
        return (await auth.getUserByEmail(email)).uid;
      }
    },
    async deleteAccount(uid) {
      try {
        await auth.deleteUser(uid);
      } catch (error) {
        if (codeOf(error) !== 'auth/user-not-found') throw error;
      }
    },
    close: async () => {
      if (app) await deleteApp(app);
    },
  };
}
