import { existsSync, rmSync } from 'node:fs';
import { removePgliteTemplate } from './pgliteTemplate';
import { dropPostgresTemplate } from './postgres';
import { runLogPath, scanRunLog } from './runLog';

export default async function globalTeardown(): Promise<void> {
  const emulator = (globalThis as { __authEmulator?: { stop: () => Promise<void> } }).__authEmulator;
  await emulator?.stop();
  removePgliteTemplate();
  await dropPostgresTemplate();

  // Issue 12: the logs of the whole run hold no personal data and no secret (api/test/support/runLog.ts).
  const file = runLogPath();
  if (!file || !existsSync(file)) return;
  const { lines, hits } = scanRunLog(file);
  rmSync(file, { force: true });
  if (hits.length) {
    throw new Error(
      `The logs of this test run hold personal data or secrets (${hits.length} lines shown of ${lines}):\n` +
        hits.map((h) => `  ${h}`).join('\n'),
    );
  }
  console.log(`Log scan: ${lines} app log lines of this run, no email, phone, client secret, card or token.`);
}
