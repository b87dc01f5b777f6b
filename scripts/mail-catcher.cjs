// Starts MailDev (an SMTP server with a web inbox, from npm) for `npm start`'s embedded default, so a newcomer
// sees every email the shop sends: the API delivers its outbox to MailDev's SMTP port, and the inbox shows them.
// It runs as a child with scripts/exit-with-parent.cjs preloaded: it stops when the launcher is gone, however.
const { spawn } = require('node:child_process');
const { existsSync, mkdirSync } = require('node:fs');
const path = require('node:path');
const { answersOk, portFree } = require('./local-ports.cjs');

const root = path.resolve(__dirname, '..');
// MailDev's package exports only its ES module entry, so its command is found by path.
const maildevBin = path.join(root, 'node_modules', 'maildev', 'dist', 'bin', 'maildev.js');
const exitWithParent = path.join(__dirname, 'exit-with-parent.cjs');

/**
 * @param {{ smtpPort?: number, webPort?: number, dataDir?: string, timeoutMs?: number }} options
 *   dataDir: the emails are kept there (seen again after a restart).
 * @returns {Promise<{ smtpUrl: string, inboxUrl: string, listUrl: string, pid: number, stop: () => Promise<void> }>}
 *   inboxUrl: the web inbox, for a browser; listUrl: the same emails as JSON, for anything else (see below).
 */
async function startMailCatcher(options = {}) {
  const smtpPort = options.smtpPort ?? 1025;
  const webPort = options.webPort ?? 1080;
  if (!existsSync(maildevBin)) throw new Error('MailDev is not installed (it is a devDependency): run `npm ci`.');
  for (const port of [smtpPort, webPort]) {
    if (!(await portFree(port))) {
      throw new Error(
        `Port ${port} is already in use (another PartsYard, or another mail catcher?): stop it, or choose other ` +
          'ports with MAILDEV_SMTP_PORT and MAILDEV_WEB_PORT, or use your own mail server with SMTP_URL.',
      );
    }
  }
  const args = ['--smtp', String(smtpPort), '--ip', '127.0.0.1', '--web', String(webPort), '--web-ip', '127.0.0.1'];
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    args.push('--mail-directory', options.dataDir);
  }
  const child = spawn(process.execPath, ['--require', exitWithParent, maildevBin, ...args, '--silent'], {
    // fd 3: the pipe it watches to stop with this process (exit-with-parent.cjs). Its own process group: a
    // Ctrl-C reaches the launcher, which stops it once, after the API.
    stdio: ['ignore', 'ignore', 'inherit', 'pipe'],
    detached: true,
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const health = `http://127.0.0.1:${webPort}/api/healthz`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`MailDev exited early (code ${child.exitCode})`);
    if (await answersOk(health)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`MailDev did not answer at ${health} in time`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    // MailDev 3 serves its inbox page at / only to a request that accepts text/html (a browser's); curl, fetch or
    // a link checker asking / get 404 {"error":"Not found"}, and /index.html loads a page whose calls go astray.
    // So the page's address is for a browser, and the JSON list (GET /api/email) is given beside it.
    inboxUrl: `http://localhost:${webPort}/`,
    listUrl: `http://localhost:${webPort}/api/email`,
    pid: child.pid,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }
      await exited;
    },
  };
}

module.exports = { startMailCatcher };
