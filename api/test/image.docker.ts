import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testEnv } from './support/env';
import { createTestDatabase } from './support/postgres';
import { freePort } from './support/ports';
import { describeLoad, startLoad } from './support/stopUnderLoad';
import { emulatorSignIn, emulatorSignUp, emulatorVerifyEmail, uniqueEmail } from './support/testApp';

/**
 * `npm run test:image` (jest.image.config.js; .ci/run runs it after `npm test`): the production image built by
 * Docker from a clean clone of HEAD, then run as a user runs it: on a fresh PostgreSQL database, with the
 * test run's Auth emulator, `--network host`. It answers /healthz, the web app, GraphQL; a customer signs in
 * through the emulator, orders and pays with the test gateway and reads the order over REST; `docker stop`
 * under load answers every accepted request and exits 0; an idle container stops at once. It reports the
 * image's size (the app's layers: at most 120 MB) and the times; WRITE_PERFORMANCE_DOCS=1 writes them to
 * docs/performance.md.
 *
 * Docker: when the engine or the base image is missing, ../shared/tools/docker-offline.sh (beside the repo, as
 * root) installs Debian's engine and builds the local stand-in for node:20-bookworm-slim.
 */

const root = path.resolve(__dirname, '..', '..');
const sharedDockerSetup = path.resolve(root, '..', 'shared', 'tools', 'docker-offline.sh');
const baseImage = 'node:20-bookworm-slim';
const tag = 'partsyard:test';
const appLayersBudgetMb = 120;
const idleStopMs = 1_000;
const graceMs = 8_000;

const figures: Record<string, string> = {};
const work = mkdtempSync(path.join(os.tmpdir(), 'partsyard-image-'));
const container = `partsyard-test-${process.pid}`;
let dropDatabase: (() => Promise<void>) | undefined;

function docker(args: string[], options: { allowFailure?: boolean; timeoutMs?: number } = {}) {
  const result = spawnSync('docker', args, {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: options.timeoutMs ?? 120_000,
  });
  if (result.status !== 0 && !options.allowFailure)
    throw new Error(
      `docker ${args.join(' ')} failed (${result.status}):\n${(result.stdout + result.stderr).slice(-3000)}`,
    );
  return { ok: result.status === 0, out: result.stdout.trim(), err: result.stderr.trim() };
}

/** Runs a long command with its output in a log file; throws with the log's tail when it fails. */
function runLogged(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; log: string }) {
  return new Promise<number>((resolve, reject) => {
    const started = Date.now();
    const fd = openSync(options.log, 'w');
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', fd, fd],
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      closeSync(fd);
      if (code === 0) resolve(Date.now() - started);
      else
        reject(
          new Error(
            `${command} ${args.join(' ')} failed (${code}):\n${readFileSync(options.log, 'utf8').slice(-4000)}`,
          ),
        );
    });
  });
}

const dockerReady = () => spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 30_000 }).status === 0;
const hasBaseImage = () => spawnSync('docker', ['image', 'inspect', baseImage], { stdio: 'ignore' }).status === 0;

/** Docker's engine and the base image, set up with the shared script when either is missing. */
async function ensureDocker() {
  if (dockerReady() && hasBaseImage()) return;
  if (!existsSync(sharedDockerSetup))
    throw new Error(`Docker is not usable here and ${sharedDockerSetup} (which sets it up) is missing`);
  const took = await runLogged('bash', [sharedDockerSetup, baseImage], {
    cwd: root,
    log: path.join(work, 'docker-setup.log'),
  });
  figures['Docker set-up (engine and base image)'] = `${(took / 1000).toFixed(0)} s`;
  if (!dockerReady() || !hasBaseImage()) throw new Error(`${sharedDockerSetup} ran but Docker is still not usable`);
}

const mb = (bytes: number) => bytes / 1_000_000;

/**
 * Packages the runtime image must not hold: every package the web client or a tool names (the web workspace's
 * dependencies, every workspace's devDependencies), less those the API or common names as its own runtime
 * dependencies (graphql, yup) and the type packages (their declarations are deleted; some runtime packages
 * name them); and the web client's heavy packages the issue found by their transitive names.
 */
function notTheServers(): string[] {
  const manifest = (dir: string) =>
    JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
  const [top, api, common, web] = ['.', 'api', 'common', 'web'].map(manifest);
  const names = (deps?: Record<string, string>) => Object.keys(deps ?? {});
  const server = new Set([...names(api.dependencies), ...names(common.dependencies)]);
  const named = [
    ...names(web.dependencies),
    ...[top, api, common, web].flatMap((m) => names(m.devDependencies)),
    ...['@firebase/auth', 'monaco-editor', 'react-aria', 'react-stately', 'framer-motion'],
  ];
  return [...new Set(named)].filter((n) => !server.has(n) && !n.startsWith('@types/')).sort();
}

async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}:\n${docker(['logs', container], { allowFailure: true }).err}`);
}

const answers = (url: string) =>
  fetch(url).then(
    (r) => r.ok,
    () => false,
  );

const state = () =>
  JSON.parse(docker(['inspect', '-f', '{{json .State}}', container]).out) as {
    Running: boolean;
    ExitCode: number;
    FinishedAt: string;
    Health?: { Status: string };
  };

const logsOf = () => {
  const { out, err } = docker(['logs', container]);
  return `${out}\n${err}`;
};
const logLines = (logs: string, msg: string) =>
  logs.split('\n').filter((line) => {
    try {
      return (JSON.parse(line) as { msg?: unknown }).msg === msg;
    } catch {
      return false;
    }
  }).length;

afterAll(async () => {
  docker(['rm', '-f', container], { allowFailure: true });
  await dropDatabase?.();
  rmSync(work, { recursive: true, force: true });
  const lines = Object.entries(figures).map(([what, value]) => `| ${what} | ${value} |`);
  console.log(`The production image:\n| what | figure |\n|---|---|\n${lines.join('\n')}`);
  if (process.env.WRITE_PERFORMANCE_DOCS === '1') writeFigures(lines);
});

/** Replaces the image section of docs/performance.md (between its markers) with this run's figures. */
function writeFigures(lines: string[]) {
  const file = path.join(root, 'docs', 'performance.md');
  const text = readFileSync(file, 'utf8');
  const [start, end] = ['<!-- image:start -->', '<!-- image:end -->'];
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const section =
    `${start}\n\n## The production image (${when} UTC)\n\n` +
    'Written by `WRITE_PERFORMANCE_DOCS=1 npm run test:image` (api/test/image.docker.ts), on this 2-core machine ' +
    'shared with other work. The app’s layers are the image less its base (`node:20-bookworm-slim`, here the ' +
    'local stand-in). Stop times are from `docker stop` to the exit Docker records.\n\n' +
    `| what | figure |\n|---|---|\n${lines.join('\n')}\n\n${end}`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  writeFileSync(
    file,
    from >= 0 && to > from
      ? text.slice(0, from) + section + text.slice(to + end.length)
      : `${text.trimEnd()}\n\n${section}\n`,
  );
}

describe('the production image, built by Docker from a clean clone of HEAD', () => {
  let imageBytes = 0;

  beforeAll(async () => {
    await ensureDocker();
    const clone = path.join(work, 'clone');
    await runLogged('git', ['clone', '--quiet', '--no-hardlinks', root, clone], {
      cwd: work,
      log: path.join(work, 'clone.log'),
    });
    // Each stage is tagged as well as the image: the build cache lives in their layers, and the images they
    // replace (with the layers nothing else uses) are removed, so repeated runs do not fill the disk.
    let took = 0;
    let reused = 0;
    for (const [target, name] of [
      ['deps', `${tag}-deps`],
      ['build', `${tag}-build`],
      [undefined, tag],
    ] as const) {
      const previous = docker(['image', 'inspect', '-f', '{{.Id}}', name], { allowFailure: true }).out;
      const log = path.join(work, `build-${target ?? 'runtime'}.log`);
      took += await runLogged(
        'docker',
        ['build', '--network', 'host', ...(target ? ['--target', target] : []), '-t', name, '.'],
        { cwd: clone, env: { ...process.env, DOCKER_BUILDKIT: '0' }, log },
      );
      if (!target) reused = (readFileSync(log, 'utf8').match(/Using cache/g) ?? []).length;
      const current = docker(['image', 'inspect', '-f', '{{.Id}}', name]).out;
      if (previous && previous !== current) docker(['rmi', previous], { allowFailure: true });
    }
    figures['docker build (this run)'] = `${(took / 1000).toFixed(0)} s (${reused} steps from the build cache)`;
    imageBytes = Number(docker(['image', 'inspect', '-f', '{{.Size}}', tag]).out);
  }, 30 * 60_000);

  it(`is small: the app’s layers (the image less its base) are at most ${appLayersBudgetMb} MB`, () => {
    const baseBytes = Number(docker(['image', 'inspect', '-f', '{{.Size}}', baseImage]).out);
    const appMb = mb(imageBytes - baseBytes);
    figures['image'] = `${mb(imageBytes).toFixed(0)} MB`;
    figures['base image'] = `${mb(baseBytes).toFixed(0)} MB`;
    figures['the app’s layers (image less base)'] = `${appMb.toFixed(1)} MB (budget ${appLayersBudgetMb} MB)`;
    const layers = docker(['history', '--no-trunc', '--format', '{{.Size}}\t{{.CreatedBy}}', tag]).out;
    const copied = layers
      .split('\n')
      .filter((l) => l.includes(' COPY '))
      .map((l) => {
        const [size, createdBy] = l.split('\t');
        return `${size} ${/ in (\S+)/.exec(createdBy)?.[1] ?? ''}`;
      });
    figures['its largest layers'] = copied.filter((l) => /MB/.test(l)).join(', ');
    expect(appMb).toBeLessThanOrEqual(appLayersBudgetMb);
  });

  it('holds what the server runs and nothing of the web client’s packages or the tools', () => {
    const probe = docker([
      'run',
      '--rm',
      '--network',
      'host',
      tag,
      'node',
      '-e',
      `const fs = require('fs');
       const has = (p) => fs.existsSync(p);
       const names = ${JSON.stringify(notTheServers())};
       const find = (dir, found = []) => { for (const e of fs.readdirSync(dir, { withFileTypes: true })) { const p = dir + '/' + e.name; if (e.isDirectory()) find(p, found); else if (/\\.(d\\.[cm]?ts|map)$/.test(e.name)) found.push(p); } return found; };
       console.log(JSON.stringify({
         present: names.filter((n) => has('node_modules/' + n) || has('api/node_modules/' + n) || has('common/node_modules/' + n)),
         server: ['@apollo/server', 'express', 'firebase-admin', 'pg', '@electric-sql/pglite', 'tsx', 'stripe', 'drizzle-orm'].filter((n) => !has('node_modules/' + n)),
         web: ['web/dist/index.html', 'web/dist/home.html', 'web/dist/playground.html'].filter((p) => !has(p)),
         typesAndMaps: find('node_modules').length,
         user: require('os').userInfo().username,
         nodeEnv: process.env.NODE_ENV,
       }));`,
    ]).out;
    expect(JSON.parse(probe)).toEqual({
      present: [],
      server: [],
      web: [],
      typesAndMaps: 0,
      user: 'node',
      nodeEnv: 'production',
    });
    const config = JSON.parse(docker(['image', 'inspect', '-f', '{{json .Config}}', tag]).out) as {
      User: string;
      Healthcheck?: { Test: string[] };
      Cmd: string[];
    };
    expect(config.User).toBe('node');
    expect(config.Healthcheck?.Test.join(' ')).toContain('/healthz');
    expect(config.Cmd).toEqual(['node', '--max-semi-space-size=16', '--import', 'tsx', 'api/src/main.ts']);
  });

  describe('run against a fresh PostgreSQL database and the Auth emulator', () => {
    let base = '';
    const adminEmail = uniqueEmail('image-admin');
    const customerEmail = uniqueEmail('image-customer');
    let customerToken = '';

    beforeAll(async () => {
      if (!testEnv.postgresUrl) throw new Error('set TEST_DATABASE_URL (npm run test:image defaults it)');
      const database = await createTestDatabase();
      dropDatabase = database.drop;
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      docker(['rm', '-f', container], { allowFailure: true });
      const startedAt = Date.now();
      const settings = {
        PORT: String(port),
        DATABASE_URL: database.url,
        JWT_SECRET: randomBytes(32).toString('hex'),
        FIREBASE_PROJECT_ID: testEnv.firebaseProjectId,
        FIREBASE_AUTH_EMULATOR_HOST: testEnv.authEmulatorHost,
        // Production mode with an emulator must say so (issue 10).
        ALLOW_AUTH_EMULATOR: 'true',
        ADMIN_EMAILS: adminEmail,
        // As docker-compose.yml runs it: a primary process and one worker per core (api/src/cluster.ts).
        WORKERS: 'auto',
      };
      // The image's own health check command, polled every second here instead of every 15 s.
      docker([
        'run',
        '-d',
        '--name',
        container,
        '--network',
        'host',
        '--health-interval',
        '1s',
        ...Object.entries(settings).flatMap(([name, value]) => ['-e', `${name}=${value}`]),
        tag,
      ]);
      await waitUntil(() => answers(`${base}/readyz`), 60_000, 'the container to answer /readyz');
      figures['docker run to /readyz answering (migrations on an empty database)'] =
        `${((Date.now() - startedAt) / 1000).toFixed(1)} s`;
      await waitUntil(() => state().Health?.Status === 'healthy', 30_000, 'Docker to call the container healthy');
    }, 120_000);

    it('answers /healthz, the web app’s pages and a GraphQL query; Docker calls it healthy', async () => {
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
      expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ready' });
      const home = await fetch(`${base}/`);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('Ride like a pro');
      // The catalog is pre-rendered by the build (web/scripts/prerender.mjs): its HTML already holds the page.
      const catalog = await (await fetch(`${base}/parts`)).text();
      expect(catalog).toContain('<title>All parts — PartsYard</title>');
      expect(catalog).not.toContain('<div id="root"></div>');
      // A page that is not pre-rendered gets the empty shell, which the app fills in.
      const shell = await (await fetch(`${base}/cart`)).text();
      expect(shell).toContain('<div id="root"></div>');
      const playground = await fetch(`${base}/graphql`, { headers: { accept: 'text/html' } });
      expect(await playground.text()).toContain('<div id="playground">');
      const parts = await gql<{ parts: { total: number } }>('{ parts { total } }');
      expect(parts).toEqual({ parts: { total: 0 } });
      expect(state().Health?.Status).toBe('healthy');
      expect(logsOf()).toContain('"mode":"production"');
    });

    it('signs a customer in through the emulator; they order and pay with the test gateway, and read the order over REST', async () => {
      const admin = await signIn(adminEmail, true);
      const { addPart } = await gql<{ addPart: { id: string } }>(
        'mutation($input: PartInput!) { addPart(input: $input) { id } }',
        {
          input: {
            name: 'Image test chain kit',
            description: 'A chain and sprocket kit sold by the container under test.',
            price: 30,
            minOrder: 2,
            available: 10,
          },
        },
        admin,
      );
      customerToken = await signIn(customerEmail, false);
      const { placeOrder } = await gql<{ placeOrder: { id: string; price: number } }>(
        'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id price } }',
        { input: { partId: addPart.id, name: 'Image Rider', phone: '01712345678', orderAmount: 3 } },
        customerToken,
      );
      expect(placeOrder.price).toBe(90);
      const { createPaymentIntent } = await gql<{ createPaymentIntent: { id: string; amount: number } }>(
        'mutation($orderId: ID!) { createPaymentIntent(orderId: $orderId) { id amount } }',
        { orderId: placeOrder.id },
        customerToken,
      );
      const { payWithTestCard } = await gql<{ payWithTestCard: { succeeded: boolean } }>(
        'mutation($id: ID!, $card: TestCardInput!) { payWithTestCard(paymentIntentId: $id, card: $card) { succeeded } }',
        {
          id: createPaymentIntent.id,
          card: { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2040, cvc: '123' },
        },
        customerToken,
      );
      expect(payWithTestCard.succeeded).toBe(true);
      await gql(
        'mutation($orderId: ID!, $intentId: ID!) { confirmPayment(orderId: $orderId, paymentIntentId: $intentId) { status } }',
        { orderId: placeOrder.id, intentId: createPaymentIntent.id },
        customerToken,
      );

      const rest = await fetch(`${base}/api/order/${placeOrder.id}`, {
        headers: { authorization: `Bearer ${customerToken}` },
      });
      expect(rest.status).toBe(200);
      expect(await rest.json()).toMatchObject({
        _id: placeOrder.id,
        email: customerEmail,
        partName: 'Image test chain kit',
        orderAmount: 3,
        price: 90,
        paid: true,
        status: 'paid',
        transactionId: createPaymentIntent.id,
      });
    });

    it(`docker stop under GraphQL and REST load: every accepted request answered, no 5xx, exit 0 within ${graceMs / 1000} s, one "stopped" line`, async () => {
      expect(customerToken).not.toBe('');
      const load = startLoad(base, { token: customerToken });
      await load.slowRequestInFlight;
      await new Promise((r) => setTimeout(r, 300));
      const sentAt = Date.now();
      load.signalled();
      // Not spawnSync: the clients live in this process and must go on while docker stop waits.
      await runLogged('docker', ['stop', container], { cwd: work, log: path.join(work, 'stop.log') });
      const report = await load.finish();
      const after = state();
      const took = Date.parse(after.FinishedAt) - sentAt;
      figures['docker stop under load (16 clients): the container’s exit'] = `${took} ms after the stop`;
      figures['requests during that stop'] = describeLoad(report).replace(/ \[\]/g, '');
      console.log(`docker stop under load: exited ${took} ms after; ${describeLoad(report)}`);

      expect(report.serverErrors).toEqual([]);
      expect(report.acceptedButLost).toEqual([]);
      expect(report.answeredAfterSignal).toBeGreaterThan(0);
      const logs = logsOf();
      // One "stopped" line from each worker that was ready (WORKERS=auto: one per core; one still starting at the
      // stop is ended by the signal, as asked), then the primary's, if there is one.
      const workers = logLines(logs, `PartsYard is ready on http://localhost:${new URL(base).port}`);
      const primaries = logs.split('\n').filter((line) => /"msg":"starting \d+ workers on port \d+"/.test(line)).length;
      expect(workers).toBeGreaterThanOrEqual(1);
      expect({
        running: after.Running,
        exitCode: after.ExitCode,
        stopped: logLines(logs, 'stopped'),
        primaryStopped: logLines(logs, 'all workers stopped'),
      }).toEqual({ running: false, exitCode: 0, stopped: workers, primaryStopped: primaries });
      expect(took).toBeLessThan(graceMs);
    });

    it(`idle, stops within ${idleStopMs} ms of docker stop`, async () => {
      docker(['start', container]);
      await waitUntil(() => answers(`${base}/readyz`), 60_000, 'the restarted container to answer /readyz');
      await new Promise((r) => setTimeout(r, 500));
      const sentAt = Date.now();
      docker(['stop', container], { timeoutMs: 30_000 });
      const after = state();
      const took = Date.parse(after.FinishedAt) - sentAt;
      figures['docker stop, idle: the container’s exit'] = `${took} ms after the stop`;
      expect(after.ExitCode).toBe(0);
      // Two runs' logs now: each stop ended with the primary's line (one worker alone: its own "stopped").
      const logs = logsOf();
      const ends = logLines(logs, 'all workers stopped') || logLines(logs, 'stopped');
      expect(ends).toBe(2);
      expect(took).toBeLessThan(idleStopMs);
    });

    async function gql<T>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<T> {
      const res = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as { data?: T; errors?: unknown };
      if (!body.data) throw new Error(`${query}: ${res.status} ${JSON.stringify(body.errors)}`);
      return body.data;
    }

    /** Signs up in the emulator, signs in with the password as the web app does, and exchanges the ID token. */
    async function signIn(email: string, admin: boolean): Promise<string> {
      await emulatorSignUp(email, 'Secret#123', admin ? 'Image Admin' : 'Image Rider');
      // The admin's address (ADMIN_EMAILS) is verified first, as it must be to be admin.
      const idToken = admin
        ? await emulatorVerifyEmail(email, 'Secret#123')
        : await emulatorSignIn(email, 'Secret#123');
      const { signIn } = await gql<{ signIn: { token: string; user: { role: string } } }>(
        'mutation($idToken: String!) { signIn(idToken: $idToken) { token user { role } } }',
        { idToken },
      );
      expect(signIn.user.role).toBe(admin ? 'ADMIN' : 'CUSTOMER');
      return signIn.token;
    }
  });
});
