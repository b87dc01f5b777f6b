import { initializeApp, type FirebaseApp } from 'firebase/app';
import {
  browserLocalPersistence,
  browserPopupRedirectResolver,
  browserSessionPersistence,
  connectAuthEmulator,
  indexedDBLocalPersistence,
  initializeAuth,
  type Auth,
} from 'firebase/auth';

export interface FirebaseWebSettings {
  apiKey: string;
  authDomain: string;
  projectId: string;
  emulatorUrl?: string | null;
}

let app: FirebaseApp | null = null;
let auth: Auth | null = null;

/**
 * The Firebase Auth instance, created once from the settings the API hands out. Persistence prefers
 * IndexedDB, then localStorage, then sessionStorage (spec §9). In the embedded default it talks to the
 * Auth emulator.
 */
export function firebaseAuth(settings: FirebaseWebSettings): Auth {
  if (auth) return auth;
  app = initializeApp({ apiKey: settings.apiKey, authDomain: settings.authDomain, projectId: settings.projectId });
  auth = initializeAuth(app, {
    persistence: [indexedDBLocalPersistence, browserLocalPersistence, browserSessionPersistence],
    popupRedirectResolver: browserPopupRedirectResolver,
  });
  if (settings.emulatorUrl) {
    // The emulator is on this machine: reach it under the host name the page was opened with.
    const url = new URL(settings.emulatorUrl);
    if (['127.0.0.1', 'localhost'].includes(url.hostname)) url.hostname = window.location.hostname;
    connectAuthEmulator(auth, url.origin, { disableWarnings: true });
  }
  return auth;
}

const friendly: Record<string, string> = {
  'auth/invalid-credential': 'Wrong email or password.',
  'auth/wrong-password': 'Wrong email or password.',
  'auth/user-not-found': 'No account has this email. Sign up first.',
  'auth/email-already-in-use': 'An account with this email already exists. Log in instead.',
  'auth/too-many-requests': 'Too many attempts. Wait a moment and try again.',
  'auth/network-request-failed': 'Could not reach the sign-in service. Check your connection and try again.',
  'auth/popup-closed-by-user': 'The Google sign-in window was closed before signing in.',
  'auth/popup-blocked': 'The browser blocked the Google sign-in window. Allow pop-ups and try again.',
  'auth/user-disabled': 'This account has been disabled.',
  'auth/weak-password': 'Must be 6 characters or longer',
};

/** The identity provider's message for a failed sign-in, in words a shopper understands. */
export function authErrorMessage(error: unknown): string {
  const code = (error as { code?: string })?.code;
  if (code && friendly[code]) return friendly[code];
  return error instanceof Error ? error.message.replace(/^Firebase: /, '') : 'Sign-in failed';
}
