/**
 * A process of its own that runs the import worker once on DATABASE_URL (PostgreSQL), applying RANGE_LINES lines
 * per statement: importKilled.test.ts starts it and kills it (SIGKILL) in the middle of a job.
 */
import { openDatabase } from '../../src/db/database';
import { startImportWorker } from '../../src/imports/importWorker';

async function main() {
  const database = await openDatabase({ kind: 'postgres', url: process.env.DATABASE_URL ?? '', poolSize: 2 });
  const worker = startImportWorker(database.db, {
    separateConnections: true,
    pollIntervalMs: null,
    heartbeatMs: 200,
    rangeLines: Number(process.env.RANGE_LINES),
  });
  await worker.runOnce();
  await worker.stop();
  await database.close();
}

void main();
