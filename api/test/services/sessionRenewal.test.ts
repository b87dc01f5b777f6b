import { randomBytes } from 'node:crypto';
import { deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import jwt from 'jsonwebtoken';
import { databaseKinds, testEnv } from '../support/env';
import { emulatorRequest, emulatorSignIn, startTestApp, type TestApp, type TestUser } from '../support/testApp';

/**
 * Issue 32, point 11 (docs/security.md, "Identity"): access tokens live minutes, and the web renews them with the
 * Firebase ID token it holds. A renewal asks Firebase about the account, so a Firebase account deleted or
 * disabled outside the shop loses access once its access token runs out: within JWT_EXPIRES_IN, here 2 s.
 */

const lifeSeconds = 2;
const meQuery = '{ me { id name } }';
type Me = { me: { id: string; name: string } };
type SignedIn = { signIn: { token: string; user: { id: string; name: string } } };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(databaseKinds)('a session renewed from the Firebase ID token (%s)', (kind) => {
  let app: TestApp;
  let firebase: App;

  beforeAll(async () => {
    app = await startTestApp(kind, { jwt: { secret: randomBytes(32).toString('hex'), expiresInSeconds: lifeSeconds } });
    firebase = initializeApp({ projectId: testEnv.firebaseProjectId }, `renewal-${randomBytes(4).toString('hex')}`);
  });
  afterAll(async () => {
    await deleteApp(firebase);
    await app?.close();
  });

  /** A renewal as the web sends it: the ID token alone, no profile. */
  const renew = (idToken: string) =>
    app.gql<SignedIn>('mutation($idToken: String!) { signIn(idToken: $idToken) { token user { id name } } }', {
      idToken,
    });
  const me = (token: string) => app.gql<Me>(meQuery, {}, token);

  /** Waits until the access token's `exp` has passed (a token is refused from its `exp` second on). */
  async function outlive(token: string) {
    const { exp, iat } = jwt.decode(token) as jwt.JwtPayload;
    expect((exp ?? 0) - (iat ?? 0)).toBe(lifeSeconds);
    await sleep(Math.max(0, (exp ?? 0) * 1000 - Date.now()) + 50);
  }

  it('a renewal gives the same user a new access token, through GraphQL and REST, and keeps the profile the shop holds', async () => {
    const rider: TestUser = await app.signUp({ name: 'Firebase Name' });
    await app.gql('mutation { updateProfile(input: { name: "Name Set In The Shop" }) { id } }', {}, rider.token);

    const renewed = await renew(await emulatorSignIn(rider.email, rider.password));
    expect(renewed.data?.signIn.user).toEqual({ id: rider.userId, name: 'Name Set In The Shop' });
    const viaRest = await app.rest<{ token: string }>('PUT', `/user/${rider.email}`, {}, rider.idToken);
    expect(viaRest.status).toBe(200);

    await outlive(viaRest.body.token);
    expect((await me(rider.token)).status).toBe(401);
    const again = await renew(rider.idToken);
    expect((await me(again.data?.signIn.token ?? '')).data?.me).toEqual({
      id: rider.userId,
      name: 'Name Set In The Shop',
    });
  });

  it.each([
    [
      'deleted',
      (user: TestUser) => emulatorRequest('delete', { idToken: user.idToken }),
      'This account no longer exists',
    ],
    [
      'disabled',
      (user: TestUser) => getAuth(firebase).updateUser(user.firebaseUid, { disabled: true }),
      'This account has been disabled',
    ],
  ])(
    'once the Firebase account is %s, renewal is refused and its access token stops working within JWT_EXPIRES_IN',
    async (_label, act, message) => {
      const rider = await app.signUp();
      await act(rider);
      // The access token is a bearer token: it is not asked about at Firebase, and holds until its expiry.
      expect((await me(rider.token)).data?.me.id).toBe(rider.userId);

      // The ID token in hand is still within its hour, but a renewal asks Firebase about the account.
      const refused = await renew(rider.idToken);
      expect({ status: refused.status, message: refused.errors?.[0].message }).toEqual({ status: 401, message });
      const refusedRest = await app.rest('PUT', `/user/${rider.email}`, {}, rider.idToken);
      expect(refusedRest).toEqual({ status: 401, body: { message } });
      // Nor can the account get a new ID token.
      await expect(emulatorSignIn(rider.email, rider.password)).rejects.toThrow(/USER_DISABLED|EMAIL_NOT_FOUND/);

      await outlive(rider.token);
      const expired = await me(rider.token);
      expect({ status: expired.status, code: expired.errors?.[0].extensions?.code }).toEqual({
        status: 401,
        code: 'UNAUTHENTICATED',
      });
      expect((await app.rest('GET', `/user/${rider.email}`, undefined, rider.token)).status).toBe(401);
    },
  );
});
