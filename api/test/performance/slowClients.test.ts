import { connect, type Socket } from 'node:net';
import { startCountingApp, type CountingApp } from './countingApp';

/**
 * Slow clients (issue 12): a request whose body never finishes is no write, so it does not turn the public
 * answer cache off; and a client that takes too long over its headers or its body is cut at the configured
 * timeout (here 1 s and 2 s; the defaults are 10 s and 30 s, README "Settings").
 */

const timeouts = { headersTimeoutMs: 1000, requestTimeoutMs: 2000, keepAliveTimeoutMs: 1000 };
const query = '{ clientSettings { demoMode } }';

describe('slow clients', () => {
  let app: CountingApp;
  const open: Socket[] = [];

  beforeAll(async () => {
    app = await startCountingApp('pglite', { http: timeouts });
  });
  afterAll(async () => {
    for (const socket of open) socket.destroy();
    await app?.close();
  });

  /** A connection that has sent `text` and then nothing more; resolves with what it got once it is closed. */
  const stall = async (text: string) => {
    const socket = connect(app.server.port, '127.0.0.1');
    open.push(socket);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    const opened = Date.now();
    let received = '';
    socket.on('data', (d) => (received += String(d)));
    socket.on('error', () => {});
    const closed = new Promise<{ afterMs: number; received: string }>((resolve) =>
      socket.once('close', () => resolve({ afterMs: Date.now() - opened, received })),
    );
    socket.write(text);
    return { socket, closed };
  };
  const unfinishedPost = (path: string) =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":"slo`;

  it('an unfinished POST body, to a route, to none or to /graphql, does not turn off the public answer cache', async () => {
    const first = await app.gql(query);
    expect(first.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=60');
    const stalled = [
      await stall(unfinishedPost('/api/parts')),
      await stall(unfinishedPost('/api/no-such-route')),
      await stall(unfinishedPost('/graphql')),
    ];
    await new Promise((r) => setTimeout(r, 100)); // the server has read the headers and the start of the bodies
    const second = await app.gql(query);
    expect(second.headers.get('age')).toMatch(/^\d+$/); // answered from memory
    expect(app.statements()).toEqual([]);
    for (const { socket } of stalled) socket.destroy();
  });

  it('a client that never finishes its headers is cut at the headers timeout', async () => {
    const { closed } = await stall('GET /api/parts HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    const { afterMs } = await closed;
    expect(afterMs).toBeGreaterThanOrEqual(900);
    expect(afterMs).toBeLessThan(1000 + 1500);
  });

  it('a client that never finishes its body is answered 408 and cut at the request timeout', async () => {
    // /graphql reads every body; a protected REST route answers a stranger 401 before reading one (rights.test.ts)
    const { closed } = await stall(unfinishedPost('/graphql'));
    const { afterMs, received } = await closed;
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    expect(afterMs).toBeGreaterThanOrEqual(1900);
    expect(afterMs).toBeLessThan(2000 + 1500);
  });
});
