// `npm start`: the shop on its embedded defaults. Starts the Firebase Auth Emulator (users kept under
// .data/auth), a local mail catcher (MailDev: every email the shop sends, in a web inbox, kept under .data/mail),
// then the API on PGlite (.data/pg) serving the built web app on http://localhost:4000.
// Ctrl-C stops both; the next start keeps the data and the accounts.
//
// Stopping: the API runs as `node --import tsx api/src/main.ts`, one process that handles SIGINT and SIGTERM
// itself (it finishes the requests in flight, then exits), in this launcher's process group: a Ctrl-C reaches it
// directly. A SIGTERM or SIGINT sent to this launcher alone (a supervisor, `npm start`'s own npm) is passed on
// once, never followed by a kill. Once the API has exited, the emulator and the mail catcher are stopped, then the launcher exits
// with the API's code. Both children watch this process through a pipe (scripts/exit-with-parent.cjs):
// if the launcher dies in any way, even SIGKILL, they stop by themselves.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { startAuthEmulator } = require('./auth-emulator.cjs');
const { startMailCatcher } = require('./mail-catcher.cjs');
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
      // The project whose ID tokens the API accepts (api/src/config.ts defaults it to demo-partsyard too).
      projectId: env.FIREBASE_PROJECT_ID || 'demo-partsyard',
    });
  } catch (error) {
    console.error(error.message);
    console.error('Other ports: set AUTH_EMULATOR_PORT, AUTH_EMULATOR_HUB_PORT, AUTH_EMULATOR_LOGGING_PORT.');
    process.exit(1);
  }
}

// Order emails go to a local catcher unless a mail server is configured (SMTP_URL) or this is production.
let mailCatcher = null;
if (!production && !env.SMTP_URL) {
  try {
    mailCatcher = await startMailCatcher({
      smtpPort: port('MAILDEV_SMTP_PORT', 1025),
      webPort: port('MAILDEV_WEB_PORT', 1080),
      dataDir: path.join(dataDir, 'mail'),
    });
    console.log(
      `Emails the shop sends (order placed, receipts, ...) arrive in the inbox at ${mailCatcher.inboxUrl} ` +
        `(open it in a browser; as JSON: ${mailCatcher.listUrl})`,
    );
  } catch (error) {
    console.error(error.message);
    if (emulator) await emulator.stop();
    process.exit(1);
  }
}

const apiEnv = { ...process.env };
if (emulator) apiEnv.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
if (mailCatcher) apiEnv.SMTP_URL = mailCatcher.smtpUrl;

const api = spawn(
  process.execPath,
  [
    '--require',
    path.join(root, 'scripts', 'exit-with-parent.cjs'),
    '--import',
    'tsx',
    path.join('api', 'src', 'main.ts'),
  ],
  {
    cwd: root,
    // fd 3: the pipe the API watches to stop with this launcher (scripts/exit-with-parent.cjs).
    stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
    env: apiEnv,
  },
);

let stopping = false;
const apiExited = new Promise((resolve) => api.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
async function stop() {
  if (stopping) return;
  stopping = true;
  const code = await apiExited;
  await Promise.all([emulator?.stop(), mailCatcher?.stop()]);
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    // Passed on once; the API ignores a second signal (a Ctrl-C reaches both) and stops in its own time.
    if (!stopping && api.exitCode === null && api.signalCode === null) api.kill('SIGTERM');
    void stop();
  });
}
void apiExited.then(() => stop());
