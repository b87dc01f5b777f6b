/** Structured logs: one JSON object a line on stdout (errors on stderr). Never pass tokens or secrets. */
type Level = 'info' | 'warn' | 'error';

let enabled = true;

export function setLogging(on: boolean): void {
  enabled = on;
}

function write(level: Level, msg: string, fields: Record<string, unknown> = {}) {
  if (!enabled && level !== 'error') return;
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
