import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testEnv } from './env';
import { openDatabase } from '../../src/db/database';
import { dropLeftoverTestDatabases, writePostgresTemplate } from './postgres';
import { writePgliteTemplate } from './pgliteTemplate';
import { freePort } from './ports';
import { setRunLogPath } from './runLog';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startAuthEmulator } = require(path.resolve(__dirname, '../../../scripts/auth-emulator.cjs')) as {
  startAuthEmulator: (o: Record<string, unknown>) => Promise<{ host: string; stop: () => Promise<void> }>;
};

/**
 * Starts the real Firebase Auth Emulator once for the whole run, on free ports; writes the PGlite template and, with
 * a test server, the PostgreSQL one.
 */
export default async function globalSetup(): Promise<void> {
  const runLog = path.join(tmpdir(), `partsyard-test-run-${process.pid}.log`);
  writeFileSync(runLog, '');
  setRunLogPath(runLog);
  if (testEnv.postgresUrl) await dropLeftoverTestDatabases();
  const migratePostgres = async (url: string) => (await openDatabase({ kind: 'postgres', url, poolSize: 1 })).close();
  const [port, hubPort, loggingPort] = [await freePort(), await freePort(), await freePort()];
  // A project of its own: emulators of one project share a hub locator file and disturb each other.
  const projectId = `demo-partsyard-test-${process.pid}`;
  const [emulator] = await Promise.all([
    startAuthEmulator({ port, hubPort, loggingPort, projectId, quiet: !process.env.DEBUG_EMULATOR }),
    writePgliteTemplate(),
    testEnv.postgresUrl ? writePostgresTemplate(migratePostgres) : undefined,
  ]);
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  process.env.TEST_FIREBASE_PROJECT_ID = projectId;
  (globalThis as { __authEmulator?: typeof emulator }).__authEmulator = emulator;
}
