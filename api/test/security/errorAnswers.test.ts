import { databaseKinds } from '../support/env';
import { startTestApp, type TestApp } from '../support/testApp';

/**
 * Error answers never tell how the server is built: no stack trace, no file path, in any mode. Apollo adds
 * stack traces to GraphQL errors unless told not to whenever NODE_ENV is neither "production" nor "test",
 * so this suite runs the app as a developer would, with NODE_ENV=development.
 */

/** What would give the server away: a stack frame, a source or dependency path. */
const revealing = [
  /\bat [\w$.<>]+ \(/, // "at fn (file:line:col)"
  /\bat (file:\/\/)?\/[\w/.-]+:\d+/, // "at /path/file.js:1:2"
  /stacktrace/i,
  /node_modules/,
  /\/api\/src\//,
  /\.tsx?:\d+/,
  /\/work\/|\/home\/|\/app\//,
];

describe.each(databaseKinds)(
  'error answers carry no stack trace or path, even with NODE_ENV=development (%s)',
  (kind) => {
    let app: TestApp;
    const nodeEnv = process.env.NODE_ENV;

    beforeAll(async () => {
      process.env.NODE_ENV = 'development';
      // PostgreSQL as production runs it (DATABASE_URL), with a developer's NODE_ENV.
      app = await startTestApp(kind, kind === 'postgres' ? { mode: 'production' } : {});
    });
    afterAll(async () => {
      process.env.NODE_ENV = nodeEnv;
      await app?.close();
    });

    const raw = async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${app.url}${path}`, { method, body, headers });
      return { status: res.status, text: await res.text() };
    };

    const expectNothingRevealed = (label: string, answer: { status: number; text: string }) => {
      const found = revealing.filter((pattern) => pattern.test(answer.text)).map(String);
      expect({ label, found }).toEqual({ label, found: [] });
    };

    const json = { 'content-type': 'application/json' };

    it.each([
      ['GraphQL syntax error', 'POST', '/graphql', '{"query":"{ parts { "}', json],
      ['GraphQL unknown field', 'POST', '/graphql', '{"query":"{ nothing }"}', json],
      [
        'GraphQL variable of the wrong type',
        'POST',
        '/graphql',
        '{"query":"query($l: Int) { parts(limit: $l) { total } }","variables":{"l":"x"}}',
        json,
      ],
      ['GraphQL no query', 'POST', '/graphql', '{}', json],
      ['GraphQL malformed JSON', 'POST', '/graphql', '{"query":', json],
      ['GraphQL batch of junk', 'POST', '/graphql', '[1, "two", null]', json],
      [
        'GraphQL bad input to a mutation',
        'POST',
        '/graphql',
        '{"query":"mutation { sendContactMessage(input: { firstName: \\"\\", lastName: \\"\\", email: \\"x\\", message: \\"\\" }) { id } }"}',
        json,
      ],
      [
        'GraphQL refused token',
        'POST',
        '/graphql',
        '{"query":"{ me { id } }"}',
        { ...json, authorization: 'Bearer not-a-token' },
      ],
      [
        'GraphQL GET without the CSRF header',
        'GET',
        '/graphql?query=%7B%20parts%20%7B%20total%20%7D%20%7D',
        undefined,
        {},
      ],
      ['REST malformed JSON', 'POST', '/api/orders', '{"partId":', json],
      ['REST wrong content type', 'POST', '/api/contact', 'firstName=a', { 'content-type': 'text/plain' }],
      ['REST unknown route', 'GET', '/api/nothing/here', undefined, {}],
      ['REST malformed %-escape', 'GET', '/api/parts/%E0%A4%A', undefined, {}],
      ['REST bad id', 'GET', '/api/parts/not-an-id', undefined, {}],
      ['REST no token', 'GET', '/api/orders', undefined, {}],
      ['REST forged token', 'GET', '/api/users', undefined, { authorization: 'Bearer a.b.c' }],
      ['REST body too large', 'POST', '/api/contact', JSON.stringify({ message: 'x'.repeat(2_000_000) }), json],
      ['web app path with a malformed %-escape', 'GET', '/%E0%A4%A', undefined, {}],
    ] as [string, string, string, string | undefined, Record<string, string>][])(
      '%s',
      async (label, method, path, body, headers) => {
        expectNothingRevealed(label, await raw(method, path, body, headers));
      },
    );

    it('an unexpected error (a bug) answers "Something went wrong on our side", on GraphQL and on REST', async () => {
      const { parts } = app.server.services;
      const listParts = parts.listParts;
      parts.listParts = async () => {
        throw new TypeError("Cannot read properties of undefined (reading 'x')");
      };
      const errors: unknown[] = [];
      const consoleError = process.stderr.write;
      process.stderr.write = ((chunk: string) => errors.push(chunk) > 0) as typeof process.stderr.write;
      try {
        const graphql = await raw('POST', '/graphql', '{"query":"{ parts { total } }"}', json);
        expect(JSON.parse(graphql.text).errors[0]).toEqual({
          message: 'Something went wrong on our side',
          path: ['parts'],
          extensions: { code: 'INTERNAL_SERVER_ERROR' },
        });
        expectNothingRevealed('GraphQL bug', graphql);
        const rest = await raw('GET', '/api/parts');
        expect({ status: rest.status, body: JSON.parse(rest.text) }).toEqual({
          status: 500,
          body: { message: 'Something went wrong on our side' },
        });
      } finally {
        parts.listParts = listParts;
        process.stderr.write = consoleError;
      }
      // The details go to the log, for us.
      expect(errors.join('')).toContain("Cannot read properties of undefined (reading 'x')");
    });
  },
);
