import { useApolloClient } from '@apollo/client';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { SignInDocument, type SignInMutation, type SignInMutationVariables } from '../../generated/graphql';
import { clearAccessToken, getAccessToken, setAccessToken } from '../../lib/session';
import { useClientSettings } from '../../app/ClientSettings';

export interface AuthUser {
  uid: string;
  email: string;
  displayName: string;
  photoURL: string;
}

export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

interface AuthContextValue {
  status: AuthStatus;
  user: AuthUser | null;
  login(email: string, password: string): Promise<void>;
  signup(name: string, email: string, password: string): Promise<void>;
  loginWithGoogle(): Promise<void>;
  logout(): Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** The email an access token was issued for, read without verifying (the server verifies). */
function tokenEmail(token: string): string | null {
  try {
    const payload = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))) as {
      email?: string;
      exp?: number;
    };
    if (payload.exp && payload.exp * 1000 < Date.now()) return null;
    return payload.email ?? null;
  } catch {
    return null;
  }
}

type FirebaseModule = typeof import('firebase/auth');

/**
 * Sign-in state. The Firebase SDK is loaded after first paint (dynamic import), then signs in against the
 * provider the API's client settings name; each Firebase sign-in is exchanged for our access token.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const settings = useClientSettings();
  const apollo = useApolloClient();
  const [status, setStatus] = useState<AuthStatus>('loading');
  const [user, setUser] = useState<AuthUser | null>(null);
  const sdk = useRef<{ fb: FirebaseModule; auth: import('firebase/auth').Auth } | null>(null);
  const exchanging = useRef<Promise<void> | null>(null);

  const toUser = (u: import('firebase/auth').User): AuthUser => ({
    uid: u.uid,
    email: u.email ?? '',
    displayName: u.displayName ?? '',
    photoURL: u.photoURL ?? '',
  });

  /** Makes sure we hold an access token for this Firebase user, saving the profile on the way (spec §4). */
  const establish = useCallback(
    async (fbUser: import('firebase/auth').User, profile?: { name?: string; avatar?: string }) => {
      const token = getAccessToken();
      if (token && tokenEmail(token) === fbUser.email?.toLowerCase()) return;
      exchanging.current ??= (async () => {
        const idToken = await fbUser.getIdToken();
        const { data } = await apollo.mutate<SignInMutation, SignInMutationVariables>({
          mutation: SignInDocument,
          variables: {
            idToken,
            profile: {
              name: profile?.name ?? fbUser.displayName ?? '',
              avatar: profile?.avatar ?? fbUser.photoURL ?? '',
            },
          },
        });
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
    if (!settings) return;
    let unsubscribe = () => {};
    let cancelled = false;
    void Promise.all([import('firebase/auth'), import('../../lib/firebase')]).then(([fb, lib]) => {
      if (cancelled) return;
      const auth = lib.firebaseAuth(settings.firebase);
      sdk.current = { fb, auth };
      unsubscribe = fb.onAuthStateChanged(auth, async (fbUser) => {
        if (!fbUser) {
          clearAccessToken();
          setUser(null);
          setStatus('signedOut');
          return;
        }
        try {
          await establish(fbUser);
          setUser(toUser(fbUser));
          setStatus('signedIn');
        } catch {
          await fb.signOut(auth);
        }
      });
    });
    return () => {
      cancelled = true;
      unsubscribe();
    };
  }, [settings, establish]);

  const ready = useCallback(async () => {
    for (let i = 0; i < 100 && !sdk.current; i++) await new Promise((r) => setTimeout(r, 50));
    if (!sdk.current) throw new Error('The sign-in service is still loading, try again');
    return sdk.current;
  }, []);

  const logout = useCallback(async () => {
    clearAccessToken();
    const { fb, auth } = await ready();
    await fb.signOut(auth);
    await apollo.clearStore();
    setUser(null);
    setStatus('signedOut');
  }, [apollo, ready]);

  const value = useMemo<AuthContextValue>(
    () => ({
      status,
      user,
      async login(email, password) {
        const { fb, auth } = await ready();
        const credential = await fb.signInWithEmailAndPassword(auth, email, password);
        await establish(credential.user);
        setUser(toUser(credential.user));
        setStatus('signedIn');
      },
      async signup(name, email, password) {
        const { fb, auth } = await ready();
        const credential = await fb.createUserWithEmailAndPassword(auth, email, password);
        await fb.updateProfile(credential.user, { displayName: name });
        clearAccessToken();
        await establish(credential.user, { name });
        setUser({ ...toUser(credential.user), displayName: name });
        setStatus('signedIn');
      },
      async loginWithGoogle() {
        const { fb, auth } = await ready();
        const credential = await fb.signInWithPopup(auth, new fb.GoogleAuthProvider());
        await establish(credential.user);
        setUser(toUser(credential.user));
        setStatus('signedIn');
      },
      logout,
    }),
    [status, user, ready, establish, logout],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}
