import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { OperationTypeNode, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import type { GraphQLContext } from './context';
import { lazyPackage } from '../lazyPackage';

/** Loaded when the first operation is compiled: a visitor's traffic and most processes never compile one. */
const graphqlJit = lazyPackage<typeof import('graphql-jit')>('graphql-jit');

/**
 * Compiled execution (graphql-jit) for the queries a signed-in person asks again and again (My Orders, All
 * Orders, the profile): graphql-js walks the operation field by field on every request, a compiled query runs
 * straight-line code made once per operation (docs/decisions.md, "Signed-in speed"). Everything before execution
 * stays Apollo's (parsing, validation, the query limits, the caller lookup) and so do the resolvers, with their
 * role directives and services: only the walk changes.
 *
 * - Only queries of a signed-in caller whose operation needs the caller (the caller lookup found an account, or
 *   the token was accepted and its fields read the caller with their data): an answer that may be shared keeps
 *   Apollo's execution, whose per-field cache hints decide how long it is kept, and a visitor or a refused token
 *   never makes the server compile anything.
 * - An operation is compiled once it has been asked `compileAfter` times (10: a client's operations are asked
 *   thousands of times, while queries made up to cost the server compilations pay for each with ten requests),
 *   and at most `keep` compiled operations are kept (least recently used go first).
 * - An answer with errors is thrown away and the query runs again through Apollo's execution, so that every
 *   error is reported, logged and mapped in one place (`formatError`). Queries only read: running one twice
 *   changes nothing.
 *
 * Also tells how many operations it holds compiled (for /metrics).
 */
export function compiledExecutionPlugin(options: {
  /**
   * The schema to compile against: a copy of Apollo's, built apart (`buildSchema()`). Once Apollo has run a
   * query whose cache hints it adds up, it wraps the resolver of every field of its own schema, scalar fields
   * included; compiled against that schema, a page of 20 orders called 340 wrapped resolvers where graphql-jit
   * reads the properties itself, about a tenth of a signed-in list's CPU (issue 15). The copy's resolvers are
   * the same functions, with the same role directives.
   */
  schema: GraphQLSchema;
  compileAfter?: number;
  keep?: number;
}): ApolloServerPlugin<GraphQLContext> & { compiledOperations: () => number } {
  const { schema } = options;
  const compileAfter = options.compileAfter ?? 10;
  const keep = options.keep ?? 200;
  const asked = new LRUCache<string, number>({ max: keep * 10 });
  const compiled = new LRUCache<string, CompiledQuery | 'not compiled'>({ max: keep });

  return {
    /** How many operations are compiled and kept now. */
    compiledOperations: () => [...compiled.values()].filter((q) => q !== 'not compiled').length,
    async requestDidStart() {
      return {
        async responseForOperation({ operation, operationName, document, queryHash, contextValue, request }) {
          const signedIn = !contextValue.callerFree && (contextValue.actor ?? contextValue.account);
          if (operation.operation !== OperationTypeNode.QUERY || !signedIn) return null;
          const key = `${queryHash}:${operationName ?? ''}`;
          let query = compiled.get(key);
          if (!query) {
            const times = (asked.get(key) ?? 0) + 1;
            asked.set(key, times);
            if (times < compileAfter) return null;
            query = compile(schema, document, operationName);
            compiled.set(key, query);
          }
          if (query === 'not compiled') return null;
          const result = await Promise.resolve()
            .then(() => query.query(undefined, contextValue, request.variables ?? {}))
            .catch(() => null); // whatever went wrong, Apollo's execution runs the query and reports it
          if (!result || result.errors?.length) return null;
          return {
            http: { headers: new HeaderMap(), status: undefined },
            body: { kind: 'single', singleResult: { data: result.data } },
          };
        },
      };
    },
  };
}

/** The operation compiled, or 'not compiled' when graphql-jit cannot take it. */
function compile(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined) {
  try {
    const { compileQuery, isCompiledQuery } = graphqlJit();
    const made = compileQuery(schema, document, operationName ?? undefined);
    return isCompiledQuery(made) ? made : 'not compiled';
  } catch {
    return 'not compiled';
  }
}
