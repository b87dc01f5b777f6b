import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema';
import { databaseKinds } from '../support/env';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';

/**
 * Every request sees the account as the database holds it now (api/src/http/caller.ts): a role given or taken
 * and a deletion take effect on the very next request carrying the same access token, over GraphQL and the
 * REST shim, however many requests that token made before (nothing about the caller is kept between requests).
 */
jest.setTimeout(120_000);

describe.each(databaseKinds)('the caller as it is now, on %s', (kind) => {
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
  /** The status of an admin-only read over GraphQL and REST, and of a signed-in read over GraphQL. */
  const answers = async (user: TestUser) => ({
    allOrders: (await app.gql('{ orders(limit: 1) { total } }', {}, user.token)).status,
    restUsers: (await app.rest('GET', '/users', undefined, user.token)).status,
    me: (await app.gql('{ me { id } }', {}, user.token)).status,
  });

  it('a role given or taken (by an admin or straight in the database) counts from the next request', async () => {
    const rider = await app.signUp({ name: 'Promoted Rider', verified: true });
    // Warm: the same token, many times, as a customer.
    for (let i = 0; i < 5; i++) expect(await answers(rider)).toEqual({ allOrders: 403, restUsers: 403, me: 200 });

    const granted = await app.gql(
      'mutation($email: String!) { grantAdmin(email: $email) { isAdmin } }',
      { email: rider.email },
      admin.token,
    );
    expect(granted.data).toEqual({ grantAdmin: { isAdmin: true } });
    expect(await answers(rider)).toEqual({ allOrders: 200, restUsers: 200, me: 200 });

    const revoked = await app.gql(
      'mutation($email: String!) { revokeAdmin(email: $email) { isAdmin } }',
      { email: rider.email },
      admin.token,
    );
    expect(revoked.data).toEqual({ revokeAdmin: { isAdmin: false } });
    expect(await answers(rider)).toEqual({ allOrders: 403, restUsers: 403, me: 200 });

    // An operator's change in the database, which no process of ours made: the next request sees it too.
    await setRole(rider, 'admin');
    expect(await answers(rider)).toEqual({ allOrders: 200, restUsers: 200, me: 200 });
    await setRole(rider, 'customer');
    expect(await answers(rider)).toEqual({ allOrders: 403, restUsers: 403, me: 200 });
  });

  it('a deleted account is refused on the next request, its public reads still answered as a visitor’s', async () => {
    const leaving = await app.signUp({ name: 'Leaving Rider' });
    const promoted = await app.signUp({ name: 'Leaving Admin' });
    await setRole(promoted, 'admin');
    expect((await answers(leaving)).me).toBe(200);
    expect(await answers(promoted)).toEqual({ allOrders: 200, restUsers: 200, me: 200 });

    for (const user of [leaving, promoted]) {
      const deleted = await app.gql('mutation($id: ID!) { deleteUser(id: $id) }', { id: user.userId }, admin.token);
      expect(deleted.data).toEqual({ deleteUser: user.userId });
      expect(await answers(user)).toEqual({ allOrders: 401, restUsers: 401, me: 401 });
      const home = await app.gql<{ popularParts: unknown[] }>('{ popularParts { id } }', {}, user.token);
      expect({ status: home.status, errors: home.errors }).toEqual({ status: 200, errors: undefined });
    }
  });
});
