import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControl } from '@apollo/server/plugin/cacheControl';
import { OperationTypeNode, type OperationDefinitionNode } from 'graphql';
import { isRefusal } from '../errors';
import { publicCacheControl, type WriteTracker } from '../http/answerCache';
import type { GraphQLContext } from './context';

/**
 * Caching of public answers, the GraphQL side (docs/decisions.md, "Caching and speed").
 *
 * - Hints: `@cacheControl(maxAge)` in schema.graphql marks the public queries (parts, part, popularParts,
 *   reviews, the client settings); Apollo adds up an answer's policy from the fields it holds.
 * - Headers: an anonymous query whose answer is public and without errors carries
 *   `Cache-Control: public, max-age=0, s-maxage=<maxAge>` (shared caches keep it that long, browsers
 *   revalidate every time with the ETag); everything else, and anything asked with a token, `no-store`.
 * - A query asked with a token whose operation never looks at the caller (public fields alone) gets the same
 *   public answer, from this process's cache or kept in it; other caches are still told `no-store`.
 * - A mutation that changed something drops the answers this process keeps, before its answer is sent
 *   (`http/answerCache.ts`, which also keeps them and tells the other replicas): one of its root fields resolved,
 *   or failed otherwise than by a refusal. A mutation whose every field was refused (no token, no right, bad
 *   input, not found: a refusal changes nothing) drops nothing and tells no replica.
 */

/** A request without credentials (no Authorization header). */
const isAnonymous = (context: GraphQLContext) => !context.credentials;

/** The Apollo plugins of caching: the cache hints, and the Cache-Control header they lead to. */
export function cachingPlugins(writes: WriteTracker): ApolloServerPlugin<GraphQLContext>[] {
  /**
   * Whether the answer may be kept and shared: a query from a request without credentials, or one whose
   * operation never looks at its caller (recorded by graphql/callerLookup.ts, whose plugin runs first: its
   * resolvers run without one), so that a signed-in customer's home page or catalog search is the visitor's answer.
   */
  const shareable = (context: GraphQLContext, operation: OperationDefinitionNode | null | undefined) =>
    operation?.operation === OperationTypeNode.QUERY && (isAnonymous(context) || context.callerFree);
  // The hints of schema.graphql add up to each answer's policy; the header is written below. Only a shareable
  // answer pays for them: Apollo's plugin hooks into every field resolved (a page of 20 orders: 300 fields),
  // which an answer that is never kept does not need.
  const hints = ApolloServerPluginCacheControl({ calculateHttpHeaders: false });
  const hintsForShareableAnswers: ApolloServerPlugin<GraphQLContext> = {
    // Apollo installs its own (for every request) unless a plugin carries this id.
    ...({ __internal_plugin_id__: 'CacheControl', __is_disabled_plugin__: false } as object),
    serverWillStart: async (service) => hints.serverWillStart?.(service),
    requestDidStart: async (request) => {
      const listener = await hints.requestDidStart?.(request);
      return {
        ...listener,
        executionDidStart: async (execution) =>
          shareable(execution.contextValue, execution.operation) ? listener?.executionDidStart?.(execution) : undefined,
      };
    },
  };
  return [
    hintsForShareableAnswers,
    {
      async requestDidStart({ contextValue }) {
        let changed = false;
        return {
          async didResolveOperation({ operation, overallCachePolicy }) {
            if (!shareable(contextValue, operation)) overallCachePolicy.restrict({ maxAge: 0 });
          },
          async executionDidStart({ operation }) {
            if (operation.operation !== OperationTypeNode.MUTATION) return;
            return {
              // Root fields only (the mutations themselves), each told when its resolver has finished.
              willResolveField: ({ info }) =>
                info.path.prev === undefined
                  ? (error: Error | null) => {
                      if (!error || !isRefusal(error)) changed = true;
                    }
                  : undefined,
            };
          },
          async willSendResponse({ response, overallCachePolicy, requestIsBatched, operation }) {
            // Before the answer is written: whoever asks after it reads the database.
            if (changed) writes.changed();
            const policy = overallCachePolicy.policyIfCacheable();
            const cacheable =
              policy?.scope === 'PUBLIC' &&
              shareable(contextValue, operation) &&
              !requestIsBatched &&
              response.body.kind === 'single' &&
              !response.body.singleResult.errors;
            // Shared caches may keep an anonymous public answer; an answer to a request with credentials is
            // kept by this process alone (it knows the operation never looked at the caller), never by others.
            response.http.headers.set(
              'cache-control',
              cacheable && isAnonymous(contextValue) ? publicCacheControl(policy.maxAge) : 'no-store',
            );
            if (cacheable && !isAnonymous(contextValue)) contextValue.shareAnswer(policy.maxAge);
            response.http.headers.set('vary', 'Authorization');
          },
        };
      },
    },
  ];
}
