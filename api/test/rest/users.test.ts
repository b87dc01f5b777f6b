import { messages } from '@partsyard/common';
import { adapterDatabaseKinds } from '../support/env';
import { emulatorSignIn, emulatorSignUp, uniqueEmail, type TestApp, type TestUser } from '../support/testApp';
import {
  expectRefusal,
  restAddPart,
  restOrder,
  restPart,
  restPlaceOrder,
  sortedKeys,
  startRestApp,
  unknownId,
  userKeys,
  uuidPattern,
  type Deleted,
  type Updated,
  type UserDoc,
} from './restSupport';

interface SignInAnswer {
  result: Updated & { upsertedCount: number; upsertedId: string | null };
  token: string;
}

const profile = {
  name: 'Tanvir Hasan',
  avatar: 'https://example.test/tanvir.png',
  phone: '01812345678',
  education: 'BUET',
  location: 'Chattogram',
  linkedIn: 'https://linkedin.example.test/tanvir',
};

describe.each(adapterDatabaseKinds)('REST users (/api/user, /api/users, /api/admin) on %s', (kind) => {
  let app: TestApp;
  let admin: TestUser;
  let customer: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    app = await startRestApp(kind);
    admin = await app.signUp({ admin: true });
    customer = await app.signUp({ name: 'Karim Rider' });
    other = await app.signUp({ name: 'Other Rider' });
  });
  afterAll(() => app?.close());

  const userEmails = async () =>
    (await app.rest<UserDoc[]>('GET', '/users', undefined, admin.token)).body.map((u) => u.email).sort();
  const profileOf = async (email: string) =>
    (await app.rest<UserDoc>('GET', `/user/${email}`, undefined, admin.token)).body;
  const isAdminFlag = async (email: string) =>
    (await app.rest<{ admin: boolean }>('GET', `/admin/${email}`, undefined, admin.token)).body.admin;

  describe('PUT /api/user/{email} with a Firebase ID token (sign-in)', () => {
    it('creates the user on first sign-in: {result: {..., upsertedCount: 1, upsertedId}, token}, and the token works', async () => {
      const email = uniqueEmail('rest-signup');
      const idToken = await emulatorSignUp(email, 'Secret#123', 'Tanvir Hasan');
      const result = await app.rest<SignInAnswer>('PUT', `/user/${email}`, { email, ...profile }, idToken);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        result: {
          acknowledged: true,
          matchedCount: 0,
          modifiedCount: 0,
          upsertedCount: 1,
          upsertedId: expect.stringMatching(uuidPattern),
        },
        token: expect.any(String),
      });
      const me = await app.rest<UserDoc>('GET', `/user/${email}`, undefined, result.body.token);
      expect(me.status).toBe(200);
      expect(me.body).toEqual({ _id: result.body.result.upsertedId, email, role: 'customer', ...profile });
    });

    it('updates the existing user on a later sign-in: matchedCount 1, upsertedCount 0, upsertedId null', async () => {
      const email = uniqueEmail('rest-signin');
      const idToken = await emulatorSignUp(email, 'Secret#123', 'Tanvir Hasan');
      const first = await app.rest<SignInAnswer>('PUT', `/user/${email}`, profile, idToken);
      const again = await app.rest<SignInAnswer>(
        'PUT',
        `/user/${email}`,
        { email, name: 'Tanvir H.', phone: '' },
        await emulatorSignIn(email, 'Secret#123'),
      );
      expect(again.status).toBe(200);
      expect(again.body).toEqual({
        result: { acknowledged: true, matchedCount: 1, modifiedCount: 1, upsertedCount: 0, upsertedId: null },
        token: expect.any(String),
      });
      // A blank field from the sign-in form does not erase what the profile holds.
      expect(await profileOf(email)).toEqual({
        _id: first.body.result.upsertedId,
        email,
        role: 'customer',
        ...profile,
        name: 'Tanvir H.',
      });
    });

    it('refuses an over-long profile field with 400 {message, errors} and creates no user', async () => {
      const email = uniqueEmail('rest-long');
      const idToken = await emulatorSignUp(email, 'Secret#123', 'Long Name');
      const before = await userEmails();
      expectRefusal(await app.rest('PUT', `/user/${email}`, { ...profile, education: 'e'.repeat(201) }, idToken), 400, {
        education: messages.tooLong(200),
      });
      expect(await userEmails()).toEqual(before);
    });

    it('refuses a Firebase ID token for a different email with 403 and creates no user', async () => {
      const tokenEmail = uniqueEmail('rest-owner');
      const pathEmail = uniqueEmail('rest-victim');
      const idToken = await emulatorSignUp(tokenEmail, 'Secret#123', 'Token Owner');
      const before = await userEmails();
      expectRefusal(await app.rest('PUT', `/user/${pathEmail}`, profile, idToken), 403);
      expect(await userEmails()).toEqual(before);
      expectRefusal(await app.rest('GET', `/user/${pathEmail}`, undefined, admin.token), 404, 'User not found');
    });

    it('refuses a request without a token, and one with a token that is neither ours nor Firebase’s, with 401', async () => {
      const email = uniqueEmail('rest-anon');
      const before = await userEmails();
      expectRefusal(await app.rest('PUT', `/user/${email}`, profile), 401);
      expectRefusal(await app.rest('PUT', `/user/${email}`, profile, 'garbage-token'), 401);
      expect(await userEmails()).toEqual(before);
    });
  });

  describe('PUT /api/user/{email} with our access token (profile edit)', () => {
    it('lets users update their own profile: {result: {acknowledged, matchedCount: 1, modifiedCount: 1}}', async () => {
      const user = await app.signUp();
      const result = await app.rest<{ result: Updated }>(
        'PUT',
        `/user/${user.email}`,
        { education: 'DU', location: 'Sylhet' },
        user.token,
      );
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ result: { acknowledged: true, matchedCount: 1, modifiedCount: 1 } });
      expect(await profileOf(user.email)).toMatchObject({ education: 'DU', location: 'Sylhet' });
    });

    it('ignores a role sent in the profile body, on sign-in and on edit: nobody makes themselves admin', async () => {
      const user = await app.signUp();
      const edit = await app.rest('PUT', `/user/${user.email}`, { role: 'admin', location: 'Khulna' }, user.token);
      expect(edit.status).toBe(200);
      const signIn = await app.rest(
        'PUT',
        `/user/${user.email}`,
        { role: 'admin' },
        await emulatorSignIn(user.email, user.password),
      );
      expect(signIn.status).toBe(200);
      expect(await profileOf(user.email)).toMatchObject({ role: 'customer', location: 'Khulna' });
      expect(await isAdminFlag(user.email)).toBe(false);
    });

    it("refuses another user's profile with 403 and changes nothing", async () => {
      const before = await profileOf(other.email);
      expectRefusal(await app.rest('PUT', `/user/${other.email}`, { location: 'Hacked' }, customer.token), 403);
      expect(await profileOf(other.email)).toEqual(before);
    });

    it('refuses an over-long field with 400 {message, errors} and changes nothing', async () => {
      const user = await app.signUp();
      const before = await profileOf(user.email);
      const result = await app.rest('PUT', `/user/${user.email}`, { location: 'x'.repeat(201) }, user.token);
      expectRefusal(result, 400, { location: messages.tooLong(200) });
      expect(await profileOf(user.email)).toEqual(before);
    });
  });

  describe('GET /api/user/{email}', () => {
    it("answers users their own profile as a user document with spec §3's fields", async () => {
      const result = await app.rest<UserDoc>('GET', `/user/${customer.email}`, undefined, customer.token);
      expect(result.status).toBe(200);
      expect(sortedKeys(result.body)).toEqual(userKeys);
      expect(result.body).toMatchObject({
        _id: customer.userId,
        email: customer.email,
        name: 'Karim Rider',
        role: 'customer',
      });
    });

    it("lets an admin read anyone's profile", async () => {
      const result = await app.rest<UserDoc>('GET', `/user/${customer.email}`, undefined, admin.token);
      expect(result.status).toBe(200);
      expect(result.body._id).toBe(customer.userId);
    });

    it("refuses another customer's profile with 403 and a visitor with 401", async () => {
      expectRefusal(await app.rest('GET', `/user/${other.email}`, undefined, customer.token), 403);
      expectRefusal(await app.rest('GET', `/user/${customer.email}`), 401);
    });

    it('answers 404 for an unknown email and 400 for a malformed one', async () => {
      expectRefusal(await app.rest('GET', `/user/${uniqueEmail('nobody')}`, undefined, admin.token), 404);
      expectRefusal(await app.rest('GET', '/user/not-an-email', undefined, admin.token), 400, {
        email: messages.emailInvalid,
      });
    });
  });

  describe('GET /api/users', () => {
    it('lets an admin list users as user documents with email, role and _id', async () => {
      const result = await app.rest<UserDoc[]>('GET', '/users', undefined, admin.token);
      expect(result.status).toBe(200);
      for (const user of result.body) expect(sortedKeys(user)).toEqual(userKeys);
      expect(result.body.map((u) => u.email)).toEqual(expect.arrayContaining([admin.email, customer.email]));
      expect(result.body.find((u) => u.email === admin.email)?.role).toBe('admin');
      expect(result.body.find((u) => u.email === customer.email)).toMatchObject({
        _id: customer.userId,
        role: 'customer',
      });
    });

    it('refuses a customer with 403 and a visitor with 401', async () => {
      expectRefusal(await app.rest('GET', '/users', undefined, customer.token), 403);
      expectRefusal(await app.rest('GET', '/users'), 401);
    });
  });

  describe('PUT /api/user/admin/{email}', () => {
    it('lets an admin grant admin: modifiedCount 1, effective at once; granting again answers modifiedCount 0', async () => {
      const promoted = await app.signUp({ verified: true });
      expectRefusal(await app.rest('GET', '/users', undefined, promoted.token), 403);
      const result = await app.rest<Updated>('PUT', `/user/admin/${promoted.email}`, undefined, admin.token);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ acknowledged: true, matchedCount: 1, modifiedCount: 1 });
      expect(await isAdminFlag(promoted.email)).toBe(true);
      expect((await app.rest('GET', '/users', undefined, promoted.token)).status).toBe(200);
      const again = await app.rest<Updated>('PUT', `/user/admin/${promoted.email}`, undefined, admin.token);
      expect(again.body).toEqual({ acknowledged: true, matchedCount: 1, modifiedCount: 0 });
    });

    it('refuses a customer with 403 (also for themselves) and a visitor with 401; nobody becomes admin', async () => {
      const target = await app.signUp();
      expectRefusal(await app.rest('PUT', `/user/admin/${target.email}`, undefined, customer.token), 403);
      expectRefusal(await app.rest('PUT', `/user/admin/${customer.email}`, undefined, customer.token), 403);
      expectRefusal(await app.rest('PUT', `/user/admin/${target.email}`), 401);
      expect(await isAdminFlag(target.email)).toBe(false);
      expect(await isAdminFlag(customer.email)).toBe(false);
    });

    it('answers 404 for an unknown email and 400 for a malformed one', async () => {
      expectRefusal(
        await app.rest('PUT', `/user/admin/${uniqueEmail('ghost')}`, undefined, admin.token),
        404,
        'User not found',
      );
      expectRefusal(await app.rest('PUT', '/user/admin/not-an-email', undefined, admin.token), 400, {
        email: messages.emailInvalid,
      });
    });
  });

  describe('GET /api/admin/{email}', () => {
    it('answers {admin} to the user themselves', async () => {
      const own = await app.rest<{ admin: boolean }>('GET', `/admin/${customer.email}`, undefined, customer.token);
      expect(own.status).toBe(200);
      expect(own.body).toEqual({ admin: false });
      const adminOwn = await app.rest<{ admin: boolean }>('GET', `/admin/${admin.email}`, undefined, admin.token);
      expect(adminOwn.body).toEqual({ admin: true });
    });

    it('answers {admin} about anyone to an admin', async () => {
      const result = await app.rest<{ admin: boolean }>('GET', `/admin/${customer.email}`, undefined, admin.token);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ admin: false });
    });

    it("refuses another user's admin flag to a customer with 403, and a visitor with 401", async () => {
      expectRefusal(await app.rest('GET', `/admin/${admin.email}`, undefined, customer.token), 403);
      expectRefusal(await app.rest('GET', `/admin/${customer.email}`), 401);
    });
  });

  describe('DELETE /api/user/{id}', () => {
    it('lets an admin delete a user: {acknowledged, deletedCount: 1}; their token stops working, unpaid orders give stock back', async () => {
      const leaving = await app.signUp();
      const partId = await restAddPart(app, admin.token, { available: 60 });
      const orderId = await restPlaceOrder(app, leaving.token, partId, { orderAmount: 15 });
      const result = await app.rest<Deleted>('DELETE', `/user/${leaving.userId}`, undefined, admin.token);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ acknowledged: true, deletedCount: 1 });
      expect(await userEmails()).not.toContain(leaving.email);
      expectRefusal(await app.rest('GET', `/user/${leaving.email}`, undefined, leaving.token), 401);
      expect((await restOrder(app, admin.token, orderId)).status).toBe(404);
      expect((await restPart(app, partId)).available).toBe(60);
      await expect(emulatorSignIn(leaving.email, leaving.password)).rejects.toThrow();
    });

    it('refuses a customer with 403 and a visitor with 401; the user stays', async () => {
      expectRefusal(await app.rest('DELETE', `/user/${other.userId}`, undefined, customer.token), 403);
      expectRefusal(await app.rest('DELETE', `/user/${other.userId}`), 401);
      expect(await userEmails()).toContain(other.email);
    });

    it('answers 404 for an unknown id and refuses an admin deleting themselves with 409', async () => {
      expectRefusal(await app.rest('DELETE', `/user/${unknownId}`, undefined, admin.token), 404, 'User not found');
      expectRefusal(await app.rest('DELETE', `/user/${admin.userId}`, undefined, admin.token), 409);
      expect(await userEmails()).toContain(admin.email);
    });
  });
});
