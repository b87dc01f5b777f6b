import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/db/database';
import { startBalancedLoad } from './support/balancedLoad';
import { testEnv } from './support/env';
import { createTestDatabase } from './support/postgres';
import { freePort, freePorts } from './support/ports';
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
 * Stopping as operators and developers stop the shop: the real server process, started as the Dockerfile's
 * command starts it (which is also a direct `node` start) and as `npm start` does, stopped with SIGTERM or
 * SIGINT, idle and busy. (`docker stop` on the built image: api/test/image.docker.ts, `npm run test:image`.)
 */

const root = path.resolve(__dirname, '..', '..');
/** api/src/main.ts's grace period for requests in flight. */
const graceMs = 8_000;
/** What an idle server may take from the signal to its exit. */
const idleStopMs = 1_000;

/** The runtime stage's CMD and ENV, read from the Dockerfile (what `docker run` starts, and with what). */
function dockerfileRuntime(): { command: string[]; env: Record<string, string> } {
  const text = readFileSync(path.join(root, 'Dockerfile'), 'utf8').replace(/\\\r?\n/g, ' ');
  const runtime = text.slice(text.lastIndexOf('\nFROM '));
  const command = JSON.parse(/^CMD\s+(\[.*\])\s*$/m.exec(runtime)?.[1] ?? '[]') as string[];
  const env: Record<string, string> = {};
  for (const [, line] of runtime.matchAll(/^ENV\s+(.*)$/gm))
    for (const [, key, value] of line.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[key] = value.replace(/^"|"$/g, '');
  return { command, env };
}

/**
 * The environment of a process started by hand: the test run's, less what jest sets. NODE_ENV=test would hide
 * bugs (Apollo, for one, installs its own signal handlers unless NODE_ENV is test).
 */
function handEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', ...settings };
  delete env.NODE_ENV;
  delete env.JEST_WORKER_ID;
  return env;
}

const answers = (url: string) =>
  fetch(url).then(
    () => true,
    () => false,
  );

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

let migratedPglite: string | undefined;

/**
 * A new data directory holding the shop's database, migrated and stopped cleanly, as a shop's second start finds
 * it. These tests are about stopping: a start on an empty directory would run PGlite's initdb in each of them
 * (some 6-10 s of CPU a start, seven or eight starts here). The first start on an empty directory is
 * start.test.ts's (`npm start` as a newcomer runs it) and faults.test.ts's. The database is made once, by the
 * app's own `openDatabase` (what a server's first start runs), and copied.
 */
async function migratedDataDir(prefix: string): Promise<string> {
  if (!migratedPglite) {
    const made = mkdtempSync(path.join(os.tmpdir(), 'partsyard-migrated-'));
    cleanups.push(() => rmSync(made, { recursive: true, force: true }));
    const database = await openDatabase({ kind: 'pglite', dataDir: path.join(made, 'pg') });
    await database.close();
    migratedPglite = path.join(made, 'pg');
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  cpSync(migratedPglite, path.join(dataDir, 'pg'), { recursive: true });
  return dataDir;
}

/** Kills what a test left running (a failed assertion must not leave a server behind). */
function cleanupProcess(started: Started, group = false) {
  cleanups.push(async () => {
    if (started.child.exitCode !== null || started.child.signalCode !== null) return;
    try {
      if (group && started.child.pid) process.kill(-started.child.pid, 'SIGKILL');
      else started.child.kill('SIGKILL');
    } catch {
      // already gone
    }
    await started.exited;
  });
}

describe('the server started as the Dockerfile’s command (a direct `node` start)', () => {
  const runtime = dockerfileRuntime();
  const [command, ...args] = runtime.command;

  it('is `node --max-semi-space-size=16 --import tsx api/src/main.ts` with NODE_ENV=production: one process, no wrapper relaying signals', () => {
    expect([command, ...args]).toEqual(['node', '--max-semi-space-size=16', '--import', 'tsx', 'api/src/main.ts']);
    expect(runtime.env.NODE_ENV).toBe('production');
  });

  /**
   * An embedded server on a PGlite directory of its own (migratedDataDir; the emulator is the test run's), with
   * the Dockerfile's ENV or with none (a developer's direct `node` start).
   */
  async function startIdle(dockerEnv: boolean) {
    const dataDir = await migratedDataDir('partsyard-stop-');
    const port = await freePort();
    const server = startProcess(process.execPath, args, {
      cwd: root,
      env: handEnv({
        ...(dockerEnv ? runtime.env : {}),
        DATABASE_URL: '',
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        FIREBASE_AUTH_EMULATOR_HOST: testEnv.authEmulatorHost,
        FIREBASE_PROJECT_ID: testEnv.firebaseProjectId,
        SEED_DEMO: 'false',
      }),
    });
    cleanupProcess(server);
    await waitUntilReady(`http://127.0.0.1:${port}/readyz`, server);
    return { server, base: `http://127.0.0.1:${port}` };
  }

  for (const [signal, dockerEnv] of [
    ['SIGTERM', true],
    ['SIGINT', false],
  ] as const) {
    const how = dockerEnv ? 'with the Dockerfile’s ENV' : 'started by hand (no NODE_ENV)';
    it(`idle, ${how}: exits 0 within ${idleStopMs} ms of ${signal}, logging "stopped" once`, async () => {
      const { server } = await startIdle(dockerEnv);
      const sentAt = Date.now();
      server.child.kill(signal);
      const exit = await server.exited;
      const took = exit.at - sentAt;
      console.log(`idle direct node start ${how}: exited ${took} ms after ${signal}`);
      expect({ code: exit.code, signal: exit.signal, stopped: server.logLines('stopped') }).toEqual({
        code: 0,
        signal: null,
        stopped: 1,
      });
      expect(server.logLines(`${signal}: finishing requests in flight, then stopping`)).toBe(1);
      expect(took).toBeLessThan(idleStopMs);
    });
  }

  /**
   * A server under the Dockerfile's command and ENV, on a fresh PostgreSQL database with production settings or
   * a PGlite directory of its own (migratedDataDir), plus `settings`; ready when it resolves.
   */
  async function startBusy(postgres: boolean, settings: Record<string, string> = {}) {
    const port = await freePort();
    let env: NodeJS.ProcessEnv = handEnv({
      ...runtime.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      FIREBASE_AUTH_EMULATOR_HOST: testEnv.authEmulatorHost,
      FIREBASE_PROJECT_ID: testEnv.firebaseProjectId,
      SEED_DEMO: 'false',
      LOG_REQUESTS: 'false',
      ...settings,
    });
    if (postgres) {
      const database = await createTestDatabase();
      cleanups.push(database.drop);
      env = {
        ...env,
        DATABASE_URL: database.url,
        JWT_SECRET: randomBytes(32).toString('hex'),
        // Production mode with an emulator must say so (issue 10).
        ALLOW_AUTH_EMULATOR: 'true',
      };
    } else {
      env = { ...env, DATABASE_URL: '', DATA_DIR: await migratedDataDir('partsyard-stop-') };
    }
    const server = startProcess(process.execPath, args, { cwd: root, env });
    cleanupProcess(server);
    const base = `http://127.0.0.1:${port}`;
    await waitUntilReady(`${base}/readyz`, server);
    return { server, base };
  }

  it(`busy${testEnv.postgresUrl ? ' (production settings, PostgreSQL)' : ' (PGlite)'}: SIGTERM under GraphQL and REST load answers every accepted request, no 5xx, exit 0 within the grace period`, async () => {
    const { server, base } = await startBusy(Boolean(testEnv.postgresUrl));
    const token = await signUpAndIn(base, testEnv.authEmulatorHost, uniqueEmail('stop'));

    const load = startLoad(base, { token });
    await load.slowRequestInFlight;
    await new Promise((r) => setTimeout(r, 300));
    const sentAt = Date.now();
    load.signalled();
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    const report = await load.finish();
    console.log(`busy direct node start: exited ${exit.at - sentAt} ms after SIGTERM; ${describeLoad(report)}`);

    expect(report.serverErrors).toEqual([]);
    expect(report.acceptedButLost).toEqual([]);
    expect(report.answeredAfterSignal).toBeGreaterThan(0);
    expect(report.keptAliveAfterSignal).toBe(0);
    expect({ code: exit.code, stopped: server.logLines('stopped') }).toEqual({ code: 0, stopped: 1 });
    expect(exit.at - sentAt).toBeLessThan(graceMs);
  });

  /**
   * SHUTDOWN_DELAY (issue 32, point 8): behind a load balancer, a replica told to stop keeps answering until the
   * balancer has seen /readyz fail and stopped sending; without it, connections opened in that moment were refused
   * or reset (15 of about 600 in a 16-client run).
   */
  describe('SIGTERM with SHUTDOWN_DELAY=1s, to traffic as a load balancer sends it', () => {
    const delayMs = 1_000;
    const setups = [
      { label: 'one process (PGlite)', postgres: false, workers: '1' },
      ...(testEnv.postgresUrl ? [{ label: 'WORKERS=2 (PostgreSQL)', postgres: true, workers: '2' }] : []),
    ];
    for (const { label, postgres, workers } of setups)
      it(`${label}: /readyz fails at once; clients that stop once it has fail see no refusal and no reset, and are told Connection: close; exit 0 after the delay`, async () => {
        const { server, base } = await startBusy(postgres, { SHUTDOWN_DELAY: '1s', WORKERS: workers });
        const load = startBalancedLoad(base, { clients: 4, probeMs: 100, reactionMs: 300 });
        await new Promise((r) => setTimeout(r, 500));
        const sentAt = Date.now();
        server.child.kill('SIGTERM');
        const report = await load.finish();
        const exit = await server.exited;
        const answeredBefore = report.outcomes.filter((o) => o.sentAt < sentAt && o.status === 200).length;
        console.log(
          `SHUTDOWN_DELAY=1s, ${label}: ${report.outcomes.length} requests (${answeredBefore} before SIGTERM), ` +
            `${report.sentAfterNotReady.length} sent after /readyz failed ${(report.notReadyAt ?? NaN) - sentAt} ms ` +
            `after SIGTERM (it saw ${report.probeSaw}); lost: ${JSON.stringify(report.lost.slice(0, 5))}; ` +
            `exited ${exit.at - sentAt} ms after SIGTERM`,
        );

        expect(report.probeSaw).toBe(503);
        expect(report.lost).toEqual([]);
        expect(report.outcomes.filter((o) => o.status !== 200)).toEqual([]);
        // The balancer's reaction time fell inside the delay: those requests were accepted and answered, each
        // telling the client to close its connection.
        expect(report.sentAfterNotReady.length).toBeGreaterThan(0);
        expect(report.sentAfterNotReady.filter((o) => o.connection !== 'close')).toEqual([]);
        expect(exit.code).toBe(0);
        expect(exit.at - sentAt).toBeGreaterThanOrEqual(delayMs);
        expect(exit.at - sentAt).toBeLessThan(delayMs + graceMs);
      });
  });
});

describe('`npm start` (the launcher, the auth emulator, the API)', () => {
  interface Shop {
    npm: Started;
    base: string;
    authHost: string;
    ports: { app: number; auth: number; hub: number; logging: number };
    dataDir: string;
  }

  /**
   * `npm start` without its prestart build (the web app is built once by `npm test`): `--ignore-scripts`
   * skips only the pre/post scripts. Its own process group, as a terminal gives it, so a Ctrl-C can be sent.
   */
  async function startShop(): Promise<Shop> {
    const dataDir = await migratedDataDir('partsyard-npmstart-');
    const [app, auth, hub, logging] = await freePorts(4);
    const ports = { app, auth, hub, logging };
    const npm = startProcess('npm', ['start', '--ignore-scripts', '--silent'], {
      cwd: root,
      detached: true,
      env: handEnv({
        FIREBASE_AUTH_EMULATOR_HOST: '',
        // A project of its own: emulators of one project share a hub locator file (another `npm start`).
        FIREBASE_PROJECT_ID: `demo-partsyard-stop-${process.pid}`,
        DATABASE_URL: '',
        SEED_DEMO: 'false',
        PORT: String(ports.app),
        DATA_DIR: dataDir,
        AUTH_EMULATOR_PORT: String(ports.auth),
        AUTH_EMULATOR_HUB_PORT: String(ports.hub),
        AUTH_EMULATOR_LOGGING_PORT: String(ports.logging),
      }),
    });
    cleanupProcess(npm, true);
    const base = `http://127.0.0.1:${ports.app}`;
    await waitUntilReady(`${base}/readyz`, npm, 180_000);
    return { npm, base, authHost: `127.0.0.1:${ports.auth}`, ports, dataDir };
  }

  /** The processes of the shop: the launcher (npm's child), the API (the launcher's child), the emulator. */
  function processesOf(shop: Shop) {
    const childrenOf = (pid: number) =>
      readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    const commandOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    const launcher = childrenOf(shop.npm.child.pid as number).find((pid) =>
      commandOf(pid).includes('scripts/start.mjs'),
    );
    const children = launcher ? childrenOf(launcher) : [];
    const api = children.find((pid) => commandOf(pid).includes('api/src/main.ts'));
    return {
      launcher,
      api,
      apiCommand: api ? commandOf(api).trim() : undefined,
      emulator: children.find((pid) => commandOf(pid).includes('emulators:start')),
    };
  }

  it('runs the API as `node --import tsx` under the launcher, no tsx CLI between them', async () => {
    const scripts = (
      JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    // `exec`: npm's shell is replaced by the launcher, so the signals npm passes on reach it.
    expect(scripts.start).toBe('exec node scripts/start.mjs');
    expect(scripts.prestart).toBe('npm run build');
  });

  it('busy: SIGTERM to npm (as a supervisor sends it) answers every accepted request, no 5xx; npm, the API and the emulator exit 0', async () => {
    const shop = await startShop();
    const { api, apiCommand, emulator } = processesOf(shop);
    expect(api).toBeDefined();
    expect(emulator).toBeDefined();
    // The launcher's child is the server itself (node with tsx as a loader), not tsx's CLI relaying to a child.
    expect(apiCommand).toMatch(
      /^\S*node\S* --require \S+\/scripts\/exit-with-parent\.cjs --import tsx api\/src\/main\.ts$/,
    );
    const token = await signUpAndIn(shop.base, shop.authHost, uniqueEmail('npmstop'));

    const load = startLoad(shop.base, { token });
    await load.slowRequestInFlight;
    await new Promise((r) => setTimeout(r, 300));
    const sentAt = Date.now();
    load.signalled();
    shop.npm.child.kill('SIGTERM');
    const apiGone = waitFor(() => !alive(api), graceMs).then(() => Date.now());
    const exit = await shop.npm.exited;
    const report = await load.finish();
    console.log(
      `busy npm start: the API exited ${(await apiGone) - sentAt} ms and npm ${exit.at - sentAt} ms after SIGTERM; ${describeLoad(report)}`,
    );

    expect(report.serverErrors).toEqual([]);
    expect(report.acceptedButLost).toEqual([]);
    expect(report.answeredAfterSignal).toBeGreaterThan(0);
    expect({ code: exit.code, stopped: shop.npm.logLines('stopped') }).toEqual({ code: 0, stopped: 1 });
    expect(shop.npm.logLines('SIGTERM: finishing requests in flight, then stopping')).toBe(1);
    expect((await apiGone) - sentAt).toBeLessThan(graceMs);
    expect(alive(emulator)).toBe(false);
    expect(await answers(`http://${shop.authHost}/`)).toBe(false);
  });

  it(`idle: Ctrl-C (SIGINT to the process group) stops the API within ${idleStopMs} ms, then the emulator, which keeps its accounts`, async () => {
    const shop = await startShop();
    const email = uniqueEmail('kept');
    await signUpAndIn(shop.base, shop.authHost, email);
    const { api, emulator } = processesOf(shop);

    const sentAt = Date.now();
    process.kill(-(shop.npm.child.pid as number), 'SIGINT');
    expect(await waitFor(() => !alive(api), 5_000)).toBe(true);
    const apiTook = Date.now() - sentAt;
    const exit = await shop.npm.exited;
    console.log(`idle npm start, Ctrl-C: the API exited within ${apiTook} ms, npm after ${exit.at - sentAt} ms`);
    expect(apiTook).toBeLessThan(idleStopMs);
    expect({ code: exit.code, stopped: shop.npm.logLines('stopped') }).toEqual({ code: 0, stopped: 1 });
    expect(alive(emulator)).toBe(false);

    // The emulator exported its accounts on the way out (one clean stop, not a second signal's forced exit):
    // the next start imports them.
    const accounts = readFileSync(path.join(shop.dataDir, 'auth', 'auth_export', 'accounts.json'), 'utf8');
    expect((JSON.parse(accounts) as { users: { email: string }[] }).users.map((u) => u.email)).toContain(email);
  });

  it(`idle: SIGTERM to the listening process itself stops it within ${idleStopMs} ms; the launcher then stops the emulator and exits 0`, async () => {
    const shop = await startShop();
    const { api, emulator } = processesOf(shop);
    const sentAt = Date.now();
    process.kill(api as number, 'SIGTERM');
    expect(await waitFor(() => !alive(api), 5_000)).toBe(true);
    const apiTook = Date.now() - sentAt;
    const exit = await shop.npm.exited;
    console.log(`idle npm start, SIGTERM to the API: it exited within ${apiTook} ms, npm after ${exit.at - sentAt} ms`);
    expect(apiTook).toBeLessThan(idleStopMs);
    expect({ code: exit.code, stopped: shop.npm.logLines('stopped') }).toEqual({ code: 0, stopped: 1 });
    expect(alive(emulator)).toBe(false);
  });

  it('the launcher killed with SIGKILL leaves neither the API nor the emulator behind', async () => {
    const shop = await startShop();
    const { launcher, api, emulator } = processesOf(shop);
    expect([launcher, api, emulator].every(Boolean)).toBe(true);

    process.kill(launcher as number, 'SIGKILL');
    expect(await waitFor(() => !alive(api) && !alive(emulator), 20_000)).toBe(true);
    expect(await answers(`${shop.base}/healthz`)).toBe(false);
    expect(await answers(`http://${shop.authHost}/`)).toBe(false);
    // The API still stopped cleanly (its parent's pipe closed: it asked itself to stop).
    expect(shop.npm.logLines('stopped')).toBe(1);
    await shop.npm.exited;
  });

  it('a start that finds a stale emulator of ours says so, with the command that stops it', async () => {
    const [auth, hub, logging, app] = await freePorts(4);
    // An emulator left behind as older versions left them: its launcher gone, nothing watching it.
    const maker = spawn(
      process.execPath,
      [
        '-e',
        `require('./scripts/auth-emulator.cjs').startAuthEmulator({ port: ${auth}, hubPort: ${hub}, loggingPort: ${logging}, quiet: true, exitWithParent: false })` +
          '.then((e) => { console.log(e.pid); process.exit(0); }, (e) => { console.error(e); process.exit(1); })',
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: handEnv({}) },
    );
    let printed = '';
    maker.stdout?.on('data', (d) => (printed += d));
    await new Promise((resolve) => maker.once('exit', resolve));
    const stale = Number(printed.trim());
    cleanups.push(() => {
      if (alive(stale)) process.kill(stale, 'SIGKILL');
    });
    expect(alive(stale)).toBe(true);

    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'partsyard-npmstart-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const launcher = startProcess(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env: handEnv({
        FIREBASE_AUTH_EMULATOR_HOST: '',
        DATABASE_URL: '',
        PORT: String(app),
        DATA_DIR: dataDir,
        AUTH_EMULATOR_PORT: String(auth),
        AUTH_EMULATOR_HUB_PORT: String(hub),
        AUTH_EMULATOR_LOGGING_PORT: String(logging),
      }),
    });
    cleanupProcess(launcher);
    const exit = await launcher.exited;
    expect(exit.code).toBe(1);
    expect(launcher.output()).toContain(
      `Port ${auth} is held by a stale PartsYard auth emulator (pid ${stale}): the start that launched it is gone. ` +
        `Stop it with \`kill ${stale}\``,
    );

    // And the command it names does stop it.
    process.kill(stale, 'SIGTERM');
    expect(await waitFor(() => !alive(stale), 20_000)).toBe(true);
  });
});
