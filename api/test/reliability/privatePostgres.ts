import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../support/ports';

/**
 * A PostgreSQL cluster of a test's own (initdb in a temporary directory, its own port and socket directory),
 * so that stopping it cannot disturb the shared test server or other suites. Uses Debian's server binaries
 * (/usr/lib/postgresql/<version>/bin); PostgreSQL refuses to run as root, so as root it runs as `postgres`.
 */

const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;

/** The newest installed server's bin directory, if any. */
function postgresBin(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, 'bin', 'initdb')) && existsSync(path.join(base, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0], 'bin') : null;
}

/** The uid and gid of the `postgres` account, read from /etc/passwd. */
function postgresAccount(): { uid: number; gid: number } | null {
  try {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('postgres:'));
    if (!line) return null;
    const [, , uid, gid] = line.split(':');
    return { uid: Number(uid), gid: Number(gid) };
  } catch {
    return null;
  }
}

/** Why a private cluster cannot be started here (null when it can). */
export function privatePostgresMissing(): string | null {
  if (!postgresBin())
    return 'no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql)';
  if (asRoot && !postgresAccount()) return 'running as root and there is no postgres account to run the server as';
  if (asRoot && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser')) return 'runuser is missing';
  return null;
}

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  /** `pg_ctl stop -m fast`: sessions are ended, transactions in flight rolled back, then a clean shutdown. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it (immediately) if it runs and deletes its files. */
  destroy(): Promise<void>;
  /** The server's log, for a failure message. */
  log(): string;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error(privatePostgresMissing() ?? 'no PostgreSQL');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'partsyard-pg-'));
  const account = asRoot ? postgresAccount() : null;
  if (account) chownSync(dir, account.uid, account.gid);
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const port = await freePort();
  const tool = (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, name), ...args]) : run(path.join(bin, name), args);
  let running = false;

  await tool('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const start = async () => {
    await tool('pg_ctl', [
      '-D',
      data,
      '-l',
      logFile,
      '-w',
      '-t',
      '60',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=40`,
      'start',
    ]);
    running = true;
  };
  const stopWith = async (mode: 'fast' | 'immediate') => {
    await tool('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
    running = false;
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop: () => stopWith('fast'),
    async destroy() {
      if (running) await stopWith('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
    log: () => {
      try {
        return readFileSync(logFile, 'utf8');
      } catch {
        return '';
      }
    },
  };
}
