import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { testEnv } from './support/env';
import { createTestDatabase } from './support/postgres';
import { freePort } from './support/ports';
import {
  alive,
  describeLoad,
  signUpAndIn,
  startLoad,
  startProcess,
  waitFor,
  waitUntilReady,
  type Started,
} from './support/stopUnderLoad';
import { uniqueEmail } from './support/testApp';

/**
 * WORKERS (api/src/cluster.ts): the server as several processes on one port, started as the image starts it
 * (`node --import tsx api/src/main.ts`), on PostgreSQL. The workers answer together, /metrics counts all of
 * them whichever answers the scrape, a worker that dies is replaced (unless it dies as it starts: then the
 * whole server stops with exit 1), SIGTERM stops them all without losing a request, and workers whose primary
 * is killed stop by themselves.
 */

const describeOnPostgres = testEnv.postgresUrl ? describe : describe.skip;
const title = testEnv.postgresUrl
  ? 'WORKERS=2 on PostgreSQL'
  : 'WORKERS=2 on PostgreSQL (SKIPPED: set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test; .ci/run does)';

const root = path.resolve(__dirname, '..', '..');
const metricsToken = randomBytes(16).toString('hex');

/** The processes whose parent is `pid` and that run the server (a worker), by pid. */
function workersOf(pid: number | undefined): number[] {
  if (!pid) return [];
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || Number(fields[1]) !== pid) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('api/src/main.ts')) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found.sort((a, b) => a - b);
}

/** One GET on a connection of its own (`Connection: close`): the primary hands each to the next worker. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { connection: 'close', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A fresh test database's URL (dropped after the run). */
async function databaseUrl(): Promise<string> {
  const database = await createTestDatabase();
  cleanups.push(database.drop);
  return database.url;
}

/** `node --import tsx api/src/main.ts` with WORKERS=2 on `url`, as the image starts it. */
async function startProcessOn(
  url: string,
  settings: Record<string, string> = {},
): Promise<{ server: Started; base: string }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_OPTIONS: '',
    DATABASE_URL: url,
    JWT_SECRET: randomBytes(32).toString('hex'),
    FIREBASE_AUTH_EMULATOR_HOST: testEnv.authEmulatorHost,
    FIREBASE_PROJECT_ID: testEnv.firebaseProjectId,
    ALLOW_AUTH_EMULATOR: 'true',
    SEED_DEMO: 'false',
    LOG_REQUESTS: 'false',
    METRICS_TOKEN: metricsToken,
    WORKERS: '2',
    PORT: String(port),
    HOST: '127.0.0.1',
    ...settings,
  };
  delete env.NODE_ENV;
  delete env.JEST_WORKER_ID;
  const server = startProcess(process.execPath, ['--import', 'tsx', 'api/src/main.ts'], { cwd: root, env });
  cleanups.push(async () => {
    const workers = workersOf(server.child.pid);
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    for (const pid of workers) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await server.exited;
  });
  return { server, base: `http://127.0.0.1:${port}` };
}

/** A server of two workers on a fresh database, once both are ready. */
async function startCluster(
  settings: Record<string, string> = {},
): Promise<{ server: Started; base: string; readyAt: number }> {
  const { server, base } = await startProcessOn(await databaseUrl(), settings);
  await waitUntilReady(`${base}/readyz`, server);
  expect(await waitFor(() => server.logLines('all 2 workers are ready') === 1, 60_000)).toBe(true);
  return { server, base, readyAt: Date.now() };
}

describeOnPostgres(title, () => {
  jest.setTimeout(120_000);

  it('two workers answer on one port; /metrics counts both, whichever answers; one that dies is replaced; SIGTERM under load loses no request', async () => {
    const { server, base, readyAt } = await startCluster();
    const first = workersOf(server.child.pid);
    expect(first).toHaveLength(2);

    // 40 requests, each on a connection of its own: the primary deals them out in turn.
    for (let i = 0; i < 40; i++) expect((await get(`${base}/healthz`)).status).toBe(200);
    const counted: number[] = [];
    for (let i = 0; i < 4; i++) {
      const scrape = await get(`${base}/metrics`, { authorization: `Bearer ${metricsToken}` });
      expect(scrape.status).toBe(200);
      const line = /^partsyard_http_requests_total\{method="GET",route="\/healthz",status="200"\} (\d+)$/m.exec(
        scrape.body,
      );
      counted.push(Number(line?.[1]));
    }
    // Each worker answered about half; every scrape, from either, sees all 40.
    expect(counted).toEqual([40, 40, 40, 40]);

    // A worker that has been listening a while (10 s: api/src/cluster.ts) and dies is replaced; the other answers meanwhile (once the primary
    // knows: a connection it handed to the worker as it was killed dies with it, as with any killed process).
    await new Promise((r) => setTimeout(r, Math.max(0, readyAt + 10_500 - Date.now())));
    process.kill(first[0], 'SIGKILL');
    expect(await waitFor(() => server.logLines('a worker exited') === 1, 10_000)).toBe(true);
    for (let i = 0; i < 10; i++) expect((await get(`${base}/readyz`)).status).toBe(200);
    expect(await waitFor(() => workersOf(server.child.pid).length === 2, 60_000)).toBe(true);
    const second = workersOf(server.child.pid);
    expect(second).toContain(first[1]);
    expect(second).not.toContain(first[0]);
    expect(await waitFor(() => server.logLines('all 2 workers are ready') === 2, 60_000)).toBe(true);
    expect(server.logLines('a worker exited')).toBe(1);

    // SIGTERM to the primary: both workers finish what they accepted, then everything exits 0.
    const token = await signUpAndIn(base, testEnv.authEmulatorHost, uniqueEmail('workers'));
    const load = startLoad(base, { token });
    await load.slowRequestInFlight;
    await new Promise((r) => setTimeout(r, 300));
    load.signalled();
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    const report = await load.finish();
    console.log(`WORKERS=2 stopped under load: ${describeLoad(report)}`);
    expect(report.serverErrors).toEqual([]);
    expect(report.acceptedButLost).toEqual([]);
    expect(report.answeredAfterSignal).toBeGreaterThan(0);
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
    expect(server.logLines('SIGTERM: finishing requests in flight, then stopping')).toBe(2);
    expect(server.logLines('stopped')).toBe(2); // each worker's
    expect(server.logLines('all workers stopped')).toBe(1); // then the primary's
    expect(second.filter(alive)).toEqual([]);
  });

  it('each worker runs with WORKER_HEAP_LIMIT as its V8 old-generation limit (issue 32, point 13)', async () => {
    const { server } = await startCluster({ WORKER_HEAP_LIMIT: '200' });
    const workers = workersOf(server.child.pid);
    expect(workers).toHaveLength(2);
    for (const pid of workers)
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain('--max-old-space-size=200');
    expect(readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8')).not.toContain('--max-old-space-size');
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  });

  it('a worker that cannot start (its database is not there) stops the server with exit 1, no loop of restarts', async () => {
    const missing = new URL(testEnv.postgresUrl as string);
    missing.pathname = `/partsyard_not_there_${randomBytes(4).toString('hex')}`;
    const { server } = await startProcessOn(missing.toString());
    const exit = await server.exited;
    expect(exit.code).toBe(1);
    expect(server.logLines('a worker exited')).toBe(1);
    expect(server.logLines('all 2 workers are ready')).toBe(0);
  });

  it('a worker that dies soon after it listened stops the server with exit 1 (no loop of restarts)', async () => {
    const { server } = await startCluster();
    const workers = workersOf(server.child.pid);
    process.kill(workers[workers.length - 1], 'SIGKILL'); // the one forked last, listening for a moment only
    const exit = await server.exited;
    expect(exit.code).toBe(1);
    expect(server.logLines('a worker exited')).toBe(1);
    expect(await waitFor(() => workers.every((pid) => !alive(pid)), 15_000)).toBe(true);
  });

  it('SIGTERM while the second worker is still starting: exit 0 (the worker stopped as asked)', async () => {
    const { server, base } = await startProcessOn(await databaseUrl());
    await waitUntilReady(`${base}/readyz`, server); // the first worker listens; the second starts now
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
    expect(server.logLines('all workers stopped')).toBe(1);
  });

  it('workers whose primary is killed stop by themselves, and free the port', async () => {
    const { server, base } = await startCluster();
    const workers = workersOf(server.child.pid);
    server.child.kill('SIGKILL');
    await server.exited;
    expect(await waitFor(() => workers.every((pid) => !alive(pid)), 15_000)).toBe(true);
    await expect(get(`${base}/healthz`)).rejects.toThrow();
  });
});
