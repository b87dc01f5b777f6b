import { approvalPageSize } from '../../src/companies/companyApprovals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  buildClientSchema,
  buildSchema as buildSdl,
  execute,
  getIntrospectionQuery,
  getOperationAST,
  Kind,
  parse,
  visit,
  type IntrospectionQuery,
  type OperationDefinitionNode,
} from 'graphql';
import { buildSchema } from '../../src/app';
import { catalogPageSizes } from '../../src/catalog/catalogQuery';
import { contactMessages } from '../../src/db/schema';
import { measureOperation, queryLimits } from '../../src/graphql/limits';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';

/**
 * Request limits: bodies over 100 kB, GraphQL operations too deep, too costly or with too many aliases,
 * documents with too many tokens and batches with too many operations are refused before anything runs,
 * with a clear message; the shop's own operations and GraphiQL's introspection pass.
 */

const root = path.resolve(__dirname, '..', '..', '..');
const schema = buildSchema();

const operationOf = (document: ReturnType<typeof parse>, name?: string): OperationDefinitionNode => {
  const operation = getOperationAST(document, name);
  if (!operation) throw new Error(`no operation ${name ?? ''}`);
  return operation;
};
const measure = (query: string, variables: Record<string, unknown> = {}) => {
  const document = parse(query);
  return measureOperation(schema, document, operationOf(document), variables);
};
const refusalOf = (work: () => unknown): string => {
  try {
    work();
  } catch (error) {
    expect((error as { extensions?: { code?: string } }).extensions?.code).toBe('QUERY_TOO_COMPLEX');
    return (error as Error).message;
  }
  throw new Error('the operation was not refused');
};

const orderFields =
  'id name email phone address partId partName partImage orderAmount unitPrice price paid status transactionId createdAt paidAt shippedAt';
const tooCostly = /^The query is too costly: it could resolve more than 10000 fields/;

describe('measuring an operation (before it runs)', () => {
  it('counts each field once per item of the lists around it: a list counts its limit, its default, or 200', () => {
    // orders + items + 200 x id + total
    expect(measure('{ orders(limit: 200) { items { id } total } }').cost).toBe(1 + 1 + 200 + 1);
    expect(measure('{ orders { items { id status } } }').cost).toBe(1 + 1 + 50 * 2); // the schema's default, 50
    expect(measure('query($n: Int) { orders(limit: $n) { items { id } } }', { n: 10 }).cost).toBe(1 + 1 + 10);
    expect(measure('query($n: Int = 30) { orders(limit: $n) { items { id } } }').cost).toBe(1 + 1 + 30);
    expect(measure('{ popularParts(limit: 6) { id name } }').cost).toBe(1 + 6 * 2);
    // No limit argument (myPayments), or one above what the services serve: 200 items.
    expect(measure('{ myPayments { id amount } }').cost).toBe(1 + 200 * 2);
    expect(measure('{ orders(limit: 100000) { items { id } } }').cost).toBe(1 + 1 + 200);
  });

  it('expands fragments, and measures nesting (a deeper query on a schema with cycles is refused)', () => {
    expect(
      measure('query { ...Q } fragment Q on Query { parts(limit: 5) { items { ...P } } } fragment P on Part { id }'),
    ).toEqual({ depth: 3, cost: 1 + 1 + 5 * 1, introspection: 0, aliases: 0 });
    // This shop's schema has no cycles (a valid query is at most 3 deep); a schema that links back is bounded.
    const cyclic = buildSdl('type Query { node: Node } type Node { child: Node name: String }');
    const nested = (levels: number) => `{ node { ${'child { '.repeat(levels - 2)}name${' }'.repeat(levels - 2)} } }`;
    const measureCyclic = (query: string) => {
      const document = parse(query);
      return measureOperation(cyclic, document, operationOf(document));
    };
    expect(measureCyclic(nested(8)).depth).toBe(8);
    expect(refusalOf(() => measureCyclic(nested(9)))).toBe(
      'The query is too deep: fields are nested more than 8 levels',
    );
  });

  it('counts introspection by what it really returns: GraphiQL’s query fits, with room for the schema to grow', () => {
    for (const options of [{}, { inputValueDeprecation: true, schemaDescription: true }]) {
      const document = parse(getIntrospectionQuery(options));
      const size = measureOperation(schema, document, operationOf(document));
      const result = execute({ schema, document }) as { data: unknown };
      let fields = 0;
      const count = (value: unknown): void => {
        if (Array.isArray(value)) value.forEach(count);
        else if (value && typeof value === 'object') {
          fields += Object.keys(value).length;
          Object.values(value).forEach(count);
        }
      };
      count(result.data);
      expect(size.introspection).toBe(fields);
      expect(size.introspection).toBeLessThan(queryLimits.maxIntrospectionCost / 2);
      expect(size.depth).toBeLessThanOrEqual(queryLimits.maxDepth);
    }
  });

  it('introspection has its own budget, for all its fields together: aliases cannot multiply it', () => {
    const one = 'types { name description fields { name description args { name description } type { name kind } } }';
    const each = measure(`{ __schema { ${one} } }`).introspection;
    const copies = Math.floor(queryLimits.maxIntrospectionCost / each) + 1;
    expect(copies).toBeLessThanOrEqual(queryLimits.maxAliases);
    const aliased = Array.from({ length: copies }, (_, i) => `s${i}: __schema { ${one} }`).join(' ');
    expect(refusalOf(() => measure(`{ ${aliased} }`))).toBe(
      `The query is too costly: its introspection could return more than ${queryLimits.maxIntrospectionCost} fields. ` +
        'Ask for fewer types or fields at once.',
    );
    // The data budget is the data's alone: introspection beside a query does not use it up.
    expect(measure(`{ __schema { ${one} } parts { total } }`).cost).toBe(2);
  });

  it('every operation the web app sends passes, at the largest pages the services serve', () => {
    // The shared operations (web/src/graphql) and those a feature keeps for its own page (web/src/features/*/).
    const shared = path.join(root, 'web', 'src', 'graphql');
    const features = path.join(root, 'web', 'src', 'features');
    const files = [
      ...readdirSync(shared).map((f) => path.join(shared, f)),
      ...readdirSync(features).flatMap((feature) =>
        readdirSync(path.join(features, feature)).map((f) => path.join(features, feature, f)),
      ),
    ].filter((f) => f.endsWith('.graphql'));
    // As Apollo Client sends them: with `__typename` in every selection below the operation's own (each counts).
    const document = visit(parse(files.map((f) => readFileSync(f, 'utf8')).join('\n')), {
      SelectionSet(node, _key, parent) {
        if (!parent || Array.isArray(parent) || (parent as { kind?: string }).kind === Kind.OPERATION_DEFINITION)
          return;
        const typename = { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } } as const;
        return { ...node, selections: [...node.selections, typename] };
      },
    });
    const operations = document.definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
    expect(operations.length).toBeGreaterThan(20);
    const largest = { limit: 200, offset: 0, partsLimit: 24, reviewsLimit: 100 };
    // The catalog serves pages of at most catalogPageSizes.max, a company's approvals approvalPageSize.max (a larger
    // limit is the service's refusal).
    const largestOf = (name: string | undefined) =>
      name === 'CatalogList'
        ? { ...largest, limit: catalogPageSizes.max }
        : name === 'CompanyApprovals'
          ? { ...largest, limit: approvalPageSize.max }
          : largest;
    for (const operation of operations) {
      // Measuring refuses (throws) past the budget: the operation is named either way.
      let cost: number | string;
      try {
        cost = measureOperation(schema, document, operation, largestOf(operation.name?.value)).cost;
      } catch (error) {
        cost = (error as Error).message;
      }
      expect({ operation: operation.name?.value, cost }).toEqual({
        operation: operation.name?.value,
        cost: expect.any(Number),
      });
      expect(cost).toBeLessThanOrEqual(queryLimits.maxCost);
    }
  });

  it('a query built to explode through fragments is refused once it passes the budget, without expanding it all', () => {
    // 40 fragments, each spreading the next fourTimes: 2^40 fields if expanded.
    const fragments = Array.from(
      { length: 40 },
      (_, i) => `fragment F${i} on Part { ${i === 39 ? 'id' : `...F${i + 1} ...F${i + 1}`} }`,
    ).join('\n');
    expect(refusalOf(() => measure(`{ part(id: "x") { ...F0 } }\n${fragments}`))).toMatch(tooCostly);
  });
});

describe('request limits over HTTP', () => {
  let app: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    app = await startTestApp('pglite');
    admin = await app.signUp({ admin: true });
  });
  afterAll(() => app?.close());

  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> | Record<string, unknown>[] };
  };
  const refusal = (code: string, message: string | RegExp) => ({
    errors: [{ message: typeof message === 'string' ? message : expect.stringMatching(message), extensions: { code } }],
  });
  const messageCount = async () => (await app.server.database.db.select().from(contactMessages)).length;
  const contact = (message = 'Do you ship to Chittagong?') => ({
    query: 'mutation($input: ContactInput!) { sendContactMessage(input: $input) { id } }',
    variables: { input: { firstName: 'Rahim', lastName: 'Uddin', email: 'rahim@example.test', message } },
  });

  it('a body over 100 kB is refused with 413 on /graphql (GraphQL error shape) and on /api, and nothing is written', async () => {
    const before = await messageCount();
    const huge = 'x'.repeat(101 * 1024);
    expect(await post(contact(huge))).toEqual({
      status: 413,
      body: refusal('PAYLOAD_TOO_LARGE', 'Request body is too large'),
    });
    expect(await app.rest('POST', '/contact', { ...contact(huge).variables.input })).toEqual({
      status: 413,
      body: { message: 'Request body is too large' },
    });
    expect(await messageCount()).toBe(before);
    // Just under the limit, the request is read (and the message's own length rule answers).
    const under = await post(contact('y'.repeat(90 * 1024)));
    expect(under.status).toBe(200);
    expect((under.body as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe(
      'BAD_USER_INPUT',
    );
    expect(await messageCount()).toBe(before);
  });

  it('a body that is not JSON is refused with 400 in GraphQL’s error shape', async () => {
    expect(await post('{"query": "{ parts { total } }"')).toEqual({
      status: 400,
      body: refusal('BAD_REQUEST', 'Request body is not valid JSON'),
    });
  });

  it('an operation nested more than 8 levels deep is refused with 400 QUERY_TOO_COMPLEX', async () => {
    const deep = '{ __schema { types { fields { args { type { inputFields { type { enumValues { name } } } } } } } } }';
    expect(await post({ query: deep })).toEqual({
      status: 400,
      body: refusal('QUERY_TOO_COMPLEX', 'The query is too deep: fields are nested more than 8 levels'),
    });
    // graphql-js's own rule refuses introspection lists nested within each other.
    const nestedLists = '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }';
    const lists = await post({ query: nestedLists });
    expect(lists.status).toBe(400);
    expect(JSON.stringify(lists.body)).toContain('Maximum introspection depth exceeded');
  });

  it('an operation that could resolve more than 10000 fields is refused before it runs (even before rights)', async () => {
    const page = (alias: string) => `${alias}: orders(limit: $n) { items { ${orderFields} } total }`;
    const query = `query($n: Int) { ${page('a')} ${page('b')} ${page('c')} }`;
    // As a visitor: the refusal comes before the resolvers (which would answer 401).
    expect(await post({ query, variables: { n: 200 } })).toEqual({
      status: 400,
      body: refusal('QUERY_TOO_COMPLEX', tooCostly),
    });
    // The same operation with smaller pages runs.
    const small = await post({ query, variables: { n: 20 } }, { authorization: `Bearer ${admin.token}` });
    expect(small.status).toBe(200);
    expect((small.body as { data: { a: { total: number } } }).data.a.total).toBeGreaterThanOrEqual(0);
    // The same operation measured within the limits once is measured again for other pages: still refused.
    const again = await post({ query, variables: { n: 200 } }, { authorization: `Bearer ${admin.token}` });
    expect(again).toEqual({ status: 400, body: refusal('QUERY_TOO_COMPLEX', tooCostly) });
    const inlined = query.replace('query($n: Int) ', '').replaceAll('$n', '200');
    expect(await post({ query: inlined })).toEqual({ status: 400, body: refusal('QUERY_TOO_COMPLEX', tooCostly) });
    expect((await post({ query, variables: { n: 20 } }, { authorization: `Bearer ${admin.token}` })).status).toBe(200);
  });

  it('more than 20 aliases are refused; 20 run', async () => {
    const aliased = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `p${i}: parts(limit: 1) { total }`).join(' ')} }`;
    expect(await post({ query: aliased(21) })).toEqual({
      status: 400,
      body: refusal('QUERY_TOO_COMPLEX', 'The query uses more than 20 aliases'),
    });
    const twenty = await post({ query: aliased(20) });
    expect(twenty.status).toBe(200);
    expect(Object.keys((twenty.body as { data: object }).data)).toHaveLength(20);
  });

  it('a document of more than 2000 tokens is refused before it is validated', async () => {
    const long = `{ ${Array.from({ length: 700 }, (_, i) => `t${i}: __typename`).join(' ')} }`;
    const result = await post({ query: long });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      errors: [
        expect.objectContaining({
          message: expect.stringMatching(/Document contains more tha[nt] 2000 tokens/),
          extensions: expect.objectContaining({ code: 'GRAPHQL_PARSE_FAILED' }),
        }),
      ],
    });
  });

  describe('batches (a JSON array of operations)', () => {
    it('up to 10 operations run, each with its own answer', async () => {
      const result = await post(Array.from({ length: 10 }, () => ({ query: '{ parts { total } }' })));
      expect(result.status).toBe(200);
      expect(result.body).toEqual(Array.from({ length: 10 }, () => ({ data: { parts: { total: 0 } } })));
      const before = await messageCount();
      expect((await post([contact('First'), contact('Second')])).status).toBe(200);
      expect(await messageCount()).toBe(before + 2);
    });

    it('more than 10 are refused with 400 before any runs', async () => {
      const before = await messageCount();
      expect(await post(Array.from({ length: 11 }, () => contact()))).toEqual({
        status: 400,
        body: refusal('BATCH_TOO_LARGE', 'A batch may hold at most 10 operations; this one has 11'),
      });
      expect(await messageCount()).toBe(before);
    });

    it('each operation of a batch is measured on its own', async () => {
      const big = `{ a: orders(limit: 200) { items { ${orderFields} } } b: orders(limit: 200) { items { ${orderFields} } } c: orders(limit: 200) { items { ${orderFields} } } }`;
      const result = await post([{ query: '{ parts { total } }' }, { query: big }]);
      expect(result.status).toBe(400);
      expect(result.body).toEqual([
        { data: { parts: { total: 0 } } },
        { errors: [{ message: expect.stringMatching(tooCostly), extensions: { code: 'QUERY_TOO_COMPLEX' } }] },
      ]);
    });
  });

  it('introspection stays on: GraphiQL’s introspection query is answered and builds the schema', async () => {
    for (const options of [{}, { inputValueDeprecation: true, schemaDescription: true }]) {
      const result = await post({ query: getIntrospectionQuery(options), operationName: 'IntrospectionQuery' });
      expect(result.status).toBe(200);
      const client = buildClientSchema((result.body as { data: IntrospectionQuery }).data);
      expect(Object.keys(client.getQueryType()?.getFields() ?? {})).toContain('parts');
    }
    // Introspection has a budget of its own: eight complete ones in one operation are too many.
    const eightTimes = getIntrospectionQuery().replace(
      '__schema {',
      `${Array.from({ length: 7 }, (_, i) => `s${i}: __schema { ...Whole }`).join(' ')} __schema {`,
    );
    const whole = `fragment Whole on __Schema { types { ...FullType } directives { name args { ...InputValue } } }`;
    expect(await post({ query: `${eightTimes}\n${whole}` })).toEqual({
      status: 400,
      body: refusal(
        'QUERY_TOO_COMPLEX',
        `The query is too costly: its introspection could return more than ${queryLimits.maxIntrospectionCost} fields. ` +
          'Ask for fewer types or fields at once.',
      ),
    });
  });
});
