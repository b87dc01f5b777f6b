import { ApolloServer } from '@apollo/server';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { GraphQLError } from 'graphql';
import { compiledExecutionPlugin } from '../../src/graphql/compiledExecution';
import type { GraphQLContext } from '../../src/graphql/context';

/**
 * Compiled execution (api/src/graphql/compiledExecution.ts) on a small schema: which operations it takes, that
 * its answers are graphql-js's, and that an answer with errors goes through Apollo's execution and error
 * formatting as before. The shop's own suites (rights, callerNow, orders) run through it as well.
 */
describe('compiled execution', () => {
  let refusals = 0;
  const schema = makeExecutableSchema({
    typeDefs: /* GraphQL */ `
      type Order {
        id: ID!
        amount: Int!
        lines: [Line!]!
      }
      type Line {
        part: String
      }
      type Query {
        myOrders(first: Int = 2): [Order!]!
        secret: String
        partial: [Order]
      }
      type Mutation {
        touch: Int!
      }
    `,
    resolvers: {
      Query: {
        myOrders: (_: unknown, { first }: { first: number }) =>
          Array.from({ length: first }, (_, i) => ({ id: `o${i}`, amount: i * 10, lines: [{ part: 'pad' }, {}] })),
        secret: () => {
          refusals += 1;
          throw new GraphQLError('You are not allowed to do this', { extensions: { code: 'FORBIDDEN' } });
        },
        partial: () => [{ id: 'a', amount: 1, lines: [] }, null],
      },
      Mutation: { touch: () => 1 },
    },
  });
  const customer = { userId: 'u1', email: null, role: 'customer' as const };
  const context = (over: Partial<GraphQLContext> = {}) =>
    ({ credentials: true, callerFree: false, actor: customer, ...over }) as GraphQLContext;

  const serve = async (withPlugin: boolean) => {
    const plugin = compiledExecutionPlugin({ schema, compileAfter: 2 });
    const server = new ApolloServer<GraphQLContext>({
      schema,
      plugins: withPlugin ? [plugin] : [],
      formatError: (formatted) => ({ message: `formatted: ${formatted.message}`, extensions: formatted.extensions }),
    });
    await server.start();
    const ask = async (query: string, over?: Partial<GraphQLContext>, variables?: Record<string, unknown>) => {
      const { body } = await server.executeOperation({ query, variables }, { contextValue: context(over) });
      if (body.kind !== 'single') throw new Error('expected a single result');
      return body.singleResult;
    };
    return { server, plugin, ask };
  };

  const myOrders = 'query Mine($n: Int) { myOrders(first: $n) { id amount lines { part } } }';

  it('compiles a query once it is asked again, and answers as graphql-js does', async () => {
    const compiled = await serve(true);
    const plain = await serve(false);
    try {
      const expected = await plain.ask(myOrders, {}, { n: 3 });
      expect(expected.data?.myOrders).toHaveLength(3);
      for (let i = 0; i < 4; i += 1) expect(await compiled.ask(myOrders, {}, { n: 3 })).toEqual(expected);
      expect(compiled.plugin.compiledOperations()).toBe(1);
      // Other variables, the same compiled operation; a null in a list of nullable items as graphql-js gives it.
      expect(await compiled.ask(myOrders, {}, { n: 1 })).toEqual(await plain.ask(myOrders, {}, { n: 1 }));
      for (let i = 0; i < 3; i += 1) {
        expect(await compiled.ask('{ partial { id } }')).toEqual(await plain.ask('{ partial { id } }'));
      }
      expect(compiled.plugin.compiledOperations()).toBe(2);
    } finally {
      await Promise.all([compiled.server.stop(), plain.server.stop()]);
    }
  });

  it('leaves to Apollo mutations, and queries with no signed-in caller (public fields, visitors, refused tokens)', async () => {
    const { server, plugin, ask } = await serve(true);
    try {
      for (let i = 0; i < 3; i += 1) {
        expect((await ask('mutation { touch }')).data).toEqual({ touch: 1 });
        expect((await ask(myOrders, { callerFree: true, actor: null })).data?.myOrders).toHaveLength(2);
        expect((await ask(myOrders, { credentials: false, actor: null })).data?.myOrders).toHaveLength(2);
        expect((await ask(myOrders, { credentials: true, actor: null })).data?.myOrders).toHaveLength(2);
      }
      expect(plugin.compiledOperations()).toBe(0);
    } finally {
      await server.stop();
    }
  });

  it('an answer with errors is Apollo’s, formatted in the one place, every time', async () => {
    const { server, ask } = await serve(true);
    try {
      refusals = 0;
      for (let i = 0; i < 3; i += 1) {
        expect(await ask('{ secret }')).toEqual({
          data: { secret: null },
          errors: [{ message: 'formatted: You are not allowed to do this', extensions: { code: 'FORBIDDEN' } }],
        });
      }
      // The first asks went to Apollo alone; once compiled, each is run compiled, then again by Apollo.
      expect(refusals).toBe(1 + 2 * 2);
    } finally {
      await server.stop();
    }
  });
});
