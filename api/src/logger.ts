/** Structured logs: one JSON object a line on stdout (errors on stderr). Never pass tokens or secrets. */
type Level = 'info' | 'warn' | 'error';

let enabled = true;
let events = true;

export function setLogging(on: boolean): void {
  enabled = on;
}

/**
 * Turns the info lines of business events (those with an `event` field: money events, expired orders) off or
 * on; answers the previous setting. Only the test harness turns them off, to keep its output readable; warnings
 * and errors are always written.
 */
export function setEventLogging(on: boolean): boolean {
  const was = events;
  events = on;
  return was;
}

function write(level: Level, msg: string, fields: Record<string, unknown> = {}) {
  if (!enabled && level !== 'error') return;
  if (!events && level === 'info' && 'event' in fields) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  (level === 'error' ? process.stderr : process.stdout).write(`${line}\n`);
}

/** The useful part of an error for a log line (message and stack; no request data). */
export const describeError = (error: unknown) =>
  error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) };

export const logger = {
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
};
