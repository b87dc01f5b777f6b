import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testEnv } from './support/env';
import { createTestDatabase } from './support/postgres';
import { freePort } from './support/ports';

/**
 * The deployment files: docker-compose.yml validated by Debian's docker-compose (no engine needed), and the
 * Dockerfile's own steps run from a clean clone of HEAD outside Docker, then the built server started with
 * production settings against a fresh PostgreSQL database and the test run's Auth emulator.
 */

const root = path.resolve(__dirname, '..', '..');

interface Copy {
  from: string | undefined;
  sources: string[];
  dest: string;
}
interface Stage {
  name: string;
  image: string;
  workdir: string;
  env: Record<string, string>;
  runs: string[];
  copies: Copy[];
  user: string | undefined;
  cmd: string[] | undefined;
  healthcheck: string[] | undefined;
}

/** The Dockerfile's instructions, per stage (continuation lines joined, comments dropped). */
function parseDockerfile(text: string): Stage[] {
  const lines = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, instruction, rest] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    const stage = stages[stages.length - 1];
    switch (instruction?.toUpperCase()) {
      case 'FROM': {
        const [image, , name] = rest.split(/\s+/);
        stages.push({
          name: name ?? image,
          image,
          workdir: '/',
          env: {},
          runs: [],
          copies: [],
          user: undefined,
          cmd: undefined,
          healthcheck: undefined,
        });
        break;
      }
      case 'WORKDIR':
        stage.workdir = path.posix.resolve(stage.workdir, rest);
        break;
      case 'ENV':
        for (const [, key, value] of rest.matchAll(/(\w+)=("[^"]*"|\S+)/g))
          stage.env[key] = value.replace(/^"|"$/g, '');
        break;
      case 'RUN':
        stage.runs.push(rest);
        break;
      case 'COPY': {
        const words = rest.split(/\s+/);
        const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
        const paths = words.filter((w) => !w.startsWith('--'));
        stage.copies.push({ from, sources: paths.slice(0, -1), dest: paths[paths.length - 1] });
        break;
      }
      case 'USER':
        stage.user = rest;
        break;
      case 'CMD':
        stage.cmd = JSON.parse(rest) as string[];
        break;
      case 'HEALTHCHECK':
        stage.healthcheck = JSON.parse(rest.slice(rest.indexOf('CMD ') + 4)) as string[];
        break;
    }
  }
  return stages;
}

const dockerfile = parseDockerfile(readFileSync(path.join(root, 'Dockerfile'), 'utf8'));
const buildStage = dockerfile[0];
const runtimeStage = dockerfile[dockerfile.length - 1];

const hasDockerCompose = spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0;

describe('the Dockerfile', () => {
  it('builds in one stage (npm ci, npm run build, dev dependencies pruned) and runs in another', () => {
    expect(dockerfile.map((s) => s.name)).toEqual(['build', 'runtime']);
    expect(buildStage.runs[0]).toMatch(/^npm ci\b/);
    expect(buildStage.runs).toContain('npm run build');
    expect(buildStage.runs[buildStage.runs.length - 1]).toMatch(/^npm prune --omit=dev\b/);
  });

  it('runs node on the API as a non-root user, in production, with a health check on /healthz', () => {
    expect(runtimeStage.user).toBeDefined();
    expect(runtimeStage.user).not.toMatch(/^(root|0)$/);
    expect(runtimeStage.env.NODE_ENV).toBe('production');
    expect(runtimeStage.cmd?.[0]).toBe('node');
    expect(runtimeStage.cmd?.join(' ')).toContain('api/src/main.ts');
    expect(runtimeStage.healthcheck?.join(' ')).toContain('/healthz');
    expect(runtimeStage.copies.every((c) => c.from === 'build')).toBe(true);
  });
});

const composeIt = hasDockerCompose ? it : it.skip;
describe(`docker-compose.yml${hasDockerCompose ? '' : ' (SKIPPED: docker-compose is not installed here; .ci/run installs Debian’s docker-compose, so CI validates it)'}`, () => {
  const compose = (env: Record<string, string>) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'partsyard-compose-'));
    const envFile = path.join(dir, 'empty.env');
    writeFileSync(envFile, '');
    try {
      // An empty env file: a developer's own .env must not change what is validated.
      return spawnSync(
        'docker-compose',
        ['--env-file', envFile, '-f', path.join(root, 'docker-compose.yml'), 'config'],
        {
          cwd: root,
          encoding: 'utf8',
          env: { PATH: process.env.PATH ?? '', HOME: os.homedir(), ...env },
        },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  composeIt('is valid, and wires the app to a healthy PostgreSQL with the settings from the environment', () => {
    const result = compose({
      JWT_SECRET: 's'.repeat(40),
      FIREBASE_PROJECT_ID: 'partsyard-prod',
      FIREBASE_API_KEY: 'web-key',
      STRIPE_SECRET_KEY: 'sk_test_compose',
    });
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.status).toBe(0);
    const out = result.stdout;
    expect(out).toMatch(/condition: service_healthy/);
    expect(out).toMatch(/pg_isready/);
    expect(out).toMatch(/postgres-data:\/var\/lib\/postgresql\/data/);
    expect(out).toContain('DATABASE_URL: postgres://partsyard:partsyard@postgres:5432/partsyard');
    expect(out).toContain('JWT_SECRET: ' + 's'.repeat(40));
    expect(out).toContain('FIREBASE_PROJECT_ID: partsyard-prod');
    expect(out).toContain('FIREBASE_API_KEY: web-key');
    expect(out).toContain('STRIPE_SECRET_KEY: sk_test_compose');
    for (const name of [
      'FIREBASE_SERVICE_ACCOUNT',
      'FIREBASE_AUTH_EMULATOR_HOST',
      'ALLOW_AUTH_EMULATOR',
      'STRIPE_PUBLISHABLE_KEY',
      'STRIPE_WEBHOOK_SECRET',
    ])
      expect(out).toContain(`${name}:`);
  });

  composeIt('refuses to render without JWT_SECRET or FIREBASE_PROJECT_ID, naming them', () => {
    const result = compose({ FIREBASE_PROJECT_ID: 'partsyard-prod' });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('set JWT_SECRET');
    expect(compose({ JWT_SECRET: 's'.repeat(40) }).stderr).toContain('set FIREBASE_PROJECT_ID');
  });
});

describe('the image, built from a clean clone in the Dockerfile’s own steps (outside Docker)', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'partsyard-image-'));
  /** The build stage's WORKDIR. */
  const buildDir = path.join(work, 'build');
  /** The runtime stage's WORKDIR, filled by its COPY --from=build steps. */
  const runtimeDir = path.join(work, 'runtime');
  let built = false;
  let server: ChildProcess | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  let output = '';

  afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGKILL');
      await new Promise((r) => server?.once('exit', r));
    }
    await dropDatabase?.();
    rmSync(work, { recursive: true, force: true });
  });

  const run = (command: string, cwd: string, env: NodeJS.ProcessEnv) => {
    const result = spawnSync('sh', ['-c', command], { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (result.status !== 0)
      throw new Error(`"${command}" failed (${result.status}):\n${(result.stdout + result.stderr).slice(-4000)}`);
  };

  it('git clone at HEAD, then every RUN of the build stage succeeds', () => {
    run(`git clone --quiet --no-hardlinks "${root}" "${buildDir}"`, work, process.env);
    const env = {
      ...process.env,
      ...buildStage.env,
      NODE_OPTIONS: '',
      // The same packages as the lock file names, from npm's cache when it has them: keeps this test fast.
      npm_config_prefer_offline: 'true',
    };
    for (const command of buildStage.runs) run(command, buildDir, env);
    expect(statSync(path.join(buildDir, 'web', 'dist', 'index.html')).isFile()).toBe(true);
    expect(statSync(path.join(buildDir, 'web', 'dist', 'playground.html')).isFile()).toBe(true);
    // Pruned: no dev dependency is left for the runtime image.
    expect(() => statSync(path.join(buildDir, 'node_modules', 'jest'))).toThrow();

    // The runtime stage's COPY --from=build steps (the clone is thrown away, so moving is copying here).
    for (const copy of runtimeStage.copies) {
      const dest = path.join(
        runtimeDir,
        path.posix.relative(runtimeStage.workdir, path.posix.resolve(runtimeStage.workdir, copy.dest)),
      );
      const intoDir = copy.dest.endsWith('/') || copy.sources.length > 1;
      for (const source of copy.sources) {
        const from = path.join(buildDir, path.posix.relative(buildStage.workdir, source));
        const to = intoDir ? path.join(dest, path.basename(from)) : dest;
        mkdirSync(path.dirname(to), { recursive: true });
        try {
          renameSync(from, to);
        } catch {
          cpSync(from, to, { recursive: true, verbatimSymlinks: true });
        }
      }
    }
    built = true;
  }, 300_000);

  const pgIt = testEnv.postgresUrl ? it : it.skip;
  pgIt(
    `starts with production settings on a fresh PostgreSQL database and answers /healthz, /readyz, the shop and the playground${testEnv.postgresUrl ? '' : ' (SKIPPED: set TEST_DATABASE_URL; .ci/run does)'}`,
    async () => {
      expect(built).toBe(true);
      const database = await createTestDatabase();
      dropDatabase = database.drop;
      const port = await freePort();
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: os.homedir(),
        ...runtimeStage.env,
        PORT: String(port),
        DATABASE_URL: database.url,
        JWT_SECRET: 'j'.repeat(48),
        FIREBASE_PROJECT_ID: testEnv.firebaseProjectId,
        FIREBASE_AUTH_EMULATOR_HOST: testEnv.authEmulatorHost,
        ALLOW_AUTH_EMULATOR: 'true',
      };
      const [command, ...args] = runtimeStage.cmd as string[];
      server = spawn(command === 'node' ? process.execPath : command, args, {
        cwd: runtimeDir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      server.stdout?.on('data', (d) => (output += d));
      server.stderr?.on('data', (d) => (output += d));

      const base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 60_000;
      for (;;) {
        const ready = await fetch(`${base}/readyz`).then(
          (r) => r.ok,
          () => false,
        );
        if (ready) break;
        if (server.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${output}`);
        await new Promise((r) => setTimeout(r, 300));
      }
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
      expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ready' });
      expect(output).toContain('"mode":"production"');
      const shop = await fetch(`${base}/`);
      expect(await shop.text()).toContain('<div id="root">');
      const playground = await fetch(`${base}/graphql`, { headers: { accept: 'text/html' } });
      expect(await playground.text()).toContain('<div id="playground">');
      const parts = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ parts { total } }' }),
      });
      expect(await parts.json()).toEqual({ data: { parts: { total: 0 } } });

      // The image's HEALTHCHECK command, as Docker would run it inside the container.
      const [hcCommand, ...hcArgs] = runtimeStage.healthcheck as string[];
      const check = spawnSync(hcCommand === 'node' ? process.execPath : hcCommand, hcArgs, { env, timeout: 10_000 });
      expect(check.status).toBe(0);

      // docker stop: SIGTERM, a graceful exit.
      const exited = new Promise<number | null>((r) => server?.once('exit', (code) => r(code)));
      server.kill('SIGTERM');
      expect(await exited).toBe(0);
    },
    120_000,
  );
});
