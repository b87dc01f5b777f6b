import { CatalogDocument, MyPaymentsDocument, SendContactMessageDocument } from '../../src/generated/graphql';
import { createApolloClient, publicQueries } from '../../src/lib/apollo';
import { clearAccessToken, getAccessToken, onSessionExpired, setAccessToken } from '../../src/lib/session';

interface Sent {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

/** Answers every request with `data` and records what the client sent. */
function recordRequests(data: unknown): Sent[] {
  const sent: Sent[] = [];
  globalThis.fetch = jest.fn(async (input: string | URL | Request, init?: RequestInit) => {
    sent.push({
      method: init?.method ?? 'GET',
      url: new URL(String(input), 'http://shop.test'),
      headers: Object.fromEntries(Object.entries(init?.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)])),
      body: init?.body ? String(init.body) : undefined,
    });
    return { ok: true, status: 200, headers: new Headers(), text: async () => JSON.stringify({ data }) } as Response;
  }) as typeof fetch;
  return sent;
}

const part = {
  __typename: 'Part',
  id: 'p1',
  name: 'Chain',
  description: 'A chain.',
  image: '',
  price: 10,
  minOrder: 1,
  available: 5,
};

describe('the API client', () => {
  const originalFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = originalFetch;
    clearAccessToken();
  });

  it('sends the public queries as GET with apollo-require-preflight, and without the access token', async () => {
    setAccessToken('token-of-a-signed-in-user');
    const sent = recordRequests({
      parts: { __typename: 'PartPage', items: [part], total: 1, offset: 0, limit: 20 },
    });
    await createApolloClient().query({ query: CatalogDocument, variables: { search: 'chain', offset: 0, limit: 20 } });
    expect(sent).toHaveLength(1);
    expect(sent[0].method).toBe('GET');
    expect(sent[0].url.pathname).toBe('/graphql');
    expect(sent[0].url.searchParams.get('operationName')).toBe('Catalog');
    expect(JSON.parse(sent[0].url.searchParams.get('variables') ?? '{}')).toEqual({
      search: 'chain',
      offset: 0,
      limit: 20,
    });
    expect(sent[0].headers['apollo-require-preflight']).toBe('true');
    expect(sent[0].headers.authorization).toBeUndefined();
    expect(sent[0].body).toBeUndefined();
  });

  it("names the home data, catalogs (and the catalog's category, brand and vehicle look-ups), part (its page's details, fit and fitment too), client settings and vehicle picker's queries public, and nothing else", () => {
    expect([...publicQueries].sort()).toEqual([
      'BrandBySlug',
      'Catalog',
      'CatalogList',
      'CategoryBySlug',
      'ClientSettings',
      'HomeData',
      'Part',
      'PartDetails',
      'PartFit',
      'PartFitment',
      'PickerMakes',
      'PickerModels',
      'PickerVehicles',
      'VehicleBySlugs',
    ]);
  });

  it("sends other queries and every mutation as POST with the user's access token", async () => {
    setAccessToken('token-of-a-signed-in-user');
    const sent = recordRequests({
      myPayments: [],
      sendContactMessage: { __typename: 'ContactMessage', id: 'm1' },
    });
    const client = createApolloClient();
    await client.query({ query: MyPaymentsDocument });
    await client.mutate({
      mutation: SendContactMessageDocument,
      variables: { input: { firstName: 'R', lastName: 'D', phone: '', email: 'r@example.com', message: 'Hi' } },
    });
    expect(sent.map((s) => s.method)).toEqual(['POST', 'POST']);
    for (const request of sent) {
      expect(request.headers.authorization).toBe('Bearer token-of-a-signed-in-user');
      expect(request.url.search).toBe('');
    }
  });

  /** Answers every request with an HTTP `status` and a GraphQL error of `code`. */
  function refuseWith(status: number, code: string) {
    globalThis.fetch = jest.fn(
      async () =>
        ({
          ok: false,
          status,
          headers: new Headers({ 'content-type': 'application/json' }),
          text: async () => JSON.stringify({ errors: [{ message: 'refused', extensions: { code } }] }),
        }) as Response,
    ) as typeof fetch;
  }

  it('a 401 from the API (a refused session) clears the access token and tells the app to sign out', async () => {
    setAccessToken('a-token-the-server-no-longer-accepts');
    const expired = jest.fn();
    const stop = onSessionExpired(expired);
    refuseWith(401, 'UNAUTHENTICATED');
    await expect(createApolloClient().query({ query: MyPaymentsDocument })).rejects.toBeTruthy();
    stop();
    expect(expired).toHaveBeenCalledTimes(1);
    expect(getAccessToken()).toBeNull();
  });

  it('a 403 (no right to one thing) keeps the session: no sign-out', async () => {
    setAccessToken('a-good-token');
    const expired = jest.fn();
    const stop = onSessionExpired(expired);
    refuseWith(403, 'FORBIDDEN');
    await expect(createApolloClient().query({ query: MyPaymentsDocument })).rejects.toBeTruthy();
    stop();
    expect(expired).not.toHaveBeenCalled();
    expect(getAccessToken()).toBe('a-good-token');
  });
});
