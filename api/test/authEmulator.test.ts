import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { testEnv } from './support/env';

/**
 * The Auth emulator that `npm start` and the tests start (scripts/auth-emulator.cjs) compiles its request
 * validators on first use (scripts/emulator-lazy-validation.cjs): some 8 s of CPU less on every start.
 */
const root = path.resolve(__dirname, '..', '..');
const preload = path.join(root, 'scripts', 'emulator-lazy-validation.cjs');

describe('the Auth emulator started lazily', () => {
  it("reaches the exegesis that firebase-tools uses and makes lazy compiling its options' default, an explicit choice kept", () => {
    // A process of its own: the preload patches the module as the emulator's process loads it, not Jest's copy.
    const script = `
      const { applied } = require(${JSON.stringify(preload)});
      const tools = require('node:path').dirname(require.resolve('firebase-tools/package.json'));
      const options = require(require.resolve('exegesis/lib/options.js', { paths: [tools] }));
      console.log(JSON.stringify({
        applied,
        byDefault: options.compileOptions({}).lazyCompileValidationSchemas,
        chosen: options.compileOptions({ lazyCompileValidationSchemas: false }).lazyCompileValidationSchemas,
      }));`;
    const run = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ applied: true, byDefault: true, chosen: false });
  });

  it("is how this run's emulator was started, and it still validates requests against the API's schema", async () => {
    const emulators = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        } catch {
          return [];
        }
      })
      .filter((args) => args.includes('emulators:start') && args.includes(testEnv.firebaseProjectId));
    expect(emulators).toHaveLength(1);
    expect(emulators[0]).toEqual(expect.arrayContaining(['--require', preload]));

    const res = await fetch(
      `http://${testEnv.authEmulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: ['not', 'a', 'string'], password: 'secret-password' }),
      },
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      'Invalid JSON payload received. /email must be string',
    );
  });
});
