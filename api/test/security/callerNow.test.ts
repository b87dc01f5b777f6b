import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema';
import { adapterDatabaseKinds } from '../support/env';
import { addPart, orderInput } from '../support/fixtures';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';

/**
 * Every request sees the account as the database holds it now (api/src/http/caller.ts): a role given or taken
 * and a deletion take effect on the very next request carrying the same access token, over GraphQL and the
 * REST shim, however many requests that token made before (nothing about the caller is kept between requests).
 */
jest.setTimeout(120_000);

describe.each(adapterDatabaseKinds)('the caller as it is now, on %s', (kind) => {
  let app: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = await app.signUp({ admin: true, name: 'Shop Admin' });
  });
  afterAll(() => app?.close());

  const setRole = (user: TestUser, role: 'admin' | 'customer') =>
    app.server.database.db
      .update(users)
      .set({ role, adminSource: role === 'admin' ? 'granted' : null })
      .where(eq(users.id, user.userId));
  /**
   * The status of an admin-only read over GraphQL and REST, and of signed-in reads over GraphQL. All Orders and My
   * Orders alone read their caller in the page's statement; beside another field, after the caller's lookup.
   */
  const answers = async (user: TestUser) => ({
    allOrders: (await app.gql('{ orders(limit: 1) { total } }', {}, user.token)).status,
    allOrdersBeside: (await app.gql('{ me { id } orders(limit: 1) { total } }', {}, user.token)).status,
    restUsers: (await app.rest('GET', '/users', undefined, user.token)).status,
    me: (await app.gql('{ me { id } }', {}, user.token)).status,
    myOrders: (await app.gql('{ myOrders(limit: 1) { total } }', {}, user.token)).status,
  });
  const asCustomer = { allOrders: 403, allOrdersBeside: 403, restUsers: 403, me: 200, myOrders: 200 };
  const asAdmin = { allOrders: 200, allOrdersBeside: 200, restUsers: 200, me: 200, myOrders: 200 };
  const gone = { allOrders: 401, allOrdersBeside: 401, restUsers: 401, me: 401, myOrders: 401 };

  it('a role given or taken (by an admin or straight in the database) counts from the next request', async () => {
    const rider = await app.signUp({ name: 'Promoted Rider', verified: true });
    // Warm: the same token, many times, as a customer (past the tenth, when an operation is compiled).
    for (let i = 0; i < 12; i++) expect(await answers(rider)).toEqual(asCustomer);
    // The right is decided before the input is looked at, as for any caller: a customer's bad page is still 403.
    expect((await app.gql('{ orders(limit: 100000) { total } }', {}, rider.token)).status).toBe(403);

    const granted = await app.gql(
      'mutation($email: String!) { grantAdmin(email: $email) { isAdmin } }',
      { email: rider.email },
      admin.token,
    );
    expect(granted.data).toEqual({ grantAdmin: { isAdmin: true } });
    expect(await answers(rider)).toEqual(asAdmin);

    const revoked = await app.gql(
      'mutation($email: String!) { revokeAdmin(email: $email) { isAdmin } }',
      { email: rider.email },
      admin.token,
    );
    expect(revoked.data).toEqual({ revokeAdmin: { isAdmin: false } });
    expect(await answers(rider)).toEqual(asCustomer);

    // An operator's change in the database, which no process of ours made: the next request sees it too.
    await setRole(rider, 'admin');
    expect(await answers(rider)).toEqual(asAdmin);
    await setRole(rider, 'customer');
    expect(await answers(rider)).toEqual(asCustomer);
  });

  it('a deleted account is refused on the next request, its public reads still answered as a visitor’s', async () => {
    const leaving = await app.signUp({ name: 'Leaving Rider' });
    const promoted = await app.signUp({ name: 'Leaving Admin' });
    await setRole(promoted, 'admin');
    // Warm past compilation, as above.
    for (let i = 0; i < 12; i++) expect(await answers(leaving)).toEqual(asCustomer);
    expect(await answers(promoted)).toEqual(asAdmin);
    // An order placed alone reads its caller with the part (ordersService.placeOrder): each places one now.
    const partId = await addPart(app, admin.token, { minOrder: 1, available: 100 });
    const place = (user: TestUser, input: Record<string, unknown>) =>
      app.gql('mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }', { input }, user.token);
    for (const user of [leaving, promoted]) {
      const placed = await place(user, orderInput(partId, { orderAmount: 1 }));
      expect({ status: placed.status, errors: placed.errors }).toEqual({ status: 200, errors: undefined });
    }

    for (const user of [leaving, promoted]) {
      const deleted = await app.gql('mutation($id: ID!) { deleteUser(id: $id) }', { id: user.userId }, admin.token);
      expect(deleted.data).toEqual({ deleteUser: user.userId });
      expect(await answers(user)).toEqual(gone);
      const refused = await app.gql('{ myOrders(limit: 1) { total } }', {}, user.token);
      expect(refused.errors?.[0]?.message).toBe('This account no longer exists');
      // Bad input from a deleted account: told that the account is gone, not about the input.
      const badPage = await app.gql('{ myOrders(limit: 100000) { total } }', {}, user.token);
      expect([badPage.status, badPage.errors?.[0]?.message]).toEqual([401, 'This account no longer exists']);
      // Nor can it order: with good input, with bad input, a part that does not exist, an id that names none.
      for (const input of [
        orderInput(partId, { orderAmount: 1 }),
        orderInput(partId, { orderAmount: -1, phone: '' }),
        orderInput('00000000-0000-4000-8000-000000000000'),
        orderInput('not-an-id'),
      ]) {
        const ordered = await place(user, input);
        expect([ordered.status, ordered.errors?.[0]?.message]).toEqual([401, 'This account no longer exists']);
      }
      const home = await app.gql<{ popularParts: unknown[] }>('{ popularParts { id } }', {}, user.token);
      expect({ status: home.status, errors: home.errors }).toEqual({ status: 200, errors: undefined });
    }
  });
});
