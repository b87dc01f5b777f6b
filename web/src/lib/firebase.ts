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
    // The popup and redirect flows talk to their helper frame through a script from apis.google.com (even the
    // emulator's helper frame loads it), which the embedded default must never need: with the emulator, Google
    // sign-in goes through signInWithCredential instead (AuthProvider), and the resolver is left out so that
    // nothing loads it (mobile browsers would start it at once).
    ...(settings.emulatorUrl ? {} : { popupRedirectResolver: browserPopupRedirectResolver }),
  });
  if (settings.emulatorUrl) {
    // The emulator is on this machine: reach it under the host name the page was opened with.
    const url = new URL(settings.emulatorUrl);
    if (['127.0.0.1', 'localhost'].includes(url.hostname)) url.hostname = window.location.hostname;
    connectAuthEmulator(auth, url.origin, { disableWarnings: true });
  }
  return auth;
}
