// Starts the Firebase Auth Emulator (firebase-tools) and waits until it answers. Used by `npm start`
// and by the test harness, so both run the same identity provider the same way.
const { spawn } = require('node:child_process');
const { mkdtempSync, writeFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { answersOk, portFree } = require('./local-ports.cjs');

const firebaseTools = path.dirname(require.resolve('firebase-tools/package.json'));
const firebaseCli = path.join(firebaseTools, require('firebase-tools/package.json').bin.firebase);
const exitWithParent = path.join(__dirname, 'exit-with-parent.cjs');
const lazyValidation = path.join(__dirname, 'emulator-lazy-validation.cjs');
/** Every emulator started here keeps its private config in a directory named so (see describePortHolder). */
const workDirPrefix = 'partsyard-auth-';

const readProc = (pid, file) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
};
const commandLine = (pid) => readProc(pid, 'cmdline')?.split('\0').filter(Boolean).join(' ');
/** The parent's pid, from /proc/<pid>/stat ("pid (name) state ppid ..."; the name may hold spaces). */
const parentOf = (pid) => Number(readProc(pid, 'stat')?.split(') ')[1]?.split(' ')[1]) || undefined;

/**
 * Who holds `port`, when it is one of our emulators (Linux: found through /proc): the emulator's pid and its
 * launcher's, or undefined. Ours are those whose --config lives in a `partsyard-auth-` directory.
 */
function findOurEmulator(port) {
  let pids;
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    const args = readProc(pid, 'cmdline')?.split('\0') ?? [];
    const config = args[args.indexOf('--config') + 1];
    if (!args.includes('emulators:start') || !config || !path.basename(path.dirname(config)).startsWith(workDirPrefix))
      continue;
    let emulators;
    try {
      emulators = JSON.parse(readFileSync(config, 'utf8')).emulators;
    } catch {
      continue;
    }
    const ports = [emulators?.auth?.port, emulators?.hub?.port, emulators?.logging?.port];
    if (!ports.includes(port)) continue;
    // Orphans are adopted by pid 1 or a subreaper (systemd, tini): only a node parent can be our launcher.
    const parent = parentOf(pid);
    const parentCommand = parent && parent !== 1 ? commandLine(parent) : undefined;
    if (parentCommand && !/\bnode\b/.test(parentCommand.split(' ')[0]))
      return { pid: Number(pid), launcher: undefined };
    return { pid: Number(pid), launcher: parentCommand ? { pid: parent, command: parentCommand } : undefined };
  }
  return undefined;
}

/** Why `port` cannot be used, naming the process that holds it and how to stop it when it is one of ours. */
function describePortHolder(port) {
  const ours = findOurEmulator(port);
  if (!ours) {
    return (
      `Port ${port} is already in use by another program` +
      (process.platform === 'linux' ? ' (not a PartsYard auth emulator)' : ': is another PartsYard running?') +
      `; stop it (\`lsof -i :${port}\` or \`fuser ${port}/tcp\` names it), or choose other ports.`
    );
  }
  if (ours.launcher) {
    return (
      `Port ${port} is held by PartsYard's auth emulator (pid ${ours.pid}), started by pid ${ours.launcher.pid} ` +
      `(${ours.launcher.command.slice(0, 120)}), which is still running: stop that one first (Ctrl-C where it runs, ` +
      `or \`kill ${ours.launcher.pid}\`), or choose other ports.`
    );
  }
  return (
    `Port ${port} is held by a stale PartsYard auth emulator (pid ${ours.pid}): the start that launched it is gone. ` +
    `Stop it with \`kill ${ours.pid}\` (it saves its accounts and exits), then start again.`
  );
}

async function waitUntilReady(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The auth emulator exited early (code ${child.exitCode})`);
    if (await answersOk(url)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The auth emulator did not answer at ${url} within ${timeoutMs} ms`);
}

/**
 * @param {{ port?: number, hubPort?: number, loggingPort?: number, projectId?: string,
 *           dataDir?: string, quiet?: boolean, timeoutMs?: number, exitWithParent?: boolean }} options
 *   dataDir: users are imported from and exported to it (kept across restarts).
 *   exitWithParent (default true): the emulator stops when this process is gone, even killed with SIGKILL.
 *   false leaves it running after this process, as older versions did (the tests make a stale one so).
 * @returns {Promise<{ host: string, projectId: string, pid: number, stop: () => Promise<void> }>}
 */
async function startAuthEmulator(options = {}) {
  const port = options.port ?? 9099;
  const hubPort = options.hubPort ?? 4400;
  const loggingPort = options.loggingPort ?? 4500;
  for (const p of [port, hubPort, loggingPort]) if (!(await portFree(p))) throw new Error(describePortHolder(p));
  const projectId = options.projectId ?? 'demo-partsyard';
  // A private config, so that tests can run beside a running shop on other ports.
  const workDir = mkdtempSync(path.join(os.tmpdir(), workDirPrefix));
  const configFile = path.join(workDir, 'firebase.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port },
        hub: { host: '127.0.0.1', port: hubPort },
        logging: { host: '127.0.0.1', port: loggingPort },
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
  const exitsWithParent = options.exitWithParent ?? true;
  const output = options.quiet ? 'ignore' : 'inherit';
  const child = spawn(
    process.execPath,
    [...(exitsWithParent ? ['--require', exitWithParent] : []), '--require', lazyValidation, firebaseCli, ...args],
    {
      cwd: workDir,
      // fd 3: the pipe scripts/exit-with-parent.cjs watches, so the emulator never outlives this process.
      stdio: ['ignore', output, output, ...(exitsWithParent ? ['pipe'] : [])],
      env: { ...process.env, FIREBASE_AUTH_EMULATOR_HOST: '' },
      // Its own process group: a Ctrl-C in the terminal reaches only our launcher, which stops it once, cleanly
      // (a second signal soon after the first makes the emulator quit without saving its accounts).
      detached: true,
    },
  );
  if (!exitsWithParent) child.unref();
  const host = `127.0.0.1:${port}`;
  await waitUntilReady(`http://${host}/`, child, options.timeoutMs ?? 90_000);
  return {
    host,
    projectId,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        // The private config goes with the emulator (the users live in dataDir, not here).
        const done = () => {
          rmSync(workDir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', done);
        // SIGINT lets the emulator export its users before it exits.
        child.kill('SIGINT');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}

module.exports = { startAuthEmulator };
