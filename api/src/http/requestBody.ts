import express from 'express';

/** The largest JSON body /graphql and /api accept (the Stripe webhook reads its own, up to 1 MB). */
export const bodyLimitBytes = 100 * 1024;

/** The JSON body parser of /graphql and /api. */
export const jsonBody = () => express.json({ limit: bodyLimitBytes });

export interface BodyRefusal {
  status: number;
  /** For GraphQL's error shape. */
  code: 'PAYLOAD_TOO_LARGE' | 'BAD_REQUEST' | 'UNSUPPORTED_MEDIA_TYPE';
  message: string;
}

/**
 * What a body parser's failure means for the caller: one mapping, answered by the REST shim as
 * `{message}` and by /graphql in GraphQL's error shape. Null for any other error.
 */
export function bodyRefusal(error: unknown): BodyRefusal | null {
  switch ((error as { type?: unknown } | null)?.type) {
    case 'entity.too.large':
      return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' };
    case 'entity.parse.failed':
      return { status: 400, code: 'BAD_REQUEST', message: 'Request body is not valid JSON' };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Request body must be JSON in UTF-8' };
    case 'request.aborted':
    case 'request.size.invalid':
      return { status: 400, code: 'BAD_REQUEST', message: 'Request body was cut short' };
    default: {
      // A compressed body that does not inflate: the parser passes zlib's error on, marked 400.
      const { status, expose } = (error ?? {}) as { status?: unknown; expose?: unknown };
      if (status === 400 && expose === true) {
        return { status: 400, code: 'BAD_REQUEST', message: 'Request body could not be decompressed' };
      }
      return null;
    }
  }
}
