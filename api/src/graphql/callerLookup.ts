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

/**
 * The root fields whose services, given the token's account (`GraphQLContext.account`) instead of a caller read
 * before, read the caller in the same statement as their data (services/ordersService.ts: `listFor`, and
 * `placeOrder` with the part to order), and decide the right on it as on any caller. Their resolvers pass
 * `actor ?? account`.
 */
export const callerReadWithData: Readonly<Record<OperationTypeNode, ReadonlySet<string>>> = {
  [OperationTypeNode.QUERY]: new Set(['myOrders', 'orders']),
  [OperationTypeNode.MUTATION]: new Set(['placeOrder']),
  [OperationTypeNode.SUBSCRIPTION]: new Set(),
};

/** Whether every field an operation asks at its root is in `fields` (a fragment at the root counts as not). */
const onlyAsks = (operation: OperationDefinitionNode | undefined, fields: (name: string) => boolean) =>
  operation !== undefined &&
  operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && fields(s.name.value));

/**
 * Decides once the operation is known whether it never looks at its caller, and records it on the context
 * (`callerFree`: its answer is the one anyone asking it gets, so a public one may be shared: graphql/caching.ts).
 * If it needs a caller, looks the caller's account up (one SQL round trip: does it exist, which role does it hold
 * now): a signed-in customer's home page or catalog search runs as a visitor's does. An operation whose other
 * fields all read their caller with their data (`callerReadWithData`: My Orders, All Orders, an order placed) is
 * left to them, one round trip fewer. Every right is still decided by the services, with the account as it is now.
 */
export function callerLookupPlugin(schema: GraphQLSchema): ApolloServerPlugin<GraphQLContext> {
  const free = callerFreeFields(schema);
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, contextValue }) {
          const asked = operation ?? undefined;
          const query = asked?.operation === OperationTypeNode.QUERY;
          contextValue.callerFree = query && onlyAsks(asked, (name) => free.has(name));
          if (contextValue.callerFree) return;
          const withData = asked ? callerReadWithData[asked.operation] : new Set<string>();
          // GraphQL's own fields never see the caller, at the root of any operation; the public ones are queries.
          const callerFreeHere = (name: string) => (query ? free.has(name) : name === '__typename');
          if (onlyAsks(asked, (name) => callerFreeHere(name) || withData.has(name))) return;
          contextValue.account = null;
          Object.assign(contextValue, await contextValue.lookUpCaller());
        },
      };
    },
  };
}
