import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { orders, payments, reviews, users } from '../../src/db/schema';
import { createAccessTokens } from '../../src/identity/accessTokens';
import { createFirebaseIdentity, type FirebaseAuthApi, type Identity } from '../../src/identity/firebaseIdentity';
import { createRateLimits } from '../../src/rateLimits';
import { startServer } from '../../src/server';
import { emailTaken, createUsersService } from '../../src/services/usersService';
import { testEnv, databaseKinds } from '../support/env';
import { addPart, payOrder, placeOrder } from '../support/fixtures';
import {
  emulatorRequest,
  emulatorSignIn,
  emulatorSignUp,
  emulatorVerifyEmail,
  idTokenClaims,
  startTestApp,
  testConfig,
  uniqueEmail,
  type TestApp,
  type TestUser,
} from '../support/testApp';

/**
 * Identity attacks (issue 10, docs/security.md "Identity"): an account is a Firebase account (uid); an email
 * is an attribute that follows it and never hands a row, a role or anyone's history to whoever holds the
 * address next.
 */

type Me = { me: { id: string; email: string; role: string; emailVerified: boolean } };
const meQuery = '{ me { id email role emailVerified } }';
const password = 'Secret#123';

/** The owner of a Firebase account changes its email (the client API, as the web SDK's updateEmail does). */
async function changeEmail(idToken: string, email: string): Promise<string> {
  const body = await emulatorRequest('update', { idToken, email });
  if (typeof body.idToken !== 'string') throw new Error('the emulator answered no ID token');
  return body.idToken;
}

/** The owner deletes their Firebase account (not through the shop). */
const deleteFirebaseAccount = async (idToken: string) => {
  await emulatorRequest('delete', { idToken });
};

describe.each(databaseKinds)('an account is a Firebase account, not an email (%s)', (kind) => {
  let app: TestApp;
  let admin: TestUser;
  let partId: string;

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = await app.signUp({ admin: true });
    partId = await addPart(app, admin.token, { available: 100_000, minOrder: 1 });
  });
  afterAll(() => app?.close());

  const signIn = (idToken: string) =>
    app.gql<{ signIn: { token: string; user: { id: string; email: string; role: string } } }>(
      'mutation($idToken: String!) { signIn(idToken: $idToken) { token user { id email role } } }',
      { idToken },
    );
  const me = async (token: string) => (await app.gql<Me>(meQuery, {}, token)).data?.me;
  const row = async (id: string) => (await app.server.database.db.select().from(users).where(eq(users.id, id)))[0];

  it('a recycled email does not take over the old account: not its role, orders, profile or id (GraphQL)', async () => {
    // Staff member S, verified and granted admin, with an order and a profile.
    const oldEmail = uniqueEmail('staff');
    const staff = await app.signUp({ email: oldEmail, verified: true });
    expect(
      (await app.gql('mutation($e: String!) { grantAdmin(email: $e) { id } }', { e: oldEmail }, admin.token)).status,
    ).toBe(200);
    await placeOrder(app, staff.token, partId, { orderAmount: 1, address: 'Staff address' });
    await app.gql('mutation { updateProfile(input: { location: "Staff room" }) { id } }', {}, staff.token);

    // S moves their Firebase sign-in to a new address; someone registers the old one, unverified.
    const newEmail = uniqueEmail('staff-new');
    await changeEmail(staff.idToken, newEmail);
    // Changing the email ends the account's earlier sign-ins (Firebase revokes their tokens): S signs in again.
    const staffNewToken = await emulatorSignIn(newEmail, staff.password);
    const intruderIdToken = await emulatorSignUp(oldEmail, 'Intruder#1', 'Intruder');
    const intruder = await signIn(intruderIdToken);
    expect(intruder.errors).toBeUndefined();
    const intruderUser = intruder.data?.signIn.user;
    expect(intruderUser?.id).not.toBe(staff.userId);
    expect(intruderUser).toMatchObject({ email: oldEmail, role: 'CUSTOMER' });
    const intruderToken = intruder.data?.signIn.token ?? '';
    expect((await app.gql<{ myOrders: { total: number } }>('{ myOrders { total } }', {}, intruderToken)).data).toEqual({
      myOrders: { total: 0 },
    });
    expect((await app.gql('{ users { total } }', {}, intruderToken)).status).toBe(403);
    expect(
      (await app.rest<{ location: string }>('GET', `/user/${oldEmail}`, undefined, intruderToken)).body,
    ).toMatchObject({ location: '' });

    // S's row let the old address go; S signing in with the new one is the same account, still admin.
    expect((await row(staff.userId)).email).toBeNull();
    const back = await signIn(staffNewToken);
    expect(back.errors).toBeUndefined();
    expect(back.data?.signIn.user).toMatchObject({ id: staff.userId, email: newEmail, role: 'ADMIN' });
    expect(await me(back.data?.signIn.token ?? '')).toMatchObject({ id: staff.userId, email: newEmail });
    const staffOrders = await app.rest<{ address: string }[]>(
      'GET',
      `/orders/filter?email=${encodeURIComponent(newEmail)}`,
      undefined,
      back.data?.signIn.token,
    );
    expect(staffOrders.body).toEqual([expect.objectContaining({ address: 'Staff address' })]);
  });

  it('a recycled email gets a new account through the REST sign-in too (PUT /api/user/{email})', async () => {
    const oldEmail = uniqueEmail('mover');
    const mover = await app.signUp({ email: oldEmail });
    await placeOrder(app, mover.token, partId, { orderAmount: 1 });
    await changeEmail(mover.idToken, uniqueEmail('moved'));
    const newcomer = await emulatorSignUp(oldEmail, 'Newcomer#1', 'Newcomer');
    const result = await app.rest<{ result: { upsertedCount: number; upsertedId: string | null }; token: string }>(
      'PUT',
      `/user/${oldEmail}`,
      { name: 'Newcomer' },
      newcomer,
    );
    expect(result.status).toBe(200);
    expect(result.body.result.upsertedCount).toBe(1);
    expect(result.body.result.upsertedId).not.toBe(mover.userId);
    const theirs = await app.rest<unknown[]>('GET', `/orders/filter?email=${oldEmail}`, undefined, result.body.token);
    expect(theirs.body).toEqual([]);
  });

  it('a changed email follows the account at its next sign-in, and the old address names nobody', async () => {
    const rider = await app.signUp();
    const changed = uniqueEmail('renamed');
    await changeEmail(rider.idToken, changed);
    const token = (await signIn(await emulatorSignIn(changed, rider.password))).data?.signIn.token ?? '';
    expect(await me(token)).toMatchObject({ id: rider.userId, email: changed });
    expect((await app.rest('GET', `/user/${rider.email}`, undefined, admin.token)).status).toBe(404);
    expect((await app.rest('GET', `/user/${changed}`, undefined, admin.token)).status).toBe(200);
    // Asking by the old address is not asking for yourself any more.
    expect((await app.rest('GET', `/orders/filter?email=${rider.email}`, undefined, token)).status).toBe(403);
  });

  it('an address whose Firebase account was deleted outside the shop goes to its next owner as a new account', async () => {
    const email = uniqueEmail('gone');
    const gone = await app.signUp({ email });
    await placeOrder(app, gone.token, partId, { orderAmount: 1, address: 'Old owner road' });
    await deleteFirebaseAccount(gone.idToken);
    const next = await signIn(await emulatorSignUp(email, password, 'Next Owner'));
    expect(next.data?.signIn.user.id).not.toBe(gone.userId);
    const nextToken = next.data?.signIn.token ?? '';
    expect((await app.rest<unknown[]>('GET', `/orders/filter?email=${email}`, undefined, nextToken)).body).toEqual([]);
    // The old row keeps its history for the books, without the address.
    expect(await row(gone.userId)).toMatchObject({ email: null });
  });

  it('a still-valid ID token of a Firebase account deleted or disabled since is refused, and no user is made', async () => {
    const deletedEmail = uniqueEmail('deleted');
    const deletedToken = await emulatorSignUp(deletedEmail, password);
    await deleteFirebaseAccount(deletedToken);
    const refused = await signIn(deletedToken);
    expect({ status: refused.status, message: refused.errors?.[0].message }).toEqual({
      status: 401,
      message: 'This account no longer exists',
    });

    const firebase: App = initializeApp(
      { projectId: testEnv.firebaseProjectId },
      `accounts-${randomBytes(4).toString('hex')}`,
    );
    try {
      const disabledEmail = uniqueEmail('disabled');
      const disabledToken = await emulatorSignUp(disabledEmail, password);
      await getAuth(firebase).updateUser(String(idTokenClaims(disabledToken).user_id), { disabled: true });
      const disabled = await app.rest('PUT', `/user/${disabledEmail}`, {}, disabledToken);
      expect(disabled).toEqual({ status: 401, body: { message: 'This account has been disabled' } });
      const rows = await app.server.database.db.select().from(users);
      expect(rows.filter((u) => u.email === deletedEmail || u.email === disabledEmail)).toEqual([]);
    } finally {
      await deleteApp(firebase);
    }
  });

  it("a deleted customer's orders, payments and reviews go to nobody who registers the address next", async () => {
    const email = uniqueEmail('leaver');
    const leaver = await app.signUp({ email });
    const unshipped = await placeOrder(app, leaver.token, partId, { orderAmount: 1, address: 'Leaver lane 1' });
    await payOrder(app, leaver.token, unshipped.id);
    const shipped = await placeOrder(app, leaver.token, partId, { orderAmount: 2, address: 'Leaver lane 1' });
    await payOrder(app, leaver.token, shipped.id);
    await app.gql('mutation($id: ID!) { markOrderShipped(id: $id) { id } }', { id: shipped.id }, admin.token);
    await app.gql(
      'mutation($input: ReviewInput!) { addReview(input: $input) { id } }',
      { input: { partId, text: 'Solid pads.' } },
      leaver.token,
    );
    await app.gql('mutation($id: ID!) { deleteUser(id: $id) }', { id: leaver.userId }, admin.token);

    const heir = await app.signUp({ email });
    for (const path of [`/orders/filter?email=${email}`, `/payments/filter?email=${email}`]) {
      expect({ path, body: (await app.rest('GET', path, undefined, heir.token)).body }).toEqual({ path, body: [] });
      // An admin asking by the address finds the account that holds it now, not the history.
      expect({ path, body: (await app.rest('GET', path, undefined, admin.token)).body }).toEqual({ path, body: [] });
    }
    const { db } = app.server.database;
    const kept = await db.select().from(orders).where(eq(orders.id, unshipped.id));
    expect(kept[0]).toMatchObject({ userId: null, email: '', address: 'Leaver lane 1' }); // still to be delivered
    expect((await db.select().from(orders).where(eq(orders.id, shipped.id)))[0]).toMatchObject({
      userId: null,
      email: '',
      name: '',
      phone: '',
      address: '',
    });
    const paid = await db.select().from(payments).where(eq(payments.orderId, unshipped.id));
    expect(paid[0]).toMatchObject({ userId: null, email: '' });
    const left = (await db.select().from(reviews)).filter((r) => r.text === 'Solid pads.');
    expect(left).toEqual([expect.objectContaining({ userId: null, email: '', avatar: '' })]);
    // Nothing of it on any page the heir can read.
    const everything = JSON.stringify([
      (await app.gql('{ me { id email } myOrders { items { id address } } myPayments { id } }', {}, heir.token)).data,
      (await app.rest('GET', `/user/${email}`, undefined, heir.token)).body,
    ]);
    expect(everything).not.toContain('Leaver lane');
    expect(everything).not.toContain(unshipped.id);
  });
});

describe.each(databaseKinds)('profile pictures and links (%s)', (kind) => {
  let app: TestApp;
  let rider: TestUser;
  beforeAll(async () => {
    app = await startTestApp(kind);
    rider = await app.signUp();
  });
  afterAll(() => app?.close());

  const stored = async () => (await app.server.database.db.select().from(users).where(eq(users.id, rider.userId)))[0];

  it('a javascript: or data: avatar and a javascript: LinkedIn are refused everywhere, and nothing is written', async () => {
    const before = await stored();
    const update = await app.gql(
      'mutation($input: ProfileInput!) { updateProfile(input: $input) { id } }',
      { input: { avatar: 'javascript:alert(document.cookie)' } },
      rider.token,
    );
    expect(update.errors?.[0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: { avatar: 'Provide an http(s) picture URL, or one of our /images files' },
    });
    const signIn = await app.gql(
      'mutation($t: String!, $p: ProfileInput) { signIn(idToken: $t, profile: $p) { token } }',
      {
        t: await emulatorSignIn(rider.email, rider.password),
        p: { avatar: 'data:image/svg+xml,<svg onload=alert(1)>' },
      },
    );
    expect(signIn.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const rest = await app.rest('PUT', `/user/${rider.email}`, { linkedIn: 'javascript:alert(1)' }, rider.token);
    expect(rest).toEqual({
      status: 400,
      body: { message: 'Provide an http(s) address', errors: { linkedIn: 'Provide an http(s) address' } },
    });
    expect(await stored()).toEqual(before);

    const ok = await app.gql(
      'mutation($input: ProfileInput!) { updateProfile(input: $input) { avatar } }',
      { input: { avatar: 'https://images.example.test/me.png' } },
      rider.token,
    );
    expect(ok.data).toEqual({ updateProfile: { avatar: 'https://images.example.test/me.png' } });
  });
});

describe.each(databaseKinds)('who is admin (%s)', (kind) => {
  const listed = uniqueEmail('listed');
  const listedForRest = uniqueEmail('listed-rest');
  let app: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    app = await startTestApp(kind, { adminEmails: [listed, listedForRest] });
    admin = await app.signUp({ admin: true });
  });
  afterAll(() => app?.close());

  const grant = (email: string, token: string) =>
    app.gql<{ grantAdmin: { role: string } }>(
      'mutation($e: String!) { grantAdmin(email: $e) { role } }',
      { e: email },
      token,
    );
  const revoke = (email: string, token: string) =>
    app.gql<{ revokeAdmin: { role: string } }>(
      'mutation($e: String!) { revokeAdmin(email: $e) { role } }',
      { e: email },
      token,
    );
  const roleOf = async (id: string) =>
    (await app.server.database.db.select({ role: users.role }).from(users).where(eq(users.id, id)))[0]?.role;

  it('an admin grants admin only to an account whose email is verified (GraphQL and REST: 409)', async () => {
    const unverified = await app.signUp();
    const answer = await grant(unverified.email, admin.token);
    expect({
      status: answer.status,
      code: answer.errors?.[0].extensions?.code,
      message: answer.errors?.[0].message,
    }).toEqual({
      status: 200,
      code: 'CONFLICT',
      message: 'This account has not verified its email address yet: only verified accounts can be admins',
    });
    expect((await app.rest('PUT', `/user/admin/${unverified.email}`, undefined, admin.token)).status).toBe(409);
    expect(await roleOf(unverified.userId)).toBe('customer');

    const verified = await app.signUp({ verified: true });
    expect((await grant(verified.email, admin.token)).data).toEqual({ grantAdmin: { role: 'ADMIN' } });
  });

  it('an admin revokes admin (GraphQL, and DELETE /api/user/admin/{email}); it counts on the next request', async () => {
    const other = await app.signUp({ verified: true });
    await grant(other.email, admin.token);
    expect((await app.gql('{ users { total } }', {}, other.token)).status).toBe(200);
    expect((await revoke(other.email, admin.token)).data).toEqual({ revokeAdmin: { role: 'CUSTOMER' } });
    expect((await app.gql('{ users { total } }', {}, other.token)).status).toBe(403);

    await grant(other.email, admin.token);
    const rest = await app.rest('DELETE', `/user/admin/${other.email}`, undefined, admin.token);
    expect(rest).toEqual({ status: 200, body: { acknowledged: true, matchedCount: 1, modifiedCount: 1 } });
    const again = await app.rest('DELETE', `/user/admin/${other.email}`, undefined, admin.token);
    expect(again.body).toEqual({ acknowledged: true, matchedCount: 1, modifiedCount: 0 });
    expect(await roleOf(other.userId)).toBe('customer');
  });

  it('refuses revoking your own role, a customer revoking, an unknown or malformed email', async () => {
    const own = await revoke(admin.email, admin.token);
    expect(own.errors?.[0]).toMatchObject({
      message: 'You cannot revoke your own admin role',
      extensions: { code: 'CONFLICT' },
    });
    expect((await app.rest('DELETE', `/user/admin/${admin.email}`, undefined, admin.token)).status).toBe(409);
    const customer = await app.signUp();
    expect((await revoke(admin.email, customer.token)).status).toBe(403);
    expect((await app.rest('DELETE', `/user/admin/${admin.email}`, undefined, customer.token)).status).toBe(403);
    expect((await app.rest('DELETE', `/user/admin/${admin.email}`)).status).toBe(401);
    expect((await revoke(uniqueEmail('ghost'), admin.token)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await app.rest('DELETE', '/user/admin/not-an-email', undefined, admin.token)).status).toBe(400);
    expect(await roleOf(admin.userId)).toBe('admin');
  });

  it('two admins demoting or deleting each other at once: never both, there is always an admin left', async () => {
    for (let round = 0; round < 6; round++) {
      const a = await app.signUp({ admin: true });
      const b = await app.signUp({ admin: true });
      const [first, second] = await Promise.all(
        round % 2
          ? [revoke(b.email, a.token), revoke(a.email, b.token)]
          : [
              app.gql('mutation($id: ID!) { deleteUser(id: $id) }', { id: b.userId }, a.token),
              app.rest('DELETE', `/user/${a.userId}`, undefined, b.token),
            ],
      );
      const succeeded = [first, second].filter((r) => r.status === 200 && !('errors' in r && r.errors));
      expect({ round, succeeded: succeeded.length }).toEqual({ round, succeeded: 1 });
      const loser = [first, second].find((r) => !succeeded.includes(r));
      // Refused as no longer an admin, or (a deletion that finished first) as an account that no longer exists.
      expect([403, 401]).toContain(loser?.status);
      const roles = await Promise.all([roleOf(a.userId), roleOf(b.userId)]);
      expect(roles.filter((r) => r === 'admin')).toHaveLength(1);
    }
  });

  it('the last admin can be neither demoted nor deleted, even by an admin demoted while their request ran', async () => {
    // A shop of its own with one admin, and a second one about to be demoted.
    const solo = await startTestApp(kind);
    try {
      const only = await solo.signUp({ admin: true });
      const leaving = await solo.signUp({ admin: true });
      const services = solo.server.services.users;
      const staleActor = await services.actorFor(leaving.userId, leaving.firebaseUid); // read as admin
      await services.revokeAdmin(await services.actorFor(only.userId, only.firebaseUid), leaving.email);
      // The request that read "admin" before the demotion goes on: the admins' lock finds it is not one now.
      await expect(services.deleteUser(staleActor, only.userId)).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(services.revokeAdmin(staleActor, only.email)).rejects.toMatchObject({ code: 'FORBIDDEN' });
      // The only admin cannot remove themselves either.
      const selfRevoke = await solo.gql(
        'mutation($e: String!) { revokeAdmin(email: $e) { id } }',
        { e: only.email },
        only.token,
      );
      expect(selfRevoke.errors?.[0].extensions?.code).toBe('CONFLICT');
      expect((await solo.rest('DELETE', `/user/${only.userId}`, undefined, only.token)).status).toBe(409);
      const admins = await solo.server.database.db.select().from(users).where(eq(users.role, 'admin'));
      expect(admins.map((u) => u.id)).toEqual([only.userId]);
    } finally {
      await solo.close();
    }
  });

  it('an admin demoted or deleted while their grant was on its way makes nobody admin: the grant waits for the removal', async () => {
    // An admin being removed grants admin to an accomplice at the same moment. The removal takes the admins'
    // lock first; the grant, read as an admin's request before it, must wait for it and then find its caller is
    // no admin any more, or the shop keeps an admin that the removed one made.
    const services = app.server.services.users;
    for (const removal of ['demoted', 'deleted'] as const) {
      const leaving = await app.signUp({ admin: true });
      const accomplice = await app.signUp({ verified: true });
      const staleActor = await services.actorFor(leaving.userId, leaving.firebaseUid); // read as admin
      let grant: Promise<unknown> | undefined;
      let settled = false;
      await app.server.database.db.transaction(async (tx) => {
        // What revokeAdmin and deleteUser hold until they commit: every admin's row.
        await tx.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).for('no key update');
        grant = services.grantAdmin(staleActor, accomplice.email);
        grant.then(
          () => (settled = true),
          () => (settled = true),
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
        if (removal === 'demoted') {
          await tx.update(users).set({ role: 'customer', adminSource: null }).where(eq(users.id, leaving.userId));
        } else {
          await tx.delete(users).where(eq(users.id, leaving.userId));
        }
        expect({ removal, grantFinishedBeforeTheRemoval: settled }).toEqual({
          removal,
          grantFinishedBeforeTheRemoval: false,
        });
      });
      await expect(grant).rejects.toMatchObject({ code: 'FORBIDDEN' });
      expect([removal, await roleOf(accomplice.userId)]).toEqual([removal, 'customer']);
    }
  });

  it('ADMIN_EMAILS: an unverified listed address is no admin; verified it is, and an admin cannot revoke it', async () => {
    const idToken = await emulatorSignUp(listed, password, 'Listed');
    const first = await app.gql<{ signIn: { user: { id: string; role: string } } }>(
      'mutation($t: String!) { signIn(idToken: $t) { user { id role } } }',
      { t: idToken },
    );
    expect(first.data?.signIn.user.role).toBe('CUSTOMER');
    const verified = await app.gql<{ signIn: { user: { role: string } } }>(
      'mutation($t: String!) { signIn(idToken: $t) { user { role } } }',
      { t: await emulatorVerifyEmail(listed, password) },
    );
    expect(verified.data?.signIn.user.role).toBe('ADMIN');
    const refused = await revoke(listed, admin.token);
    expect(refused.errors?.[0].message).toMatch(/is listed in ADMIN_EMAILS/);
  });

  it('ADMIN_EMAILS through the REST sign-in (PUT /api/user/{email}): unverified no admin, verified admin', async () => {
    const restSignIn = async (idToken: string) => {
      const answer = await app.rest<{ token: string }>('PUT', `/user/${listedForRest}`, {}, idToken);
      expect(answer.status).toBe(200);
      return answer.body.token;
    };
    const isAdmin = async (token: string) =>
      (await app.rest<{ admin: boolean }>('GET', `/admin/${listedForRest}`, undefined, token)).body;
    const unverified = await restSignIn(await emulatorSignUp(listedForRest, password, 'Listed Rest'));
    expect(await isAdmin(unverified)).toEqual({ admin: false });
    expect((await app.rest('GET', '/users', undefined, unverified)).status).toBe(403);
    const verified = await restSignIn(await emulatorVerifyEmail(listedForRest, password));
    expect(await isAdmin(verified)).toEqual({ admin: true });
    expect((await app.rest('GET', '/users', undefined, verified)).status).toBe(200);
  });

  it('ADMIN_EMAILS: an address taken off the list loses the role it gave at the next start or sign-in; a granted role stays', async () => {
    const { db } = app.server.database;
    const fromList = uniqueEmail('from-list');
    const granted = uniqueEmail('granted');
    const listedTwice = testConfig({ adminEmails: [fromList, granted] });
    const usersWith = (adminEmails: string[]) =>
      createUsersService({
        db,
        identity: app.server.identity,
        tokens: createAccessTokens(listedTwice.jwt),
        adminEmails,
        rateLimits: createRateLimits(listedTwice.rateLimits),
      });
    const before = usersWith([fromList, granted]);
    await emulatorSignUp(fromList, password);
    await emulatorSignUp(granted, password);
    const fromListUser = (await before.signIn(await emulatorVerifyEmail(fromList, password), {})).user;
    const grantedUser = (await before.signIn(await emulatorVerifyEmail(granted, password), {})).user;
    expect([fromListUser.role, fromListUser.adminSource]).toEqual(['admin', 'admin_emails']);
    // An admin grants the second too: its role no longer depends on the list (the role was there already).
    const admin = { userId: fromListUser.id, email: fromList, role: 'admin' as const };
    expect(await before.grantAdmin(admin, granted)).toMatchObject({
      modified: false,
      user: { adminSource: 'granted' },
    });

    // The operator takes both off the list and restarts: a server started on the same database applies the list.
    const restarted = await startServer(testConfig({ adminEmails: [] }), {
      database: { ...app.server.database, close: async () => {} }, // the suite's app goes on using it
    });
    await restarted.close();
    expect(await roleOf(fromListUser.id)).toBe('customer');
    expect(await roleOf(grantedUser.id)).toBe('admin');
    const after = usersWith([]);

    // Listed again, then taken off between two sign-ins (no restart): the sign-in takes it away.
    await before.signIn(await emulatorSignIn(fromList, password), {});
    expect(await roleOf(fromListUser.id)).toBe('admin');
    await after.signIn(await emulatorSignIn(fromList, password), {});
    expect(await roleOf(fromListUser.id)).toBe('customer');
  });
});

describe.each(databaseKinds)(
  'a sign-in whose address Firebase still gives another account of the shop (stand-in identity, %s)',
  (kind) => {
    it('is refused with 409, and neither account changes', async () => {
      const email = uniqueEmail('twice');
      const accounts = new Map<string, string>([
        ['uid-first', email],
        ['uid-second', email], // a Firebase project that allows several accounts per email
      ]);
      const identity: Identity = {
        verifyIdToken: async (token) => ({
          uid: token,
          email: accounts.get(token) ?? '',
          emailVerified: true,
          name: '',
          picture: '',
        }),
        lookupAccount: async (uid) => (accounts.has(uid) ? { email: accounts.get(uid) ?? null } : null),
        ensureAccount: async () => 'unused',
        deleteAccount: async () => {},
        close: async () => {},
      };
      const app = await startTestApp(kind, {}, { identity });
      try {
        const signIn = (idToken: string) =>
          app.gql<{ signIn: { user: { id: string } } }>(
            'mutation($t: String!) { signIn(idToken: $t) { user { id } } }',
            {
              t: idToken,
            },
          );
        const first = await signIn('uid-first');
        expect(first.errors).toBeUndefined();
        const second = await signIn('uid-second');
        expect(second.errors?.[0]).toMatchObject({ message: emailTaken, extensions: { code: 'CONFLICT' } });
        const rows = await app.server.database.db.select().from(users);
        expect(rows.map((u) => [u.firebaseUid, u.email])).toEqual([['uid-first', email]]);
      } finally {
        await app.close();
      }
    });
  },
);

describe('verifying ID tokens against real Firebase (a stand-in for firebase-admin)', () => {
  const config = testConfig().firebase;
  const production = { ...config, emulatorHost: undefined };
  const decoded = { uid: 'u1', email: 'Rider@Example.test', email_verified: true, name: 'Rider', picture: '' };

  function standIn(verify: (token: string, checkRevoked?: boolean) => Promise<unknown>) {
    const calls: [string, boolean | undefined][] = [];
    const auth = {
      verifyIdToken: async (token: string, checkRevoked?: boolean) => {
        calls.push([token, checkRevoked]);
        return verify(token, checkRevoked);
      },
    } as unknown as FirebaseAuthApi;
    return { identity: createFirebaseIdentity(production, auth), calls };
  }

  it('asks Firebase whether the token was revoked or its account disabled or deleted (checkRevoked)', async () => {
    const { identity, calls } = standIn(async () => decoded);
    await expect(identity.verifyIdToken('a-token')).resolves.toEqual({
      uid: 'u1',
      email: 'rider@example.test',
      emailVerified: true,
      name: 'Rider',
      picture: '',
    });
    expect(calls).toEqual([['a-token', true]]);
  });

  it.each([
    ['auth/id-token-revoked', 'This sign-in was revoked, please sign in again'],
    ['auth/user-disabled', 'This account has been disabled'],
    ['auth/user-not-found', 'This account no longer exists'],
    ['auth/argument-error', 'The sign-in token is not valid, please sign in again'],
  ])('a token Firebase refuses with %s is UNAUTHENTICATED: "%s"', async (code, message) => {
    const { identity } = standIn(async () => {
      throw Object.assign(new Error('refused'), { code });
    });
    await expect(identity.verifyIdToken('t')).rejects.toMatchObject({ code: 'UNAUTHENTICATED', message });
  });

  it('an unverified or missing email_verified claim counts as not verified', async () => {
    const { identity } = standIn(async () => ({ ...decoded, email_verified: undefined }));
    expect((await identity.verifyIdToken('t')).emailVerified).toBe(false);
  });

  it('Firebase out of reach is SERVICE_UNAVAILABLE, not a refusal', async () => {
    const { identity } = standIn(async () => {
      throw Object.assign(new Error('Error while making request: connect ECONNREFUSED'), { code: 'app/network-error' });
    });
    await expect(identity.verifyIdToken('t')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
