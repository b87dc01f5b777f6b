// Starts the Firebase Auth Emulator (firebase-tools) and waits until it answers. Used by `npm start`
// and by the test harness, so both run the same identity provider the same way.
const { spawn } = require('node:child_process');
const http = require('node:http');
const { mkdtempSync, writeFileSync, existsSync, mkdirSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const firebaseBin = path.join(root, 'node_modules', '.bin', 'firebase');

/** One GET on a connection of its own that is closed after it, so no idle keep-alive socket is left to reuse. */
function get(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
    });
    req.on('error', () => resolve(false));
    req.setTimeout(2000, () => req.destroy());
  });
}

const answers = (url) => get(url);

async function waitUntilReady(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The auth emulator exited early (code ${child.exitCode})`);
    if (await get(url)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The auth emulator did not answer at ${url} within ${timeoutMs} ms`);
}

/**
 * @param {{ port?: number, hubPort?: number, loggingPort?: number, projectId?: string,
 *           dataDir?: string, quiet?: boolean, timeoutMs?: number }} options
 *   dataDir: users are imported from and exported to it (kept across restarts).
 * @returns {Promise<{ host: string, projectId: string, stop: () => Promise<void> }>}
 */
async function startAuthEmulator(options = {}) {
  const port = options.port ?? 9099;
  if (await answers(`http://127.0.0.1:${port}/`)) {
    throw new Error(`Port ${port} is already in use: is another PartsYard or auth emulator running?`);
  }
  const projectId = options.projectId ?? 'demo-partsyard';
  // A private config, so that tests can run beside a running shop on other ports.
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'partsyard-auth-'));
  const configFile = path.join(workDir, 'firebase.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port },
        hub: { host: '127.0.0.1', port: options.hubPort ?? 4400 },
        logging: { host: '127.0.0.1', port: options.loggingPort ?? 4500 },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const args = ['emulators:start', '--only', 'auth', '--project', projectId, '--config', configFile];
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    if (existsSync(path.join(options.dataDir, 'firebase-export-metadata.json'))) args.push('--import', options.dataDir);
    args.push('--export-on-exit', options.dataDir);
  }
  const child = spawn(firebaseBin, args, {
    cwd: workDir,
    stdio: options.quiet ? 'ignore' : ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, FIREBASE_AUTH_EMULATOR_HOST: '' },
    // Its own process group: a Ctrl-C in the terminal reaches only our launcher, which stops it once, cleanly.
    detached: true,
  });
  const host = `127.0.0.1:${port}`;
  await waitUntilReady(`http://${host}/`, child, options.timeoutMs ?? 90_000);
  return {
    host,
    projectId,
    stop: () =>
      new Promise((resolve) => {
        // The private config goes with the emulator (the users live in dataDir, not here).
        const done = () => {
          rmSync(workDir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        // SIGINT lets the emulator export its users before it exits.
        child.kill('SIGINT');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}

module.exports = { startAuthEmulator };
