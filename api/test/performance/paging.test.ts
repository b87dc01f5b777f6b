import { sql } from 'drizzle-orm';
import {
  getNamedType,
  isListType,
  isObjectType,
  getNullableType,
  type GraphQLField,
  type GraphQLObjectType,
} from 'graphql';
import { buildSchema } from '../../src/app';
import { queryLimits } from '../../src/graphql/limits';
import { databaseKinds } from '../support/env';
import { startCountingApp, type CountingApp } from './countingApp';

/**
 * Bounded page sizes: every list the API answers has a largest page. A limit above it is refused with the
 * field's message before any SQL runs (refused rather than quietly cut, like every bad input: paging.ts),
 * and every statement a list runs reads a bounded number of rows.
 */
jest.setTimeout(120_000);

const schema = buildSchema();
const queryFields = Object.values(schema.getQueryType()?.getFields() ?? {});
const isPage = (field: GraphQLField<unknown, unknown>) => getNamedType(field.type).name.endsWith('Page');
const isList = (field: GraphQLField<unknown, unknown>) => isListType(getNullableType(field.type));
const lists = queryFields.filter((f) => isPage(f) || isList(f));
const selectionOf = (field: GraphQLField<unknown, unknown>) => {
  const named = getNamedType(field.type);
  const scalar = !isObjectType(named) ? '' : 'id' in named.getFields() ? '{ id }' : '{ __typename }';
  if (!isPage(field)) return scalar;
  const item = getNamedType((named as GraphQLObjectType).getFields().items.type) as GraphQLObjectType;
  return `{ items { ${'id' in item.getFields() ? 'id' : '__typename'} } total }`;
};

/** The largest page of each list, as its limit's message states it. */
const largest: Record<string, number> = {
  parts: 100,
  catalog: 100,
  popularParts: 24,
  reviews: 100,
  myOrders: 200,
  orders: 200,
  users: 200,
  contactMessages: 200,
  importJobs: 100,
  importRejections: 500,
  stockHistory: 100,
  companies: 200,
  companyPriceList: 200,
  companyApprovals: 20,
  companyInvoices: 100,
  invoices: 100,
};

/**
 * Lists without a `limit` that the server keeps short itself (queryLimits.boundedLists: the catalog's brands,
 * categories, makes, models and vehicles, a look-up by number), with the arguments they require.
 */
const bounded = Object.keys(queryLimits.boundedLists)
  .filter((key) => key.startsWith('Query.'))
  .map((key) => key.slice('Query.'.length));
const someId = '00000000-0000-4000-8000-000000000000';
/** An import the tests' lists of rejected rows read (made in beforeAll). */
const importId = '00000000-0000-4000-8000-00000000a001';
/** A company whose invoices, approvals and price list the tests list (made in beforeAll). */
const companyId = '00000000-0000-4000-8000-00000000c001';
const requiredArguments: Record<string, string> = {
  models: `makeId: "${someId}"`,
  vehicles: `modelId: "${someId}"`,
  partsByNumber: 'number: "FA185HH"',
  importRejections: `id: "${importId}"`,
  get companyPriceList() {
    return `id: "${companyId}"`;
  },
  companyInvoices: `companyId: "${companyId}"`,
  get stockHistory() {
    return `partId: "${partWithHistory}"`;
  },
  get companyApprovals() {
    return `id: "${companyId}"`;
  },
};
/** A part whose stock history the tests read (made in beforeAll). */
let partWithHistory = '';
/** The field's arguments: those it requires, and `more`. */
const argumentsOf = (name: string, more?: string) => {
  const all = [requiredArguments[name], more].filter(Boolean);
  return all.length ? `(${all.join(', ')})` : '';
};

describe.each(databaseKinds)('every list has a largest page on %s', (kind) => {
  let app: CountingApp;
  let token = '';

  beforeAll(async () => {
    app = await startCountingApp(kind);
    const { rows } = (await app.db.execute(
      sql`insert into users (email, name, role) values ('admin@paging.test', 'Pager', 'admin') returning id`,
    )) as unknown as { rows: { id: string }[] };
    token = await app.tokenFor({ id: rows[0].id });
    await app.db.execute(sql`insert into import_jobs (id, kind) values (${importId}, 'fitment')`);
    await app.db.execute(sql`insert into companies (id, name, tax_id) values (${companyId}, 'Paged Co', 'BIN-P')`);
    const part = (await app.db.execute(
      sql`insert into parts (name, description, price_cents, min_order, available) values ('Paged', 'd', 100, 1, 5) returning id`,
    )) as unknown as { rows: { id: string }[] };
    partWithHistory = part.rows[0].id;
  });
  afterAll(() => app?.close());

  it('knows every list of the schema', () => {
    expect(lists.map((f) => f.name).sort()).toEqual([...Object.keys(largest), ...bounded, 'myPayments'].sort());
    for (const name of bounded) {
      const field = queryFields.find((f) => f.name === name) as GraphQLField<unknown, unknown>;
      expect({ name, limit: field.args.some((a) => a.name === 'limit') }).toEqual({ name, limit: false });
    }
  });

  it.each(Object.entries(largest))('%s refuses a limit above %i before any SQL runs', async (name, max) => {
    const field = queryFields.find((f) => f.name === name) as GraphQLField<unknown, unknown>;
    for (const limit of [max + 1, 1_000_000]) {
      app.statements();
      const answer = await app.gql(
        `query($limit: Int) { ${name}${argumentsOf(name, 'limit: $limit')} ${selectionOf(field)} }`,
        { limit },
        { token },
      );
      expect(answer.errors?.[0]?.extensions).toEqual({
        code: 'BAD_USER_INPUT',
        fields: { limit: `Must be a whole number from 1 to ${max}` },
      });
      // The caller's lookup only.
      expect(
        app
          .statements()
          .filter((s) => !s.includes('from "users" where ("users"."id" = $1 and "users"."firebase_uid" = $2)')),
      ).toEqual([]);
    }
    const atMax = await app.gql(
      `query($limit: Int) { ${name}${argumentsOf(name, 'limit: $limit')} ${selectionOf(field)} }`,
      { limit: max },
      { token },
    );
    expect(atMax.errors).toBeUndefined();
  });

  it.each(lists.map((f) => [f.name, f] as const))('%s reads a bounded number of rows', async (_name, field) => {
    app.statements();
    const answer = await app.gql(`{ ${field.name}${argumentsOf(field.name)} ${selectionOf(field)} }`, {}, { token });
    expect(answer.errors).toBeUndefined();
    // Counts, and lookups of one row by its key (the caller), are not lists.
    const reads = app
      .statements()
      .filter((s) => !/^select count\(\*\)/.test(s) && !/"id" = \$1( and [^)]*\))?$/.test(s));
    expect(reads.length).toBeGreaterThan(0);
    // A page read with its caller (one statement) has its bounds in the page's subquery.
    for (const statement of reads) {
      // A union (the look-up by number) bounds each of its branches.
      expect(statement).toMatch(
        / limit \$\d+( offset \$\d+)?(\) "page" on true where \("users"\."id" = \$\d+ and "users"\."firebase_uid" = \$\d+\)|\))?$/,
      );
    }
  });

  it('the REST lists refuse an over-large limit too', async () => {
    for (const path of [
      '/parts',
      '/reviews',
      '/orders',
      '/users',
      '/contact',
      '/imports',
      `/parts/${partWithHistory}/stock`,
    ]) {
      const res = await fetch(`${app.server.url}/api${path}?limit=1000000`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await res.json()) as { errors?: { limit?: string } };
      expect({ path, status: res.status, limit: body.errors?.limit }).toEqual({
        path,
        status: 400,
        limit: expect.stringMatching(/^Must be a whole number from 1 to \d+$/),
      });
    }
  });
});
