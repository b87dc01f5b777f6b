import { ApolloClient, ApolloLink, from, HttpLink, InMemoryCache, Observable } from '@apollo/client';
import { setContext } from '@apollo/client/link/context';
import { expireSession, getAccessToken, renewSession } from './session';

/**
 * Queries whose answers are the same for every caller. They go as GET and without the Authorization header,
 * so browsers and proxies may keep the server's answer as long as its Cache-Control allows. Apollo Server's
 * CSRF prevention takes a GET only with a header a plain cross-site request cannot send.
 */
export const publicQueries = new Set([
  'ClientSettings',
  'HomeData',
  'Catalog',
  'CatalogList',
  'CategoryBySlug',
  'BrandBySlug',
  'VehicleBySlugs',
  'Part',
  'PartDetails',
  'PartFit',
  'PartFitment',
  'PickerMakes',
  'PickerModels',
  'PickerVehicles',
]);

const authLink = setContext(({ operationName }, { headers }: { headers?: Record<string, string> }) => {
  if (publicQueries.has(operationName ?? '')) {
    return { fetchOptions: { method: 'GET' }, headers: { ...headers, 'apollo-require-preflight': 'true' } };
  }
  const token = getAccessToken();
  return { headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } };
});

const unauthorized = (error: unknown) => (error as { statusCode?: number } | null)?.statusCode === 401;

/**
 * The API answers a refused GraphQL request with HTTP 401 (no or bad token, or one that ran out) or 403 (no
 * right). An access token lives minutes (JWT_EXPIRES_IN) and the auth provider renews it before it runs out;
 * one that ran out even so (a sleeping laptop, a throttled background tab) is renewed here, and the request sent
 * once more with the new one: at most once per request, and never for the renewal (SignIn) itself. Only a
 * session that cannot be renewed signs the visitor out; a 403 is about one thing (another customer's order),
 * which the page says is not found or not theirs (the spec signed out on both: docs/decisions.md, "Web client").
 */
const sessionLink = new ApolloLink(
  (operation, forward) =>
    new Observable((observer) => {
      const sent = getAccessToken();
      const name = operation.operationName ?? '';
      const renewable = sent !== null && name !== 'SignIn' && !publicQueries.has(name);
      let request: { unsubscribe: () => void } | undefined;
      let closed = false;
      const send = (mayRenew: boolean) => {
        request = forward(operation).subscribe({
          next: (result) => observer.next(result),
          complete: () => observer.complete(),
          error: (error: unknown) => {
            if (!unauthorized(error)) return observer.error(error);
            if (!mayRenew) {
              expireSession();
              return observer.error(error);
            }
            // Another request may have renewed it since this one was sent.
            const current = getAccessToken();
            const renewal = current && current !== sent ? Promise.resolve('renewed' as const) : renewSession();
            void renewal.then((outcome) => {
              if (closed) return;
              if (outcome === 'renewed') return send(false);
              // Once: the refused renewal (SignIn's own 401) may have expired it already.
              if (outcome === 'refused' && getAccessToken() !== null) expireSession();
              observer.error(error);
            });
          },
        });
      };
      send(renewable);
      return () => {
        closed = true;
        request?.unsubscribe();
      };
    }),
);

export function createApolloClient() {
  return new ApolloClient({
    link: from([sessionLink, authLink, new HttpLink({ uri: '/graphql' })]),
    cache: new InMemoryCache({
      // A company's members and invitations come whole with each answer (a member row has no id of its own):
      // the newest list replaces the old one.
      typePolicies: { Company: { fields: { members: { merge: false }, invitations: { merge: false } } } },
    }),
  });
}

interface ErrorShape {
  graphQLErrors?: { message: string; extensions?: { code?: string; fields?: Record<string, string> } }[];
  networkError?: { statusCode?: number; result?: { errors?: ErrorShape['graphQLErrors'] } } | null;
}

function firstError(error: unknown) {
  const e = error as ErrorShape;
  return e?.graphQLErrors?.[0] ?? e?.networkError?.result?.errors?.[0];
}

/** The message of a failed request, for a toast or for red text under a form. */
export function errorMessage(error: unknown): string {
  const first = firstError(error);
  if (first) return first.message;
  if ((error as ErrorShape)?.networkError) return 'Could not reach the shop. Check your connection and try again.';
  return error instanceof Error ? error.message : 'Something went wrong';
}

/** The error's code (UNAUTHENTICATED, FORBIDDEN, BAD_USER_INPUT, NOT_FOUND, CONFLICT), if any. */
export const errorCode = (error: unknown): string | undefined => firstError(error)?.extensions?.code;

/** Per-field messages of a BAD_USER_INPUT answer, to show under the form's fields. */
export const fieldErrors = (error: unknown): Record<string, string> => firstError(error)?.extensions?.fields ?? {};
