import pino from 'pino';

/**
 * Structured logs (pino): one JSON object a line, `{level, time, msg, ...fields}`, info and warnings on stdout,
 * errors on stderr. Logs never carry personal data or secrets (docs/security.md, "Logs"):
 *
 * - fields named like personal data or secrets (email, phone, address, tokens, client secrets, passwords,
 *   authorization, variables) are replaced by "[redacted]" wherever they sit (pino's redaction);
 * - every string logged is also scrubbed of what looks like an email address, a phone number, a payment
 *   intent's client secret, an API key or a JWT, in case one slips into an error message;
 * - a failed query's error keeps its SQL but drops its parameters (describeError).
 *
 * Callers log ids (user, order, payment intent, request), amounts and outcomes, never request bodies.
 */

const redacted = '[redacted]';
const sensitiveKeys = [
  'email',
  'phone',
  'address',
  'password',
  'token',
  'idToken',
  'accessToken',
  'authorization',
  'cookie',
  'clientSecret',
  'client_secret',
  'secret',
  'variables',
  'params',
];

/** Patterns of personal data and secrets, each with what it is written as instead. */
const scrubs: [RegExp, string][] = [
  [/\b[A-Za-z0-9_]+_secret_[A-Za-z0-9]+/g, '[client secret]'],
  [/\b(?:sk|rk|whsec)_(?:live_|test_)?[A-Za-z0-9]{8,}/g, '[secret]'],
  [/\beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*/g, '[token]'],
  [/[^\s@"'<>(),;:=/\\[\]]+@[^\s@"'<>(),;:=/\\[\]]+\.[A-Za-z]{2,}/g, '[email]'],
  // Phone numbers: 8 digits or more, maybe with +, spaces or dashes; not part of an id, a time or a number.
  [/(?<![\w.:-])\+?\d(?:[ -]?\d){7,14}(?![\w.:-])/g, '[phone]'],
];

/** `text` with anything that looks like personal data or a secret replaced. */
export function scrub(text: string): string {
  let out = text;
  for (const [pattern, replacement] of scrubs) out = out.replace(pattern, replacement);
  return out;
}

function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrub(value);
  if (depth > 5 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = scrubValue(v, depth + 1);
  return out;
}

let events = true;

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

// Written through process.stdout/stderr.write (not pino's own file descriptor writer), synchronously and in
// order, and so that the tests' log capture (api/test/support/logs.ts) sees every line.
const base = pino(
  {
    base: null,
    messageKey: 'msg',
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    formatters: {
      level: (label) => ({ level: label }),
      log: (object) => scrubValue(object) as Record<string, unknown>,
    },
    redact: { paths: [...sensitiveKeys, ...sensitiveKeys.map((k) => `*.${k}`)], censor: redacted },
  },
  pino.multistream(
    [
      { level: 'info', stream: { write: (line: string) => process.stdout.write(line) } },
      { level: 'error', stream: { write: (line: string) => process.stderr.write(line) } },
    ],
    { dedupe: true },
  ),
);

type Level = 'info' | 'warn' | 'error';

/** Who hears business events (the metrics: api/src/metrics.ts). */
const eventListeners = new Set<(event: string) => void>();

/**
 * Calls `listener` with the name of every business event: each one logged (a line with an `event` field:
 * order_expired, payment_recorded, ...), whether or not its line is written, and each one emitted without a
 * line (order_placed); answers how to stop.
 */
export function onEvent(listener: (event: string) => void): () => void {
  eventListeners.add(listener);
  return () => eventListeners.delete(listener);
}

/** Tells the listeners of a business event that has no log line of its own (an order placed). */
export function emitEvent(event: string): void {
  for (const listener of eventListeners) listener(event);
}

function write(level: Level, msg: string, fields: Record<string, unknown> = {}) {
  if (typeof fields.event === 'string') for (const listener of eventListeners) listener(fields.event);
  if (!events && level === 'info' && 'event' in fields) return;
  base[level](fields, scrub(msg));
}

/**
 * The useful part of an error for a log line: its message and stack, never request data. A failed query
 * (Drizzle's "Failed query: <sql>\nparams: <values>") keeps its SQL and the database's reason, not the values.
 */
export function describeError(error: unknown): { error: string; stack?: string } {
  if (!(error instanceof Error)) return { error: scrub(String(error)) };
  const paramsAt = error.message.indexOf('\nparams:');
  let message = paramsAt >= 0 ? error.message.slice(0, paramsAt) : error.message;
  const cause: unknown = error.cause;
  if (paramsAt >= 0 && cause instanceof Error) message += ` (${cause.message})`;
  // The stack's first lines repeat the message: keep only its frames.
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return { error: scrub(message), stack: scrub([`${error.name}: ${message}`, ...frames].join('\n')) };
}

export const logger = {
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
};
