import { MockedProvider, type MockedResponse } from '@apollo/client/testing';
import { act, render, screen, waitFor } from '@testing-library/react';
import { GraphQLError } from 'graphql';
import { AuthProvider, useAuth } from '../../src/lib/auth';
import { SignInDocument } from '../../src/generated/graphql';
import {
  clearAccessToken,
  getAccessToken,
  onSessionExpired,
  renewSession,
  setAccessToken,
} from '../../src/lib/session';

// The identity SDK, as far as the provider uses it; the factory runs when the SDK is first loaded.
const mockSdkLoaded = jest.fn();
const mockFirebaseUser = { current: null as null | Record<string, unknown> };
const mockListeners = new Set<(user: unknown) => void>();
jest.mock('firebase/auth', () => {
  mockSdkLoaded();
  return {
    onAuthStateChanged: (_auth: unknown, listener: (user: unknown) => void) => {
      mockListeners.add(listener);
      void Promise.resolve().then(() => listener(mockFirebaseUser.current));
      return () => mockListeners.delete(listener);
    },
    signInWithEmailAndPassword: async () => ({ user: mockFirebaseUser.current }),
    // As Firebase does: the new account is signed in, and the listeners hear of it before the call returns.
    createUserWithEmailAndPassword: async () => {
      mockListeners.forEach((listener) => listener(mockFirebaseUser.current));
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { user: mockFirebaseUser.current };
    },
    updateProfile: async (user: Record<string, unknown>, profile: { displayName: string }) => {
      user.displayName = profile.displayName;
    },
    signOut: async () => {},
  };
});
jest.mock('../../src/lib/firebase', () => ({ firebaseAuth: () => ({ name: 'test auth' }) }));
// One object, as the app's settings are (a new one each render would restart the provider's SDK effect).
const mockSettings = {
  demoMode: false,
  firebase: { apiKey: 'k', authDomain: 'd', projectId: 'p', emulatorUrl: null },
  payments: { mode: 'TEST', publishableKey: null },
};
jest.mock('../../src/lib/clientSettings', () => ({ useClientSettings: () => mockSettings }));

const mockGetIdToken = jest.fn(async (_fresh?: boolean) => 'id');
const rider = {
  uid: 'u1',
  email: 'rider@example.com',
  emailVerified: false,
  displayName: 'Rider',
  photoURL: '',
  getIdToken: mockGetIdToken,
};

/** An access token as the server makes them, for a Firebase account (`fid`); the server checks the signature. */
const tokenFor = (fid: string) => `h.${btoa(JSON.stringify({ fid, exp: Math.floor(Date.now() / 1000) + 3600 }))}.sig`;
const riderToken = tokenFor('u1');

let auth: ReturnType<typeof useAuth>;
function Status() {
  auth = useAuth();
  return <output data-testid="status">{`${auth.status} ${auth.user?.email ?? ''}`.trim()}</output>;
}

const signIn = {
  request: { query: SignInDocument, variables: { idToken: 'id', profile: { name: 'Rider', avatar: '' } } },
  result: {
    data: {
      signIn: {
        __typename: 'SignInResult',
        token: riderToken,
        user: {
          __typename: 'User',
          id: 'u1',
          email: 'rider@example.com',
          name: 'Rider',
          avatar: '',
          phone: '',
          education: '',
          location: '',
          linkedIn: '',
          role: 'CUSTOMER',
          isAdmin: false,
          emailVerified: false,
        },
      },
    },
  },
};

const renderProvider = () =>
  render(
    <MockedProvider mocks={[signIn]}>
      <AuthProvider>
        <Status />
      </AuthProvider>
    </MockedProvider>,
  );

const status = () => screen.getByTestId('status').textContent;

// In this order: the SDK module, once loaded, stays loaded for the file.
describe('sign-in state', () => {
  afterEach(() => clearAccessToken());

  it('a visitor without an access token is signed out at once, and the identity SDK is not loaded', async () => {
    renderProvider();
    expect(status()).toBe('signedOut');
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(mockSdkLoaded).not.toHaveBeenCalled();
  });

  it('logging in loads the identity SDK, then exchanges the Firebase sign-in for our access token', async () => {
    mockFirebaseUser.current = null;
    renderProvider();
    mockFirebaseUser.current = rider;
    let outcome: unknown = 'pending';
    act(() => {
      auth.login('rider@example.com', 'secret').then(
        () => (outcome = 'done'),
        (error: unknown) => (outcome = error),
      );
    });
    await waitFor(() => expect(outcome).toBe('done'), { timeout: 5000 });
    expect(mockSdkLoaded).toHaveBeenCalledTimes(1);
    expect(status()).toBe('signedIn rider@example.com');
    expect(getAccessToken()).toBe(riderToken);
  });

  it('a visitor with an access token is loading until the identity SDK confirms the session', async () => {
    setAccessToken(riderToken);
    mockFirebaseUser.current = rider;
    mockGetIdToken.mockClear();
    renderProvider();
    expect(status()).toBe('loading');
    await waitFor(() => expect(status()).toBe('signedIn rider@example.com'));
    // The token was issued for this Firebase account: kept, no new exchange.
    expect(mockGetIdToken).not.toHaveBeenCalled();
    expect(getAccessToken()).toBe(riderToken);
  });

  it('a stored access token of another Firebase account is exchanged again for the one signed in', async () => {
    setAccessToken(tokenFor('someone-else'));
    mockFirebaseUser.current = rider;
    mockGetIdToken.mockClear();
    renderProvider();
    await waitFor(() => expect(status()).toBe('signedIn rider@example.com'));
    expect(mockGetIdToken).toHaveBeenCalled();
    expect(getAccessToken()).toBe(riderToken);
  });

  it('an ID token refused as revoked is exchanged once more with a newly issued one; a second refusal signs out', async () => {
    const refused = (idToken: string) => ({
      request: { query: SignInDocument, variables: { idToken, profile: { name: 'Rider', avatar: '' } } },
      result: {
        errors: [
          new GraphQLError('This sign-in was revoked, please sign in again', {
            extensions: { code: 'UNAUTHENTICATED' },
          }),
        ],
      },
    });
    // The cached ID token ('stale') is refused; the one issued on asking (true) is not.
    mockGetIdToken.mockImplementation(async (fresh?: boolean) => (fresh ? 'id' : 'stale'));
    mockGetIdToken.mockClear();
    mockFirebaseUser.current = rider;
    // A stored token of another account: the session is exchanged as the provider starts.
    setAccessToken(tokenFor('someone-else'));
    const first = render(
      <MockedProvider mocks={[refused('stale'), signIn]}>
        <AuthProvider>
          <Status />
        </AuthProvider>
      </MockedProvider>,
    );
    await waitFor(() => expect(status()).toBe('signedIn rider@example.com'));
    expect(mockGetIdToken.mock.calls.map(([fresh]) => fresh === true)).toEqual([false, true]);
    expect(getAccessToken()).toBe(riderToken);
    first.unmount();
    clearAccessToken();

    // Refused again with the new one (the account really was revoked): no token, and no third try.
    mockGetIdToken.mockClear();
    render(
      <MockedProvider mocks={[refused('stale'), refused('id')]}>
        <AuthProvider>
          <Status />
        </AuthProvider>
      </MockedProvider>,
    );
    let outcome: unknown = 'pending';
    act(() => {
      auth.login('rider@example.com', 'secret').then(
        () => (outcome = 'done'),
        (error: unknown) => (outcome = error),
      );
    });
    await waitFor(() => expect(outcome).not.toBe('pending'), { timeout: 5000 });
    expect(outcome).toBeInstanceOf(Error);
    expect(mockGetIdToken).toHaveBeenCalledTimes(2);
    expect(getAccessToken()).toBeNull();
    mockGetIdToken.mockImplementation(async () => 'id');
  });

  it('signing up exchanges the new account once, with its name, and ends signed in with its access token', async () => {
    const newcomer = { ...rider, uid: 'u2', displayName: '' };
    const newcomerToken = tokenFor('u2');
    const asked: unknown[] = [];
    const signUpExchange = {
      request: { query: SignInDocument },
      variableMatcher: (variables: unknown) => {
        asked.push(variables);
        return true;
      },
      result: { data: { signIn: { ...signIn.result.data.signIn, token: newcomerToken } } },
      maxUsageCount: 2,
    };
    mockGetIdToken.mockImplementation(async () => 'id');
    mockFirebaseUser.current = null;
    render(
      <MockedProvider mocks={[signUpExchange]}>
        <AuthProvider>
          <Status />
        </AuthProvider>
      </MockedProvider>,
    );
    mockFirebaseUser.current = { ...newcomer, getIdToken: mockGetIdToken };
    let outcome: unknown = 'pending';
    act(() => {
      auth.signup('Nia Rider', 'rider@example.com', 'secret').then(
        () => (outcome = 'done'),
        (error: unknown) => (outcome = error),
      );
    });
    await waitFor(() => expect(outcome).toBe('done'), { timeout: 5000 });
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(asked).toEqual([{ idToken: 'id', profile: { name: 'Nia Rider', avatar: '' } }]);
    expect(getAccessToken()).toBe(newcomerToken);
    expect(status()).toBe('signedIn rider@example.com');
  });

  describe('renewing the session (issue 32, point 11)', () => {
    /** An access token of the rider's account that lives `seconds` from now, as the server issues them. */
    const shortLived = (seconds: number, label: string) => {
      const iat = Math.floor(Date.now() / 1000);
      return `h.${btoa(JSON.stringify({ fid: 'u1', iat, exp: iat + seconds, label }))}.sig`;
    };
    /** The renewal as the provider sends it: the current ID token alone (the shop's profile stays as it is). */
    const renewal = (result: object, maxUsageCount = 1) => ({
      request: { query: SignInDocument, variables: { idToken: 'id' } },
      result,
      maxUsageCount,
    });
    const renewedTo = (token: string) => ({ data: { signIn: { ...signIn.result.data.signIn, token } } });
    const refused = {
      errors: [new GraphQLError('This account no longer exists', { extensions: { code: 'UNAUTHENTICATED' } })],
    };
    const renderWith = (mocks: MockedResponse[]) =>
      render(
        <MockedProvider mocks={mocks}>
          <AuthProvider>
            <Status />
          </AuthProvider>
        </MockedProvider>,
      );

    beforeEach(() => {
      mockFirebaseUser.current = rider;
      mockGetIdToken.mockImplementation(async () => 'id');
      mockGetIdToken.mockClear();
    });

    it('renews the access token before it runs out, silently: still signed in, no profile sent, no page change', async () => {
      // 8 s: renewed at 80 % (6.4 s), 1.6 s before it runs out, less the jitter (up to 5 %) and the second the
      // claims round down, so a loaded machine's late timer still renews in time (3 s left 0.45 s: CI missed it).
      const first = shortLived(8, 'first');
      setAccessToken(first);
      const second = shortLived(8, 'second');
      const asked: number[] = [];
      const statuses = new Set<string | null>();
      renderWith([
        {
          request: { query: SignInDocument },
          // The renewal as the provider sends it: the current ID token alone (the shop's profile stays).
          variableMatcher: (variables: unknown) => {
            asked.push(Date.now());
            return JSON.stringify(variables) === JSON.stringify({ idToken: 'id' });
          },
          result: renewedTo(second),
        },
      ]);
      await waitFor(() => expect(status()).toBe('signedIn rider@example.com'));
      expect(getAccessToken()).toBe(first);
      await waitFor(
        () => {
          statuses.add(status());
          expect(getAccessToken()).toBe(second);
        },
        { timeout: 10_000, interval: 20 },
      );
      // At 80 % of its life (6.4 s of 8): before the first token ran out.
      const { exp } = JSON.parse(atob(first.split('.')[1])) as { exp: number };
      expect(asked).toHaveLength(1);
      expect(asked[0]).toBeLessThan(exp * 1000);
      expect([...statuses]).toEqual(['signedIn rider@example.com']);
      expect(mockGetIdToken).toHaveBeenCalledTimes(1);
    });

    it('a renewal refused (the Firebase account deleted or disabled) ends the session', async () => {
      setAccessToken(shortLived(1, 'last'));
      const expired = jest.fn();
      const stop = onSessionExpired(expired);
      // Refused, then refused again with a newly issued ID token (the account really is gone).
      renderWith([renewal(refused, 2)]);
      await waitFor(() => expect(expired).toHaveBeenCalledTimes(1), { timeout: 4000 });
      stop();
      expect(getAccessToken()).toBeNull();
    });

    it('a session whose token ran out is restored at load with no profile sent (the shop keeps the one it holds)', async () => {
      const iat = Math.floor(Date.now() / 1000) - 3600;
      setAccessToken(`h.${btoa(JSON.stringify({ fid: 'u1', iat, exp: iat + 900 }))}.sig`);
      const renewed = shortLived(900, 'restored');
      renderWith([renewal(renewedTo(renewed))]);
      await waitFor(() => expect(status()).toBe('signedIn rider@example.com'));
      expect(getAccessToken()).toBe(renewed);
    });

    it('the renewal the API client asks for after a 401 exchanges a current ID token of the signed-in account', async () => {
      setAccessToken(tokenFor('u1'));
      const renewed = shortLived(900, 'after-401');
      renderWith([renewal(renewedTo(renewed))]);
      await waitFor(() => expect(status()).toBe('signedIn rider@example.com'));
      let outcome: unknown;
      await act(async () => {
        outcome = await renewSession();
      });
      expect(outcome).toBe('renewed');
      expect(getAccessToken()).toBe(renewed);
      expect(status()).toBe('signedIn rider@example.com');
    });
  });
});
