import { appendFileSync, readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';

/**
 * The logs of the whole test run: every JSON line an app writes in any test file (api and e2e projects), and in
 * every server process a test starts (`runLogCopier`), is copied to one file, named by globalSetup, and
 * globalTeardown scans it for what must never be logged (issue 12): email addresses, phone numbers, payment
 * client secrets, card numbers, tokens. The run fails on a hit.
 */
const runLogVariable = 'PARTSYARD_TEST_RUN_LOG';

export const runLogPath = (): string | undefined => process.env[runLogVariable];

export function setRunLogPath(file: string): void {
  process.env[runLogVariable] = file;
}

/** Copies the app's log lines (JSON objects) of a write to stdout or stderr to the run's log. */
export function copyToRunLog(chunk: string | Uint8Array): void {
  const file = runLogPath();
  if (!file) return;
  const lines = String(chunk)
    .split('\n')
    .filter((line) => line.startsWith('{'));
  if (lines.length) appendFileSync(file, `${lines.join('\n')}\n`);
}

/**
 * For the output of a process a test starts (a server, `npm start`): copies its complete lines to the run's log
 * as they arrive, so that the scan covers the logs of every process of the run, not only the test's own.
 */
export function runLogCopier(): (chunk: string | Uint8Array) => void {
  let pending = '';
  return (chunk) => {
    pending += String(chunk);
    const end = pending.lastIndexOf('\n');
    if (end < 0) return;
    copyToRunLog(pending.slice(0, end + 1));
    pending = pending.slice(end + 1);
  };
}

/**
 * Follows the output of a process a test started: both streams go to the run's log (runLogCopier) and, as text,
 * to `onOutput` (stdout and stderr, or stderr alone with `{ stderrOnly: true }`).
 */
export function followOutput(
  child: { stdout: Readable | null; stderr: Readable | null },
  onOutput: (text: string) => void,
  options: { stderrOnly?: boolean } = {},
): void {
  for (const [stream, shown] of [
    [child.stdout, !options.stderrOnly],
    [child.stderr, true],
  ] as const) {
    const toRunLog = runLogCopier();
    stream?.on('data', (chunk: Buffer) => {
      if (shown) onOutput(String(chunk));
      toRunLog(chunk);
    });
  }
}

/** What the tests use and the logs must never hold, each with what it is. */
const forbidden: [string, RegExp][] = [
  ['an email address', /[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b/],
  ['an email address, URL-encoded', /[\w.+-]+%40[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b/i],
  // A phone number stands alone: a digit run inside an id (`pi_test_815fc0149755497...`, a UUID) is no phone.
  ['a phone number', /(?<![\w.-])(?:\+?88)?01[3-9]\d{8}(?![\w.-])/],
  ['a payment client secret', /_secret_[A-Za-z0-9]+/],
  ['a card number', /(?<!\d)4242[ -]?4242[ -]?4242[ -]?4242(?!\d)/],
  ['a token (JWT)', /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\./],
];

/** The lines of the run's log that hold any of it: "what: the line" (at most `limit`), and how many lines there were. */
export function scanRunLog(file: string, limit = 10): { lines: number; hits: string[] } {
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const hits: string[] = [];
  for (const line of lines) {
    const found = forbidden.find(([, pattern]) => pattern.test(line));
    if (found && hits.length < limit) hits.push(`${found[0]}: ${line.slice(0, 400)}`);
  }
  return { lines: lines.length, hits };
}
