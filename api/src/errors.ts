import type { FieldErrors } from '@partsyard/common';

export type ErrorCode = 'UNAUTHENTICATED' | 'FORBIDDEN' | 'BAD_USER_INPUT' | 'NOT_FOUND' | 'CONFLICT';

/** HTTP status of each code: the one mapping used by the REST shim and by GraphQL responses. */
export const httpStatusOf: Record<ErrorCode, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  BAD_USER_INPUT: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
};

/** An expected failure, with a code the caller can act on and a message a person can read. */
export class AppError extends Error {
  constructor(
    public readonly code: ErrorCode,
    message: string,
    /** Per-field messages for BAD_USER_INPUT. */
    public readonly fields?: FieldErrors,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const unauthenticated = (message = 'Sign in to continue') => new AppError('UNAUTHENTICATED', message);
export const forbidden = (message = 'You are not allowed to do this') => new AppError('FORBIDDEN', message);
export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new AppError('CONFLICT', message);

/** BAD_USER_INPUT carrying per-field messages; the message names the first of them. */
export function badInput(fields: FieldErrors): AppError {
  const first = Object.values(fields)[0] ?? 'Invalid input';
  return new AppError('BAD_USER_INPUT', first, fields);
}
