import type { ApolloServerPlugin } from '@apollo/server';
import { getDirective } from '@graphql-tools/utils';
import { Kind, OperationTypeNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { GraphQLContext } from './context';

/**
 * The root fields whose answers the schema declares shareable (`@cacheControl(maxAge)`: the public queries,
 * `anyone` in the rights table) and GraphQL's own. Their resolvers never see the caller.
 */
export function callerFreeFields(schema: GraphQLSchema): Set<string> {
  const free = new Set(['__typename', '__schema', '__type']);
  for (const field of Object.values(schema.getQueryType()?.getFields() ?? {})) {
    if (getDirective(schema, field, 'cacheControl')?.[0]?.maxAge !== undefined) free.add(field.name);
  }
  return free;
}

/** Whether every field an operation asks at its root is caller-free (a fragment at the root counts as not). */
const needsCaller = (operation: OperationDefinitionNode | undefined, free: Set<string>) =>
  !operation ||
  operation.operation !== OperationTypeNode.QUERY ||
  operation.selectionSet.selections.some((s) => s.kind !== Kind.FIELD || !free.has(s.name.value));

/**
 * Decides once the operation is known whether it never looks at its caller, and records it on the context
 * (`callerFree`: its answer is the one anyone asking it gets, so a public one may be shared: graphql/caching.ts).
 * If it needs a caller, looks the caller's account up (one SQL round trip: does it exist, which role does it hold
 * now): a signed-in customer's home page or catalog search runs as a visitor's does. Every right is still
 * decided by the services, with the account as it is now.
 */
export function callerLookupPlugin(schema: GraphQLSchema): ApolloServerPlugin<GraphQLContext> {
  const free = callerFreeFields(schema);
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, contextValue }) {
          contextValue.callerFree = !needsCaller(operation ?? undefined, free);
          if (!contextValue.callerFree) Object.assign(contextValue, await contextValue.lookUpCaller());
        },
      };
    },
  };
}
