import { useApolloClient } from '@apollo/client';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { SignInDocument, type SignInMutation, type SignInMutationVariables } from '../generated/graphql';
import { errorCode } from './apollo';
import {
  clearAccessToken,
  expireSession,
  getAccessToken,
  renewalDue,
  renewSession,
  setAccessToken,
  setSessionRenewer,
  tokenClaims,
  type Renewal,
} from './session';
import { useClientSettings } from './clientSettings';

export interface AuthUser {
  uid: string;
  email: string;
  /** Whether the owner of the address has proved it (the verification link; Google accounts are). */
  emailVerified: boolean;
  displayName: string;
  photoURL: string;
}

export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

interface AuthContextValue {
  status: AuthStatus;
  user: AuthUser | null;
  login: (email: string, password: string) => Promise<void>;
  signup: (name: string, email: string, password: string) => Promise<void>;
  /**
   * Google sign-in: Google's own account chooser in a popup; with the Auth emulator (embedded default), the
   * `account` the visitor gave in our stand-in for the emulator's chooser (see googleIdTokenForEmulator).
   */
  loginWithGoogle: (account?: EmulatorGoogleAccount) => Promise<void>;
  logout: () => Promise<void>;
  /** Sends the signed-in user the email with the link that verifies their address. */
  sendVerificationEmail: () => Promise<void>;
  /**
   * Asks Firebase again whether the address is verified (after the link was followed); if it now is, the shop
   * is told at once (a new sign-in exchange), so that a role the address brings applies. Answers whether it is.
   */
  checkVerification: () => Promise<boolean>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** A Google account as the Auth emulator's chooser asks for it: an email and a name. */
export interface EmulatorGoogleAccount {
  email: string;
  name: string;
}

/**
 * The Google ID token the Auth emulator takes in place of Google's (it accepts unsigned JSON claims, and only
 * the emulator does). Firebase's popup and redirect flows cannot run offline: their helper frame needs a
 * script from apis.google.com, even the emulator's own helper frame loads it. So with the emulator the web
 * signs in with `signInWithCredential`, the flow the emulator itself points to. The subject is derived from
 * the email, so the same email finds the same Google account again.
 */
export async function googleIdTokenForEmulator({ email, name }: EmulatorGoogleAccount): Promise<string> {
  const normalized = email.trim().toLowerCase();
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(normalized));
  const sub = [...new Uint8Array(digest)]
    .slice(0, 10)
    .map((b) => b.toString(10).padStart(3, '0'))
    .join('');
  return JSON.stringify({ sub, email: normalized, email_verified: true, name: name.trim() });
}

/**
 * The Firebase account an access token was issued for (its `fid` claim), read without verifying (the server
 * verifies); null when the token is unreadable or expired.
 */
function tokenAccount(token: string): string | null {
  const claims = tokenClaims(token);
  if (!claims || (claims.exp && claims.exp * 1000 < Date.now())) return null;
  return claims.fid ?? null;
}

/** Firebase's answers that mean the account cannot have an ID token any more (deleted, disabled, signed out). */
const accountRefusals = new Set([
  'auth/user-token-expired',
  'auth/user-disabled',
  'auth/user-not-found',
  'auth/invalid-user-token',
]);

/** How a failed renewal ended: refused by the shop or by Firebase, or only not possible now. */
const failedRenewal = (error: unknown): Renewal =>
  errorCode(error) === 'UNAUTHENTICATED' || accountRefusals.has((error as { code?: string } | null)?.code ?? '')
    ? 'refused'
    : 'unavailable';

/** A renewal that could not be made now is tried again this much later (while the token may still hold). */
const renewalRetryMs = 30_000;

/** A promise with its resolve, for "once the identity SDK has said who is signed in". */
function settled() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

type FirebaseModule = typeof import('firebase/auth');
type Sdk = { fb: FirebaseModule; auth: import('firebase/auth').Auth };

let sdkModules: Promise<[FirebaseModule, typeof import('./firebase')]> | null = null;

/** Downloads the identity SDK once. */
export const loadIdentitySdk = () =>
  (sdkModules ??= Promise.all([import('firebase/auth'), import('./firebase')]).catch((error: unknown) => {
    sdkModules = null; // the next sign-in tries again
    throw error;
  }));

/**
 * Starts the identity SDK's download (46 kB gzipped) for a sign-in about to happen: the login and signup pages
 * call it when the visitor first points at or focuses their card, not as they load, so that the SDK is not
 * evaluated while the page starts (issue 33 point 9). Signing in waits for it if it has not arrived; a failed
 * download is retried then.
 */
export const prepareSignIn = () => {
  loadIdentitySdk().catch(() => {});
};

/** How long a sign-in action waits for the SDK (and the client settings it needs) before giving up. */
const sdkWaitMs = 15_000;

/**
 * Sign-in state. Each Firebase sign-in is exchanged for our access token, kept in localStorage (spec §3).
 * The Firebase SDK (about 46 kB gzipped) stays off the pages of a visitor who holds no access token: such a
 * visitor is signed out at once; the SDK is fetched when they turn to the login or signup form (`prepareSignIn`)
 * and started when they sign in. With a token it starts after first paint, to confirm the Firebase session behind the token
 * (renewing the token if it has expired).
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const settings = useClientSettings();
  const apollo = useApolloClient();
  const [status, setStatus] = useState<AuthStatus>(() => (getAccessToken() ? 'loading' : 'signedOut'));
  const [user, setUser] = useState<AuthUser | null>(null);
  // Requests to start the SDK (0: not wanted yet); each new one retries a failed download.
  const [sdkRequests, setSdkRequests] = useState(() => (getAccessToken() ? 1 : 0));
  const wanted = useRef(sdkRequests > 0);
  const sdk = useRef<Sdk | null>(null);
  const sdkWaiters = useRef<{ resolve: (value: Sdk) => void; reject: (error: Error) => void }[]>([]);
  const exchanging = useRef<Promise<void> | null>(null);
  const signingUp = useRef(false);
  // The Firebase account the shop session belongs to (renewals exchange its ID tokens), known once the SDK has
  // said who is signed in.
  const firebaseUser = useRef<import('firebase/auth').User | null>(null);
  const firebaseUserKnown = useRef(settled());

  const toUser = (u: import('firebase/auth').User): AuthUser => ({
    uid: u.uid,
    email: u.email ?? '',
    emailVerified: u.emailVerified,
    displayName: u.displayName ?? '',
    photoURL: u.photoURL ?? '',
  });

  /** Signed in as this Firebase account (its session is established): renewals exchange its ID tokens. */
  const enter = useCallback((fbUser: import('firebase/auth').User, shown?: AuthUser) => {
    firebaseUser.current = fbUser;
    firebaseUserKnown.current.resolve();
    setUser(shown ?? toUser(fbUser));
    setStatus('signedIn');
  }, []);

  /**
   * Makes sure we hold an access token for this Firebase account, saving the profile on the way (spec §4): the
   * form's fields (`profile`, sign-up) or Firebase's. `again`: exchange even when a token of this account is
   * held: `fresh` with a newly issued ID token (the account's email or its verification changed), `renew` with
   * the one the SDK keeps current (the held token is running out). A renewal, or a session of this account whose
   * token ran out, saves no profile: the one the shop holds (its owner may have edited it) stays as it is.
   */
  const establish = useCallback(
    async (
      fbUser: import('firebase/auth').User,
      { profile, again }: { profile?: { name?: string; avatar?: string }; again?: 'fresh' | 'renew' } = {},
    ) => {
      const fresh = again === 'fresh';
      const token = getAccessToken();
      if (!again && token && tokenAccount(token) === fbUser.uid) return;
      const renewal = again === 'renew' || (!again && token !== null && tokenClaims(token)?.fid === fbUser.uid);
      const exchange = async (idToken: string) =>
        (
          await apollo.mutate<SignInMutation, SignInMutationVariables>({
            mutation: SignInDocument,
            variables: {
              idToken,
              ...(renewal
                ? {}
                : {
                    profile: {
                      name: profile?.name ?? fbUser.displayName ?? '',
                      avatar: profile?.avatar ?? fbUser.photoURL ?? '',
                    },
                  }),
            },
          })
        ).data;
      exchanging.current ??= (async () => {
        let data: SignInMutation | null | undefined;
        try {
          data = await exchange(await fbUser.getIdToken(fresh));
        } catch (error) {
          // An ID token issued before the account's tokens were last declared valid is refused as revoked (the
          // Auth Emulator right after a sign-up, when a second ticks over between the two). Once more with one
          // issued now; an account that was really revoked, disabled or deleted cannot get one, and the sign-in
          // fails as before.
          if (fresh || errorCode(error) !== 'UNAUTHENTICATED') throw error;
          data = await exchange(await fbUser.getIdToken(true));
        }
        if (!data) throw new Error('Could not sign in to the shop');
        setAccessToken(data.signIn.token);
      })().finally(() => {
        exchanging.current = null;
      });
      await exchanging.current;
    },
    [apollo],
  );

  useEffect(() => {
    if (!settings || sdkRequests === 0) return;
    let unsubscribe = () => {};
    let cancelled = false;
    const loaded = ([fb, lib]: Awaited<ReturnType<typeof loadIdentitySdk>>) => {
      if (cancelled) return;
      const auth = lib.firebaseAuth(settings.firebase);
      sdk.current = { fb, auth };
      sdkWaiters.current.splice(0).forEach((waiter) => waiter.resolve({ fb, auth }));
      const followed = async (fbUser: import('firebase/auth').User | null) => {
        // A sign-up in progress exchanges its own sign-in once the account has its name (`signup`).
        if (fbUser && signingUp.current) return;
        if (!fbUser) {
          firebaseUser.current = null;
          firebaseUserKnown.current.resolve();
          clearAccessToken();
          setUser(null);
          setStatus('signedOut');
          return;
        }
        try {
          await establish(fbUser);
          enter(fbUser);
        } catch {
          await fb.signOut(auth);
        }
      };
      unsubscribe = fb.onAuthStateChanged(auth, (fbUser) => void followed(fbUser));
    };
    const failed = () => {
      if (cancelled) return;
      const error = new Error('Could not load the sign-in service. Check your connection and try again.');
      sdkWaiters.current.splice(0).forEach((waiter) => waiter.reject(error));
      setStatus((current) => (current === 'loading' ? 'signedOut' : current));
    };
    loadIdentitySdk().then(loaded, failed);
    return () => {
      cancelled = true;
      unsubscribe();
    };
  }, [settings, sdkRequests, establish, enter]);

  /** The SDK, loading it first if this visitor has not needed it yet. */
  const ready = useCallback((): Promise<Sdk> => {
    if (sdk.current) return Promise.resolve(sdk.current);
    wanted.current = true;
    setSdkRequests((n) => n + 1);
    return new Promise<Sdk>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('The sign-in service is still loading, try again')), sdkWaitMs);
      sdkWaiters.current.push({
        resolve(value) {
          clearTimeout(timer);
          resolve(value);
        },
        reject(error) {
          clearTimeout(timer);
          reject(error);
        },
      });
    });
  }, []);

  const logout = useCallback(async () => {
    clearAccessToken();
    firebaseUser.current = null;
    // A visitor who never needed the SDK has no Firebase session to end.
    if (wanted.current) {
      const { fb, auth } = await ready();
      await fb.signOut(auth);
    }
    await apollo.clearStore();
    setUser(null);
    setStatus('signedOut');
  }, [apollo, ready]);

  // How the session is renewed (lib/session.ts; the API client asks after a 401): a current Firebase ID token
  // of the signed-in account exchanged again, no profile. Firebase is asked about the account (checkRevoked), so
  // one deleted or disabled since is refused, and the session ends.
  useEffect(
    () =>
      setSessionRenewer(async () => {
        try {
          await ready();
          await firebaseUserKnown.current.promise;
          const fbUser = firebaseUser.current;
          if (!fbUser) return 'refused';
          await establish(fbUser, { again: 'renew' });
          return 'renewed';
        } catch (error) {
          return failedRenewal(error);
        }
      }),
    [ready, establish],
  );

  // Renews the access token before it runs out, silently: the page, its state and its place stay as they are.
  useEffect(() => {
    if (status !== 'signedIn') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const plan = (delayMs: number) => {
      clearTimeout(timer);
      // Up to 5 % later, so that the tabs of one browser do not all renew the token they share at once.
      timer = setTimeout(() => void check(), Math.max(1000, delayMs * (1 + Math.random() * 0.05)));
    };
    const check = async () => {
      const due = renewalDue(getAccessToken());
      if (due === null) return;
      // Not yet, or another tab renewed it already.
      if (due > Date.now()) return plan(due - Date.now());
      const outcome = await renewSession();
      if (stopped) return;
      if (outcome === 'refused') {
        if (getAccessToken() !== null) expireSession();
        return;
      }
      // Renewed: the next check plans from the new token.
      plan(outcome === 'renewed' ? 0 : renewalRetryMs);
    };
    // A tab coming back (a laptop waking, a background tab whose timers the browser slowed) checks at once.
    const visible = () => {
      if (document.visibilityState === 'visible') void check();
    };
    document.addEventListener('visibilitychange', visible);
    void check();
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', visible);
    };
  }, [status]);

  const value = useMemo<AuthContextValue>(
    () => ({
      status,
      user,
      async login(email, password) {
        const { fb, auth } = await ready();
        const credential = await fb.signInWithEmailAndPassword(auth, email, password);
        await establish(credential.user);
        enter(credential.user);
      },
      async signup(name, email, password) {
        const { fb, auth } = await ready();
        // One exchange, with the name: the sign-in listener, which would exchange the new account's sign-in at
        // once and without it, leaves this one to us. (Two exchanges used to race: a page could show the new
        // account signed in while the second, started after the access token was cleared, was still on its way
        // or had failed, leaving it without a token.)
        signingUp.current = true;
        let credential: import('firebase/auth').UserCredential | undefined;
        try {
          credential = await fb.createUserWithEmailAndPassword(auth, email, password);
          await fb.updateProfile(credential.user, { displayName: name });
          clearAccessToken();
          await establish(credential.user, { profile: { name } });
        } catch (error) {
          // Created but not exchanged: signed out of Firebase too (the listener, no longer held off, says so).
          signingUp.current = false;
          if (credential) await fb.signOut(auth);
          throw error;
        }
        signingUp.current = false;
        enter(credential.user, { ...toUser(credential.user), displayName: name });
      },
      async loginWithGoogle(account) {
        const { fb, auth } = await ready();
        const credential = account
          ? await fb.signInWithCredential(
              auth,
              fb.GoogleAuthProvider.credential(await googleIdTokenForEmulator(account)),
            )
          : await fb.signInWithPopup(auth, new fb.GoogleAuthProvider());
        await establish(credential.user);
        enter(credential.user);
      },
      logout,
      async sendVerificationEmail() {
        const { fb, auth } = await ready();
        if (!auth.currentUser) throw new Error('No user is logged in');
        await fb.sendEmailVerification(auth.currentUser);
      },
      async checkVerification() {
        const { auth } = await ready();
        const current = auth.currentUser;
        if (!current) throw new Error('No user is logged in');
        await current.reload();
        if (current.emailVerified) await establish(current, { again: 'fresh' });
        setUser(toUser(current));
        return current.emailVerified;
      },
    }),
    [status, user, ready, establish, enter, logout],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** The sign-in state where it may be missing (a part card rendered outside the app's providers): null then. */
export const useOptionalAuth = (): AuthContextValue | null => useContext(AuthContext);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}
