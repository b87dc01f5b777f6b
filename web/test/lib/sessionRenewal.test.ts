import { MyPaymentsDocument, SignInDocument } from '../../src/generated/graphql';
import { createApolloClient } from '../../src/lib/apollo';
import {
  clearAccessToken,
  getAccessToken,
  onSessionExpired,
  setAccessToken,
  setSessionRenewer,
  type Renewal,
} from '../../src/lib/session';

/**
 * Issue 32, point 11: access tokens live minutes. One that ran out before the auth provider renewed it is
 * renewed by the API client after the API's 401, and the request is sent once more, once: the page gets its
 * answer, with no sign-out, toast or reload.
 */

/** Answers each request with the next status of `statuses` (the last one repeats), recording its token. */
function answerWith(...statuses: number[]) {
  const tokens: (string | undefined)[] = [];
  globalThis.fetch = jest.fn(async (_input: string | URL | Request, init?: RequestInit) => {
    const headers = Object.fromEntries(Object.entries(init?.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    tokens.push((headers.authorization as string | undefined)?.replace('Bearer ', ''));
    const status = statuses[Math.min(tokens.length - 1, statuses.length - 1)];
    const body =
      status === 200
        ? { data: { myPayments: [] } }
        : {
            errors: [
              { message: 'Your session has expired, please sign in again', extensions: { code: 'UNAUTHENTICATED' } },
            ],
          };
    return {
      ok: status === 200,
      status,
      headers: new Headers({ 'content-type': 'application/json' }),
      text: async () => JSON.stringify(body),
    } as Response;
  }) as typeof fetch;
  return tokens;
}

/** A renewer that answers `outcome` (storing a new token when renewed) and counts its calls. */
function renewTo(outcome: Renewal) {
  const renew = jest.fn(async (): Promise<Renewal> => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (outcome === 'renewed') setAccessToken('renewed-token');
    return outcome;
  });
  return { renew, stop: setSessionRenewer(renew) };
}

const payments = (client = createApolloClient()) =>
  client.query({ query: MyPaymentsDocument, fetchPolicy: 'network-only', context: { queryDeduplication: false } });

describe('the API client renews a session that ran out', () => {
  const originalFetch = globalThis.fetch;
  const expired = jest.fn();
  let stopListening: () => void;
  let stopRenewing = () => {};
  beforeEach(() => {
    expired.mockClear();
    stopListening = onSessionExpired(expired);
    setAccessToken('token-that-ran-out');
  });
  afterEach(() => {
    stopListening();
    stopRenewing();
    globalThis.fetch = originalFetch;
    clearAccessToken();
  });

  it('after a 401 it renews, sends the request once more with the new token, and the page gets its answer', async () => {
    const tokens = answerWith(401, 200);
    const { renew, stop } = renewTo('renewed');
    stopRenewing = stop;
    const result = await payments();
    expect(result.data).toEqual({ myPayments: [] });
    expect(tokens).toEqual(['token-that-ran-out', 'renewed-token']);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(expired).not.toHaveBeenCalled();
    expect(getAccessToken()).toBe('renewed-token');
  });

  it('a request refused again after the renewal is not sent a third time: the session ends', async () => {
    const tokens = answerWith(401);
    const { renew, stop } = renewTo('renewed');
    stopRenewing = stop;
    await expect(payments()).rejects.toMatchObject({ networkError: { statusCode: 401 } });
    expect(tokens).toEqual(['token-that-ran-out', 'renewed-token']);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(expired).toHaveBeenCalledTimes(1);
    expect(getAccessToken()).toBeNull();
  });

  it('requests refused at the same moment share one renewal, and each is sent once more', async () => {
    const tokens = answerWith(401, 401, 401, 200);
    const { renew, stop } = renewTo('renewed');
    stopRenewing = stop;
    const client = createApolloClient();
    const results = await Promise.all([payments(client), payments(client), payments(client)]);
    expect(results.map((r) => r.data)).toEqual([{ myPayments: [] }, { myPayments: [] }, { myPayments: [] }]);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(tokens.filter((t) => t === 'renewed-token')).toHaveLength(3);
    expect(tokens).toHaveLength(6);
    expect(expired).not.toHaveBeenCalled();
  });

  it('a renewal refused (the Firebase account deleted or disabled) ends the session without sending again', async () => {
    const tokens = answerWith(401, 200);
    const { renew, stop } = renewTo('refused');
    stopRenewing = stop;
    await expect(payments()).rejects.toMatchObject({ networkError: { statusCode: 401 } });
    expect(tokens).toHaveLength(1);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(expired).toHaveBeenCalledTimes(1);
    expect(getAccessToken()).toBeNull();
  });

  it('a renewal not possible now (offline) fails the request but keeps the session for the next one', async () => {
    const tokens = answerWith(401, 200);
    const { stop } = renewTo('unavailable');
    stopRenewing = stop;
    await expect(payments()).rejects.toMatchObject({ networkError: { statusCode: 401 } });
    expect(tokens).toHaveLength(1);
    expect(expired).not.toHaveBeenCalled();
    expect(getAccessToken()).toBe('token-that-ran-out');
  });

  it('the renewal itself (SignIn) refused is not renewed again', async () => {
    const tokens = answerWith(401);
    const { renew, stop } = renewTo('renewed');
    stopRenewing = stop;
    await expect(
      createApolloClient().mutate({ mutation: SignInDocument, variables: { idToken: 'id-token' } }),
    ).rejects.toMatchObject({ networkError: { statusCode: 401 } });
    expect(tokens).toHaveLength(1);
    expect(renew).not.toHaveBeenCalled();
  });
});
