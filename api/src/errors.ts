import type { FieldErrors } from '@partsyard/common';

export type ErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'BAD_USER_INPUT'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'RATE_LIMITED'
  | 'SERVICE_UNAVAILABLE';

/** HTTP status of each code: the one mapping used by the REST shim and by GraphQL responses. */
export const httpStatusOf: Record<ErrorCode, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  BAD_USER_INPUT: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
};

let stackTraceLimit = Error.stackTraceLimit;
/** `message`, with no stack frames captured by the Error constructor about to run (AppError restores the limit). */
function withoutFrames(message: string): string {
  stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return message;
}

/** An expected failure, with a code the caller can act on and a message a person can read. */
export class AppError extends Error {
  constructor(
    public readonly code: ErrorCode,
    message: string,
    /** Per-field messages for BAD_USER_INPUT. */
    public readonly fields?: FieldErrors,
    /** RATE_LIMITED: seconds until the caller may try again (the Retry-After header). */
    public readonly retryAfterSeconds?: number,
  ) {
    super(withoutFrames(message));
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'AppError';
    // An answer to the caller, not a fault: it has no stack (describeError names it by its message). Capturing
    // frames and formatting them (source-mapped, under tsx) when GraphQL wraps the error, which copies a stack
    // it is given over its own, was about a tenth of the CPU of a refused order (issue 15): no frames are
    // captured, and the stack is empty so that GraphQL keeps its own, which nothing formats unless it is read.
    Object.defineProperty(this, 'stack', { value: '', writable: true, configurable: true });
  }
}

export const forbidden = (message = 'You are not allowed to do this') => new AppError('FORBIDDEN', message);
export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new AppError('CONFLICT', message);
/** A right that needs a signed-in caller, asked by a visitor. */
export const signInRequired = () => new AppError('UNAUTHENTICATED', 'Sign in to continue');
/** A right only admins hold, asked by a customer. */
export const adminsOnly = () => forbidden('Only admins may do this');
/** The answer to a token or request of an account deleted since (the caller's check and the services say the same). */
export const accountGone = () => new AppError('UNAUTHENTICATED', 'This account no longer exists');
/** What a caller is told of a bug: nothing about it (the log has the details). */
export const internalErrorMessage = 'Something went wrong on our side';
export const unavailable = (message = 'The service is temporarily unavailable, try again shortly') =>
  new AppError('SERVICE_UNAVAILABLE', message);

/** BAD_USER_INPUT carrying per-field messages; the message names the first of them. */
export function badInput(fields: FieldErrors): AppError {
  const first = Object.values(fields)[0] ?? 'Invalid input';
  return new AppError('BAD_USER_INPUT', first, fields);
}

/**
 * SQLSTATEs meaning the database cannot serve us now: class 08 (connection), shutdown, too many clients, and
 * a transaction the database aborted to break a deadlock or a serialization conflict (the same request
 * succeeds when sent again).
 */
const unavailableStates = /^(08...|57P0[1-3]|53300|40001|40P01)$/;
/** Socket errors of a connection to a dependency that is down or unreachable. */
const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** What `pg` (pool and client) and PGlite say when the connection is gone or cannot be made. */
const lostConnection =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end|PGlite is closed)/;

/**
 * Whether an error means the database (or another dependency) is down or unreachable, rather than a bug:
 * looks through the causes Drizzle and the drivers wrap around it.
 */
export function isUnavailable(error: unknown): boolean {
  for (const current of causeChain(error, 6)) {
    const { code, syscall, message } = current as { code?: unknown; syscall?: unknown; message?: unknown };
    if (typeof code === 'string' && (unavailableStates.test(code) || unreachableCodes.has(code))) return true;
    if (syscall === 'connect') return true;
    if (typeof message === 'string' && lostConnection.test(message)) return true;
  }
  return false;
}

/**
 * An error and the causes wrapped inside it (Drizzle wraps the driver's error, which may wrap a socket's),
 * at most `depth` of them: the one walk every "what does this error really say" question uses.
 */
export function* causeChain(error: unknown, depth = 5): Generator<object> {
  let current: unknown = error;
  for (let i = 0; current && typeof current === 'object' && i < depth; i++) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

/**
 * The one mapping from a thrown value to the answer a caller gets: an AppError as it is, an outage of the
 * database as SERVICE_UNAVAILABLE (503, retry shortly); anything else is a bug (undefined: a logged 500).
 */
export function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (isUnavailable(error)) return Object.assign(unavailable(), { cause: error });
  return undefined;
}

/**
 * What a caller is told of a failure: the one mapping from a thrown value to an answer, which the GraphQL and
 * REST adapters only put in their shapes (`extensions.code` and `.fields`, or a status and `{message, errors}`).
 * A bug answers 500 and nothing about itself; `log` says what the adapter logs with its own context.
 */
export interface ErrorAnswer {
  status: number;
  code: ErrorCode | 'INTERNAL_SERVER_ERROR';
  message: string;
  fields?: FieldErrors;
  /** Seconds to wait before asking again (RATE_LIMITED). */
  retryAfterSeconds?: number;
  /** `warn`: a dependency is down (retry shortly); `error`: a bug. Neither for a caller's mistake. */
  log?: 'warn' | 'error';
  /** What to log. */
  cause?: unknown;
}

export function errorAnswer(error: unknown): ErrorAnswer {
  const known = toAppError(error);
  if (!known)
    return { status: 500, code: 'INTERNAL_SERVER_ERROR', message: internalErrorMessage, log: 'error', cause: error };
  return {
    status: httpStatusOf[known.code],
    code: known.code,
    message: known.message,
    ...(known.fields ? { fields: known.fields } : {}),
    ...(known.retryAfterSeconds !== undefined ? { retryAfterSeconds: known.retryAfterSeconds } : {}),
    ...(known.code === 'SERVICE_UNAVAILABLE' ? { log: 'warn' as const, cause: known.cause ?? known } : {}),
  };
}

/**
 * Whether a failure is a refusal (bad input, no right, not found, a conflict, a rate limit), which by the house
 * rule changed nothing; an outage or a bug may have happened after a change (issue 32: what a write invalidates).
 */
export const isRefusal = (error: unknown): boolean => errorAnswer(error).status < 500;
