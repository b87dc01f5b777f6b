import { adapterDatabaseKinds } from '../support/env';
import { addPart, payOrder, placeOrder } from '../support/fixtures';
import { emulatorSignIn, emulatorSignUp, emulatorVerifyEmail, uniqueEmail, type TestUser } from '../support/testApp';
import {
  dataOf,
  expectBadInput,
  expectConflict,
  expectForbidden,
  expectNotFound,
  expectUnauthenticated,
  isoDate,
  readOrder,
  readPart,
  startHarness,
  unknownId,
  userFields,
  type Harness,
  type UserData,
} from './helpers';

// Starting an app and signing users up takes seconds; jest's 5 s default is too short.
jest.setTimeout(120_000);

interface AuthPayload {
  token: string;
  user: UserData;
}

describe.each(adapterDatabaseKinds)('users and accounts over GraphQL on %s', (kind) => {
  // Made admin on sign-in by the ADMIN_EMAILS setting.
  const listedAdminEmail = uniqueEmail('listed-admin');
  let h: Harness;
  let admin: TestUser;
  let customer: TestUser;
  let otherCustomer: TestUser;

  beforeAll(async () => {
    h = await startHarness(kind, { adminEmails: [listedAdminEmail] });
    admin = await h.signUp({ admin: true, name: 'Shop Admin' });
    customer = await h.signUp({ name: 'Rider Customer' });
    otherCustomer = await h.signUp({ name: 'Other Rider' });
  });
  afterAll(() => h?.app.close());

  const signIn = (idToken: string, profile?: Record<string, unknown>) =>
    h.app.gql<{ signIn: AuthPayload }>(
      `mutation($idToken: String!, $profile: ProfileInput) {
        signIn(idToken: $idToken, profile: $profile) { token user { ${userFields} } }
      }`,
      { idToken, profile },
    );
  const me = (token?: string) => h.app.gql<{ me: UserData }>(`{ me { ${userFields} } }`, {}, token);
  const updateProfile = (input: Record<string, unknown>, token?: string) =>
    h.app.gql<{ updateProfile: UserData }>(
      `mutation($input: ProfileInput!) { updateProfile(input: $input) { ${userFields} } }`,
      { input },
      token,
    );
  const listUsers = (token?: string, variables: Record<string, unknown> = {}) =>
    h.app.gql<{ users: { items: UserData[]; total: number } }>(
      `query($offset: Int, $limit: Int) { users(offset: $offset, limit: $limit) { items { ${userFields} } total } }`,
      variables,
      token,
    );
  const isAdmin = (email: string, token?: string) =>
    h.app.gql<{ isAdmin: boolean }>('query($email: String!) { isAdmin(email: $email) }', { email }, token);
  const grantAdmin = (email: string, token?: string) =>
    h.app.gql<{ grantAdmin: UserData }>(
      `mutation($email: String!) { grantAdmin(email: $email) { ${userFields} } }`,
      { email },
      token,
    );
  const deleteUser = (id: string, token?: string) =>
    h.app.gql<{ deleteUser: string }>('mutation($id: ID!) { deleteUser(id: $id) }', { id }, token);

  describe('Mutation.signIn', () => {
    it('exchanges a Firebase ID token for an access token and creates the customer with the profile given', async () => {
      const email = uniqueEmail('new-rider');
      const idToken = await emulatorSignUp(email, 'Secret#123', 'Firebase Name');
      const { token, user } = dataOf(await signIn(idToken, { name: 'Ana Rider', phone: '01712345678' })).signIn;
      expect(user).toEqual({
        id: expect.any(String),
        email,
        name: 'Ana Rider',
        avatar: '',
        phone: '01712345678',
        education: '',
        location: '',
        linkedIn: '',
        role: 'CUSTOMER',
        isAdmin: false,
        createdAt: isoDate,
      });
      expect(token).toEqual(expect.any(String));
      expect(dataOf(await me(token)).me).toEqual(user);
    });

    it('takes the name from the Firebase account when the profile gives none', async () => {
      const email = uniqueEmail('plain');
      const idToken = await emulatorSignUp(email, 'Secret#123', 'Firebase Name');
      expect(dataOf(await signIn(idToken)).signIn.user).toMatchObject({ email, name: 'Firebase Name' });
    });

    it('signing in again keeps the same account and never blanks what the profile holds', async () => {
      const email = uniqueEmail('returning');
      const first = dataOf(await signIn(await emulatorSignUp(email, 'Secret#123'), { name: 'Ana Rider' })).signIn;
      dataOf(await updateProfile({ location: 'Chattogram' }, first.token));

      const again = dataOf(await signIn(await emulatorSignIn(email, 'Secret#123'), { name: '', location: '' })).signIn;
      expect(again.user).toMatchObject({ id: first.user.id, name: 'Ana Rider', location: 'Chattogram' });
      expect(dataOf(await me(again.token)).me.id).toBe(first.user.id);
    });

    it('makes an email listed in ADMIN_EMAILS an admin on sign-in, once the address is verified', async () => {
      await emulatorSignUp(listedAdminEmail, 'Secret#123', 'Listed Admin');
      const idToken = await emulatorVerifyEmail(listedAdminEmail, 'Secret#123');
      const { token, user } = dataOf(await signIn(idToken)).signIn;
      expect(user).toMatchObject({ email: listedAdminEmail, role: 'ADMIN', isAdmin: true });
      expect(dataOf(await listUsers(token)).users.total).toBeGreaterThan(0);
    });

    it('refuses an invalid ID token, or one of our own access tokens: UNAUTHENTICATED, 401', async () => {
      const before = dataOf(await listUsers(admin.token)).users.total;
      expectUnauthenticated(await signIn('not-a-firebase-token'));
      expectUnauthenticated(await signIn(customer.token));
      expect(dataOf(await listUsers(admin.token)).users.total).toBe(before);
    });

    it('refuses a profile with too long a name: BAD_USER_INPUT', async () => {
      const idToken = await emulatorSignUp(uniqueEmail('long'), 'Secret#123');
      expectBadInput(await signIn(idToken, { name: 'x'.repeat(201) }), { name: 'Must be 200 characters or fewer' });
    });
  });

  describe('Query.me', () => {
    it('answers a customer their own profile, not an admin', async () => {
      expect(dataOf(await me(customer.token)).me).toMatchObject({
        id: customer.userId,
        email: customer.email,
        name: 'Rider Customer',
        role: 'CUSTOMER',
        isAdmin: false,
      });
    });

    it('answers an admin their own profile with isAdmin true', async () => {
      expect(dataOf(await me(admin.token)).me).toMatchObject({
        id: admin.userId,
        email: admin.email,
        role: 'ADMIN',
        isAdmin: true,
      });
    });

    it('is refused without a token, with a random string, an expired or a forged token: 401', async () => {
      expectUnauthenticated(await me());
      expectUnauthenticated(await me(h.badTokens.random));
      expectUnauthenticated(await me(h.badTokens.expired(customer)));
      expectUnauthenticated(await me(h.badTokens.forged(customer)));
      expectUnauthenticated(await me(h.badTokens.unsigned(admin)));
    });
  });

  describe('Mutation.updateProfile', () => {
    it('saves the fields given, keeps those omitted, and me shows them on the next request', async () => {
      const rider = await h.signUp({ name: 'Profile Rider' });
      const updated = dataOf(
        await updateProfile(
          {
            phone: '01812345678',
            education: 'BUET',
            location: 'Dhaka',
            linkedIn: 'https://linkedin.example/rider',
            avatar: 'https://img.example/rider.png',
          },
          rider.token,
        ),
      ).updateProfile;
      expect(updated).toMatchObject({
        id: rider.userId,
        name: 'Profile Rider',
        phone: '01812345678',
        education: 'BUET',
        location: 'Dhaka',
        linkedIn: 'https://linkedin.example/rider',
        avatar: 'https://img.example/rider.png',
      });
      expect(dataOf(await me(rider.token)).me).toEqual(updated);

      const moved = dataOf(await updateProfile({ location: 'Sylhet' }, rider.token)).updateProfile;
      expect(moved).toMatchObject({ location: 'Sylhet', phone: '01812345678', education: 'BUET' });
      expect(dataOf(await me(rider.token)).me.location).toBe('Sylhet');
    });

    it("changes only the caller's own profile", async () => {
      const before = dataOf(await me(otherCustomer.token)).me;
      dataOf(await updateProfile({ location: 'Khulna', name: 'Renamed Rider' }, customer.token));
      expect(dataOf(await me(otherCustomer.token)).me).toEqual(before);
      dataOf(await updateProfile({ name: 'Rider Customer' }, customer.token));
    });

    it('refuses fields that are too long: BAD_USER_INPUT, and saves nothing', async () => {
      expectBadInput(await updateProfile({ phone: '1'.repeat(201), linkedIn: 'x'.repeat(2049) }, customer.token), {
        phone: 'Must be 200 characters or fewer',
        linkedIn: 'Must be 2048 characters or fewer',
      });
      expect(dataOf(await me(customer.token)).me.phone).not.toBe('1'.repeat(201));
    });

    it('is refused to a visitor and an expired token (401)', async () => {
      expectUnauthenticated(await updateProfile({ location: 'Nowhere' }));
      expectUnauthenticated(await updateProfile({ location: 'Nowhere' }, h.badTokens.expired(customer)));
      expect(dataOf(await me(customer.token)).me.location).not.toBe('Nowhere');
    });
  });

  describe('Query.users', () => {
    it('lets an admin list every user, newest first, with the total, and page them', async () => {
      const newest = await h.signUp({ name: 'Newest Rider' });
      const all = dataOf(await listUsers(admin.token, { limit: 200 })).users;
      expect(all.items[0]).toMatchObject({ id: newest.userId, email: newest.email, role: 'CUSTOMER', isAdmin: false });
      expect(all.total).toBe(all.items.length);
      expect(all.items.map((u) => u.id)).toEqual(expect.arrayContaining([admin.userId, customer.userId]));
      expect(all.items.find((u) => u.id === admin.userId)).toMatchObject({ role: 'ADMIN', isAdmin: true });

      const second = dataOf(await listUsers(admin.token, { offset: 1, limit: 1 })).users;
      expect({ total: second.total, ids: second.items.map((u) => u.id) }).toEqual({
        total: all.total,
        ids: [all.items[1].id],
      });
    });

    it('refuses a limit above 200', async () => {
      expectBadInput(await listUsers(admin.token, { limit: 201 }), { limit: 'Must be a whole number from 1 to 200' });
    });

    it('is refused to a customer (403) and to a visitor (401)', async () => {
      expectForbidden(await listUsers(customer.token));
      expectUnauthenticated(await listUsers());
    });
  });

  describe('Query.isAdmin', () => {
    it('answers a customer about their own email: false (in any case of letters)', async () => {
      expect(dataOf(await isAdmin(customer.email, customer.token))).toEqual({ isAdmin: false });
      expect(dataOf(await isAdmin(customer.email.toUpperCase(), customer.token))).toEqual({ isAdmin: false });
    });

    it('answers an admin about their own email: true', async () => {
      expect(dataOf(await isAdmin(admin.email, admin.token))).toEqual({ isAdmin: true });
    });

    it('answers an admin about anyone; an unknown email is no admin', async () => {
      expect(dataOf(await isAdmin(customer.email, admin.token))).toEqual({ isAdmin: false });
      expect(dataOf(await isAdmin(uniqueEmail('ghost'), admin.token))).toEqual({ isAdmin: false });
    });

    it("refuses a customer asking about another customer's or an admin's email: FORBIDDEN, 403", async () => {
      expectForbidden(await isAdmin(otherCustomer.email, customer.token));
      expectForbidden(await isAdmin(admin.email, customer.token));
    });

    it('refuses an email that is not one: BAD_USER_INPUT', async () => {
      expectBadInput(await isAdmin('not-an-email', admin.token), { email: 'Provide a valid email' });
    });

    it('is refused to a visitor (401)', async () => {
      expectUnauthenticated(await isAdmin(customer.email));
    });
  });

  describe('Mutation.grantAdmin', () => {
    it('takes effect at once: the same token gets admin rights on the next request', async () => {
      const promoted = await h.signUp({ name: 'Promoted Rider', verified: true });
      expectForbidden(await listUsers(promoted.token));

      const granted = dataOf(await grantAdmin(promoted.email, admin.token)).grantAdmin;
      expect(granted).toMatchObject({ id: promoted.userId, email: promoted.email, role: 'ADMIN', isAdmin: true });

      expect(dataOf(await listUsers(promoted.token)).users.total).toBeGreaterThan(0);
      expect(dataOf(await me(promoted.token)).me.isAdmin).toBe(true);
      expect(dataOf(await isAdmin(promoted.email, admin.token))).toEqual({ isAdmin: true });
    });

    it('granting an admin again changes nothing and answers the admin', async () => {
      expect(dataOf(await grantAdmin(admin.email, admin.token)).grantAdmin).toMatchObject({
        id: admin.userId,
        isAdmin: true,
      });
    });

    it('is refused to a customer, for another or for themselves (403), and to a visitor (401)', async () => {
      expectForbidden(await grantAdmin(otherCustomer.email, customer.token));
      expectForbidden(await grantAdmin(customer.email, customer.token));
      expectUnauthenticated(await grantAdmin(customer.email));
      expect(dataOf(await isAdmin(customer.email, admin.token))).toEqual({ isAdmin: false });
      expect(dataOf(await isAdmin(otherCustomer.email, admin.token))).toEqual({ isAdmin: false });
    });

    it('answers NOT_FOUND for an email without an account and BAD_USER_INPUT for one that is no email', async () => {
      expectNotFound(await grantAdmin(uniqueEmail('ghost'), admin.token));
      expectBadInput(await grantAdmin('not-an-email', admin.token), { email: 'Provide a valid email' });
      expectBadInput(await grantAdmin('', admin.token), { email: 'Email is required' });
    });
  });

  describe('Mutation.deleteUser', () => {
    it('deletes a customer: unpaid orders are cancelled with the stock back, paid ones kept, their token stops working', async () => {
      const leaving = await h.signUp({ name: 'Leaving Rider' });
      const partId = await addPart(h.app, admin.token, { available: 100, minOrder: 10 });
      const unpaid = await placeOrder(h.app, leaving.token, partId, { orderAmount: 30 });
      const paid = await placeOrder(h.app, leaving.token, partId, { orderAmount: 20 });
      await payOrder(h.app, leaving.token, paid.id);
      expect(await readPart(h.app, partId)).toMatchObject({ available: 50, sold: 50 });

      expect(dataOf(await deleteUser(leaving.userId, admin.token))).toEqual({ deleteUser: leaving.userId });

      expect(await readPart(h.app, partId)).toMatchObject({ available: 80, sold: 20 });
      expectNotFound(await readOrder(h.app, unpaid.id, admin.token));
      // Kept for the books, without the customer's email.
      expect(dataOf(await readOrder(h.app, paid.id, admin.token)).order).toMatchObject({ status: 'PAID', email: '' });
      expectUnauthenticated(await me(leaving.token));
      const users = dataOf(await listUsers(admin.token, { limit: 200 })).users.items;
      expect(users.map((u) => u.id)).not.toContain(leaving.userId);
    });

    it('never lets an admin delete themselves: CONFLICT, and the admin stays', async () => {
      expectConflict(await deleteUser(admin.userId, admin.token));
      expect(dataOf(await me(admin.token)).me.isAdmin).toBe(true);
    });

    it('lets an admin delete another admin', async () => {
      const otherAdmin = await h.signUp({ admin: true });
      expect(dataOf(await deleteUser(otherAdmin.userId, admin.token))).toEqual({ deleteUser: otherAdmin.userId });
      expectUnauthenticated(await me(otherAdmin.token));
    });

    it('is refused to a customer, for another or for themselves (403), and to a visitor (401); nobody is deleted', async () => {
      expectForbidden(await deleteUser(otherCustomer.userId, customer.token));
      expectForbidden(await deleteUser(customer.userId, customer.token));
      expectUnauthenticated(await deleteUser(customer.userId));
      expectUnauthenticated(await deleteUser(customer.userId, h.badTokens.random));
      expect(dataOf(await me(customer.token)).me.id).toBe(customer.userId);
      expect(dataOf(await me(otherCustomer.token)).me.id).toBe(otherCustomer.userId);
    });

    it('answers NOT_FOUND for an unknown or malformed id', async () => {
      expectNotFound(await deleteUser(unknownId(), admin.token));
      expectNotFound(await deleteUser('not-an-id', admin.token));
    });
  });
});
