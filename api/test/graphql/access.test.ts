import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, type GraphQLField, type GraphQLObjectType } from 'graphql';
import { databaseKinds } from '../support/env';
import { partInput } from '../support/fixtures';
import { emulatorSignUp, uniqueEmail, type TestUser } from '../support/testApp';
import {
  card,
  dataOf,
  expectForbidden,
  expectUnauthenticated,
  refusal,
  startHarness,
  unknownId,
  type Harness,
} from './helpers';

// Starting an app and signing users up takes seconds; jest's 5 s default is too short.
jest.setTimeout(120_000);

/**
 * Who may call each Query and Mutation field. Every field of schema.graphql must be listed here: a field
 * added without deciding its rights (and testing them) fails the first test below.
 */
type Access = 'public' | 'signed-in' | 'admin';

interface FieldCase {
  access: Access;
  query: string;
  /** Variables that pass GraphQL's own checks, so that only the rights decide the outcome. */
  variables?: () => Promise<Record<string, unknown>> | Record<string, unknown>;
}

const contact = { firstName: 'Ana', lastName: 'Rider', email: 'ana@example.test', message: 'Do you ship to Sylhet?' };

const fields: Record<string, FieldCase> = {
  'Query.parts': { access: 'public', query: '{ parts { total } }' },
  'Query.part': {
    access: 'public',
    query: 'query($id: ID!) { part(id: $id) { id } }',
    variables: () => ({ id: unknownId() }),
  },
  'Query.popularParts': { access: 'public', query: '{ popularParts { id } }' },
  'Query.reviews': { access: 'public', query: '{ reviews { id } }' },
  'Query.paymentSettings': { access: 'public', query: '{ paymentSettings { mode } }' },
  'Query.clientSettings': { access: 'public', query: '{ clientSettings { demoMode } }' },
  'Query.me': { access: 'signed-in', query: '{ me { id } }' },
  'Query.myOrders': { access: 'signed-in', query: '{ myOrders { total } }' },
  'Query.myPayments': { access: 'signed-in', query: '{ myPayments { id } }' },
  'Query.order': {
    access: 'signed-in',
    query: 'query($id: ID!) { order(id: $id) { id } }',
    variables: () => ({ id: unknownId() }),
  },
  'Query.isAdmin': {
    access: 'signed-in',
    query: 'query($email: String!) { isAdmin(email: $email) }',
    variables: () => ({ email: 'someone@example.test' }),
  },
  'Query.orders': { access: 'admin', query: '{ orders { total } }' },
  'Query.users': { access: 'admin', query: '{ users { total } }' },
  'Query.contactMessages': { access: 'admin', query: '{ contactMessages { total } }' },

  'Mutation.signIn': {
    access: 'public',
    query: 'mutation($idToken: String!) { signIn(idToken: $idToken) { token } }',
    variables: async () => ({ idToken: await emulatorSignUp(uniqueEmail('access'), 'Secret#123', 'Access Rider') }),
  },
  'Mutation.sendContactMessage': {
    access: 'public',
    query: 'mutation($input: ContactInput!) { sendContactMessage(input: $input) { id } }',
    variables: () => ({ input: contact }),
  },
  'Mutation.updateProfile': {
    access: 'signed-in',
    query: 'mutation($input: ProfileInput!) { updateProfile(input: $input) { id } }',
    variables: () => ({ input: { location: 'Dhaka' } }),
  },
  'Mutation.placeOrder': {
    access: 'signed-in',
    query: 'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
    variables: () => ({
      input: { partId: unknownId(), name: 'Rider One', phone: '01712345678', orderAmount: 10, address: '' },
    }),
  },
  'Mutation.cancelOrder': {
    access: 'signed-in',
    query: 'mutation($id: ID!) { cancelOrder(id: $id) }',
    variables: () => ({ id: unknownId() }),
  },
  'Mutation.createPaymentIntent': {
    access: 'signed-in',
    query: 'mutation($id: ID!) { createPaymentIntent(orderId: $id) { id } }',
    variables: () => ({ id: unknownId() }),
  },
  'Mutation.payWithTestCard': {
    access: 'signed-in',
    query:
      'mutation($id: ID!, $card: TestCardInput!) { payWithTestCard(paymentIntentId: $id, card: $card) { succeeded } }',
    variables: () => ({ id: 'pi_test_unknown', card: card('4242 4242 4242 4242') }),
  },
  'Mutation.confirmPayment': {
    access: 'signed-in',
    query: 'mutation($id: ID!, $intent: ID!) { confirmPayment(orderId: $id, paymentIntentId: $intent) { id } }',
    variables: () => ({ id: unknownId(), intent: 'pi_test_unknown' }),
  },
  'Mutation.addReview': {
    access: 'signed-in',
    query: 'mutation($input: ReviewInput!) { addReview(input: $input) { id } }',
    variables: () => ({ input: { partId: unknownId(), text: 'Great pads' } }),
  },
  'Mutation.addPart': {
    access: 'admin',
    query: 'mutation($input: PartInput!) { addPart(input: $input) { id } }',
    variables: () => ({ input: partInput() }),
  },
  'Mutation.deletePart': {
    access: 'admin',
    query: 'mutation($id: ID!) { deletePart(id: $id) }',
    variables: () => ({ id: unknownId() }),
  },
  'Mutation.markOrderShipped': {
    access: 'admin',
    query: 'mutation($id: ID!) { markOrderShipped(id: $id) { id } }',
    variables: () => ({ id: unknownId() }),
  },
  'Mutation.grantAdmin': {
    access: 'admin',
    query: 'mutation($email: String!) { grantAdmin(email: $email) { id } }',
    variables: () => ({ email: 'nobody@example.test' }),
  },
  'Mutation.deleteUser': {
    access: 'admin',
    query: 'mutation($id: ID!) { deleteUser(id: $id) }',
    variables: () => ({ id: unknownId() }),
  },
};

const entries = Object.entries(fields);
const withAccess = (...access: Access[]) => entries.filter(([, c]) => access.includes(c.access));

describe('the rights table', () => {
  const schema = buildSchema(readFileSync(path.resolve(__dirname, '../../../schema.graphql'), 'utf8'));
  const rootFields = (type: GraphQLObjectType | null | undefined) =>
    Object.values(type?.getFields() ?? {}).map((field) => [`${type?.name}.${field.name}`, field] as const);
  const schemaFields = [...rootFields(schema.getQueryType()), ...rootFields(schema.getMutationType())];

  const declaredAccess = (field: GraphQLField<unknown, unknown>): string => {
    const directives = field.astNode?.directives ?? [];
    const names = directives.map((d) => d.name.value);
    const role = directives
      .find((d) => d.name.value === 'hasRole')
      ?.arguments?.find((a) => a.name.value === 'role')?.value;
    if (names.includes('hasRole')) return role?.kind === 'EnumValue' && role.value === 'ADMIN' ? 'admin' : 'other';
    if (names.includes('auth')) return 'signed-in';
    return 'public';
  };

  it('covers every Query and Mutation field of the schema, and nothing else', () => {
    expect(Object.keys(fields).sort()).toEqual(schemaFields.map(([name]) => name).sort());
  });

  it('matches the rights the schema declares with @auth and @hasRole(role: ADMIN)', () => {
    const declared = Object.fromEntries(schemaFields.map(([name, field]) => [name, declaredAccess(field)]));
    const expected = Object.fromEntries(entries.map(([name, c]) => [name, c.access]));
    expect(declared).toEqual(expected);
  });
});

describe.each(databaseKinds)('rights of every field on %s', (kind) => {
  let h: Harness;
  let customer: TestUser;
  let deleted: TestUser;

  beforeAll(async () => {
    h = await startHarness(kind);
    const admin = await h.signUp({ admin: true });
    customer = await h.signUp();
    deleted = await h.signUp();
    dataOf(await h.app.gql('mutation($id: ID!) { deleteUser(id: $id) }', { id: deleted.userId }, admin.token));
  });
  afterAll(() => h?.app.close());

  const call = async (field: FieldCase, token?: string) =>
    h.app.gql(field.query, field.variables ? await field.variables() : undefined, token);

  describe.each(withAccess('signed-in', 'admin'))('%s', (_name, field) => {
    it('is refused to a visitor without a token: UNAUTHENTICATED, 401', async () => {
      expectUnauthenticated(await call(field));
    });
    it('is refused with a token that is a random string: UNAUTHENTICATED, 401', async () => {
      expectUnauthenticated(await call(field, h.badTokens.random));
    });
    it('is refused with an expired token: UNAUTHENTICATED, 401', async () => {
      expectUnauthenticated(await call(field, h.badTokens.expired(customer)));
    });
    it("is refused with a token not signed by the server's secret: UNAUTHENTICATED, 401", async () => {
      expectUnauthenticated(await call(field, h.badTokens.forged(customer)));
    });
    it('is refused with an unsigned (alg none) token: UNAUTHENTICATED, 401', async () => {
      expectUnauthenticated(await call(field, h.badTokens.unsigned(customer)));
    });
    it("is refused with a deleted user's token: UNAUTHENTICATED, 401", async () => {
      expectUnauthenticated(await call(field, deleted.token));
    });
  });

  describe.each(withAccess('signed-in'))('%s', (_name, field) => {
    it('lets a signed-in customer past the sign-in check', async () => {
      const { code, status } = refusal(await call(field, customer.token));
      expect(code).not.toBe('UNAUTHENTICATED');
      expect(status).not.toBe(401);
    });
  });

  describe.each(withAccess('admin'))('%s', (_name, field) => {
    it('is refused to a customer: FORBIDDEN, 403', async () => {
      expectForbidden(await call(field, customer.token));
    });
  });

  describe.each(withAccess('public'))('%s', (_name, field) => {
    it('answers a visitor without a token', async () => {
      const result = await call(field);
      expect({ status: result.status, errors: result.errors }).toEqual({ status: 200, errors: undefined });
    });
    it('ignores a bad token instead of refusing', async () => {
      const result = await call(field, h.badTokens.random);
      expect({ status: result.status, errors: result.errors }).toEqual({ status: 200, errors: undefined });
    });
  });
});
