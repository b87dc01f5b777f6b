import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControl } from '@apollo/server/plugin/cacheControl';
import { OperationTypeNode } from 'graphql';
import type { WriteTracker } from '../http/answerCache';
import type { GraphQLContext } from './context';

/**
 * Caching of public answers, the GraphQL side (docs/decisions.md, "Caching and speed").
 *
 * - Hints: `@cacheControl(maxAge)` in schema.graphql marks the public queries (parts, part, popularParts,
 *   reviews, the client settings); Apollo adds up an answer's policy from the fields it holds.
 * - Headers: an anonymous query whose answer is public and without errors carries
 *   `Cache-Control: public, max-age=0, s-maxage=<maxAge>` (shared caches keep it that long, browsers
 *   revalidate every time with the ETag); everything else, and anything asked with a token, `no-store`.
 * - A mutation is a write: it drops the answers this process keeps (`http/answerCache.ts`, which also keeps
 *   them and tells the other replicas) from when its operation is resolved until its answer is sent.
 */

/** A caller without a token. A caller with any token, even one refused, is never answered from a cache. */
const isAnonymous = (context: GraphQLContext) => !context.credentials;

/** The Apollo plugins of caching: the cache hints, and the Cache-Control header they lead to. */
export function cachingPlugins(writes: WriteTracker): ApolloServerPlugin<GraphQLContext>[] {
  // The hints of schema.graphql add up to each answer's policy; the header is written below. Only an anonymous
  // request's answer may be cached, so only it pays for the hints: Apollo's plugin hooks into every field it
  // resolves (a page of 20 orders: 300 fields), which a signed-in request, never cached, does not need.
  const hints = ApolloServerPluginCacheControl({ calculateHttpHeaders: false });
  const hintsForAnonymousRequests: ApolloServerPlugin<GraphQLContext> = {
    // Apollo installs its own (for every request) unless a plugin carries this id.
    ...({ __internal_plugin_id__: 'CacheControl', __is_disabled_plugin__: false } as object),
    serverWillStart: async (service) => hints.serverWillStart?.(service),
    requestDidStart: async (request) =>
      isAnonymous(request.contextValue) ? hints.requestDidStart?.(request) : undefined,
  };
  return [
    hintsForAnonymousRequests,
    {
      async requestDidStart({ contextValue }) {
        let endWrite: (() => void) | undefined;
        return {
          async didResolveOperation({ operation, overallCachePolicy }) {
            if (operation?.operation === OperationTypeNode.MUTATION) endWrite = writes.begin();
            // Only an anonymous query may be cached; deciding it now also spares the per-field hints.
            if (operation?.operation !== OperationTypeNode.QUERY || !isAnonymous(contextValue))
              overallCachePolicy.restrict({ maxAge: 0 });
          },
          async willSendResponse({ response, overallCachePolicy, requestIsBatched, operation }) {
            endWrite?.();
            const policy = overallCachePolicy.policyIfCacheable();
            const cacheable =
              policy?.scope === 'PUBLIC' &&
              operation?.operation === OperationTypeNode.QUERY &&
              isAnonymous(contextValue) &&
              !requestIsBatched &&
              response.body.kind === 'single' &&
              !response.body.singleResult.errors;
            response.http.headers.set(
              'cache-control',
              cacheable ? `public, max-age=0, s-maxage=${policy.maxAge}` : 'no-store',
            );
            // A cached anonymous answer must not be reused for a request that carries a token.
            response.http.headers.set('vary', 'Authorization');
          },
        };
      },
    },
  ];
}
