import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The deployment files, checked without Docker: docker-compose.yml validated by Debian's docker-compose (no
 * engine needed), and the Dockerfile's stages read. The image itself is built by Docker from a clean clone and
 * run as a user would by `npm run test:image` (api/test/image.docker.ts), which .ci/run runs after `npm test`.
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
const [depsStage, buildStage, runtimeStage] = dockerfile;

const hasDockerCompose = spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0;

describe('the Dockerfile', () => {
  it('installs the server’s runtime packages in one stage, builds in another, and runs in a third', () => {
    expect(dockerfile.map((s) => s.name)).toEqual(['deps', 'build', 'runtime']);
    // Only the API workspace's production dependencies: not the web client's packages, not the root's tools.
    expect(depsStage.runs[0]).toMatch(/^npm ci --omit=dev --workspace=@partsyard\/api\b/);
    expect(
      depsStage.copies.every((c) => c.sources.every((s) => s.endsWith('package.json') || s.endsWith('lock.json'))),
    );
    expect(buildStage.runs[0]).toMatch(/^npm ci\b/);
    expect(buildStage.runs).toContain('npm run build');
  });

  it('runs node on the API as a non-root user, in production, with a health check on /healthz', () => {
    expect(runtimeStage.user).toBeDefined();
    expect(runtimeStage.user).not.toMatch(/^(root|0)$/);
    expect(runtimeStage.env.NODE_ENV).toBe('production');
    expect(runtimeStage.cmd).toEqual(['node', '--max-semi-space-size=16', '--import', 'tsx', 'api/src/main.ts']);
    expect(runtimeStage.healthcheck?.join(' ')).toContain('/healthz');
    expect(runtimeStage.copies.every((c) => c.from === 'deps' || c.from === 'build')).toBe(true);
    // node_modules from the deps stage only; from the build stage, the sources, migrations and web/dist.
    const fromBuild = runtimeStage.copies.filter((c) => c.from === 'build').flatMap((c) => c.sources);
    expect(fromBuild.some((s) => s.includes('node_modules'))).toBe(false);
    expect(fromBuild).toEqual(expect.arrayContaining(['/app/api/src', '/app/api/drizzle', '/app/web/dist']));
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
