import { contactMessages } from '../../src/db/schema';
import { startTestApp, type TestApp } from '../support/testApp';

/**
 * Cross-site request forgery. A page on another site can make a browser send "simple" requests (a form
 * post: text/plain, application/x-www-form-urlencoded or multipart/form-data; a GET) without asking the
 * server first. /graphql refuses those (Apollo's csrfPrevention), so only requests a browser preflights (JSON
 * POSTs, or a GET carrying `apollo-require-preflight`) run, and CORS decides which origins may make them.
 * The REST shim holds no ambient credentials to forge: callers are identified by a bearer token a page of
 * another site cannot read or attach, and the API sets no cookies.
 */

describe('CSRF', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('pglite');
  });
  afterAll(() => app?.close());

  const messageCount = async () => (await app.server.database.db.select().from(contactMessages)).length;
  const contactMutation = {
    query: 'mutation($input: ContactInput!) { sendContactMessage(input: $input) { id } }',
    variables: { input: { firstName: 'Eve', lastName: 'Forger', email: 'eve@example.test', message: 'Forged' } },
  };
  const graphql = async (init: RequestInit & { path?: string }) => {
    const res = await fetch(`${app.url}/graphql${init.path ?? ''}`, init);
    return { status: res.status, text: await res.text() };
  };
  const blocked = { status: 400, text: expect.stringContaining('Cross-Site Request Forgery (CSRF)') };

  describe('/graphql refuses what a cross-site page could send without a preflight, and runs nothing', () => {
    it.each([
      ['text/plain', JSON.stringify(contactMutation)],
      ['application/x-www-form-urlencoded', `query=${encodeURIComponent(contactMutation.query)}`],
      [
        'multipart/form-data; boundary=x',
        `--x\r\nContent-Disposition: form-data; name="query"\r\n\r\n{ parts { total } }\r\n--x--`,
      ],
    ])('a POST with Content-Type %s', async (contentType, body) => {
      const before = await messageCount();
      expect(await graphql({ method: 'POST', headers: { 'content-type': contentType }, body })).toEqual(blocked);
      expect(await messageCount()).toBe(before);
    });

    it('a POST with no Content-Type', async () => {
      expect(await graphql({ method: 'POST', body: JSON.stringify(contactMutation) })).toEqual(blocked);
    });

    it('a GET without a preflight header', async () => {
      const path = `?query=${encodeURIComponent('{ parts { total } }')}`;
      expect(await graphql({ path, headers: { accept: 'application/json' } })).toEqual(blocked);
    });
  });

  describe('/graphql runs what only a preflighted (or same-site) request can send', () => {
    it('a JSON POST', async () => {
      const before = await messageCount();
      const result = await graphql({
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(contactMutation),
      });
      expect(result.status).toBe(200);
      expect(JSON.parse(result.text)).toEqual({ data: { sendContactMessage: { id: expect.any(String) } } });
      expect(await messageCount()).toBe(before + 1);
    });

    it('a GET query with apollo-require-preflight (a mutation is never run by GET)', async () => {
      const query = await graphql({
        path: `?query=${encodeURIComponent('{ parts { total } }')}`,
        headers: { accept: 'application/json', 'apollo-require-preflight': 'true' },
      });
      expect(query.status).toBe(200);
      expect(JSON.parse(query.text)).toEqual({ data: { parts: { total: 0 } } });

      const before = await messageCount();
      const mutation = await graphql({
        path: `?query=${encodeURIComponent(contactMutation.query)}&variables=${encodeURIComponent(JSON.stringify(contactMutation.variables))}`,
        headers: { accept: 'application/json', 'apollo-require-preflight': 'true' },
      });
      expect(mutation.status).toBe(405);
      expect(await messageCount()).toBe(before);
    });
  });

  describe('the REST shim has no ambient credentials to forge', () => {
    it('a form-style POST without a bearer token is a visitor: a write that needs a caller is refused', async () => {
      const res = await fetch(`${app.url}/api/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'partId=x&orderAmount=10',
      });
      expect(res.status).toBe(401);
    });

    it('signing in answers a token in the body and sets no cookie, on GraphQL and on REST', async () => {
      const user = await app.signUp();
      const graphqlSignIn = await fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: 'mutation($idToken: String!) { signIn(idToken: $idToken) { token } }',
          variables: { idToken: user.idToken },
        }),
      });
      expect(graphqlSignIn.status).toBe(200);
      expect(graphqlSignIn.headers.get('set-cookie')).toBeNull();
      const restSignIn = await fetch(`${app.url}/api/user/${encodeURIComponent(user.email)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${user.idToken}` },
        body: '{}',
      });
      expect(restSignIn.status).toBe(200);
      expect(restSignIn.headers.get('set-cookie')).toBeNull();
      expect(((await restSignIn.json()) as { token: string }).token).toEqual(expect.any(String));
    });
  });
});
