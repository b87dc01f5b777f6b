import { messages } from '@partsyard/common';
import type { Request } from 'express';
import { badInput } from '../errors';

/** A query parameter given once, as text (given twice, or as `a[b]=`, it is not text: undefined). */
export const query = (req: Request, name: string): string | undefined =>
  typeof req.query[name] === 'string' ? req.query[name] : undefined;

/** A whole number from a query parameter; other text is BAD_USER_INPUT on `field`. */
export const optionalInt = (value: string | undefined, field: string): number | undefined => {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw badInput({ [field]: messages.wholeNumber });
  return n;
};

/** A request's JSON body as an object of fields; anything else (none, an array, a scalar) as no fields. */
export const bodyOf = (req: Request): Record<string, unknown> =>
  req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
