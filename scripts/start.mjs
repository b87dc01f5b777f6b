// `npm start`: the shop on its embedded defaults. Starts the Firebase Auth Emulator (users kept under
// .data/auth), then the API on PGlite (.data/pg) serving the built web app on http://localhost:4000.
// Ctrl-C stops both; the next start keeps the data and the accounts.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { startAuthEmulator } = require('./auth-emulator.cjs');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The launcher's own settings: where the emulator listens (the API's settings are read by api/src/config.ts).
const env = process.env;
const production = Boolean(env.DATABASE_URL);
const dataDir = path.resolve(root, env.DATA_DIR ?? '.data');
const port = (name, fallback) => (env[name] ? Number(env[name]) : fallback);
let emulator = null;
if (!production && !env.FIREBASE_AUTH_EMULATOR_HOST) {
  const authPort = port('AUTH_EMULATOR_PORT', 9099);
  console.log(`Starting the Firebase Auth Emulator on 127.0.0.1:${authPort} ...`);
  try {
    emulator = await startAuthEmulator({
      port: authPort,
      hubPort: port('AUTH_EMULATOR_HUB_PORT', 4400),
      loggingPort: port('AUTH_EMULATOR_LOGGING_PORT', 4500),
      dataDir: path.join(dataDir, 'auth'),
    });
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}

const api = spawn(
  process.execPath,
  [path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(root, 'api', 'src', 'main.ts')],
  {
    cwd: root,
    stdio: 'inherit',
    env: emulator ? { ...process.env, FIREBASE_AUTH_EMULATOR_HOST: emulator.host } : process.env,
    detached: true,
  },
);

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  if (api.exitCode === null) {
    api.kill('SIGTERM');
    await new Promise((resolve) => api.once('exit', resolve));
  }
  if (emulator) await emulator.stop();
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
api.on('exit', (code) => void stop(code ?? 0));
