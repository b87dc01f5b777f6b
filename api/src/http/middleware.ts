import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { logger } from '../logger';

declare module 'express-serve-static-core' {
  interface Request {
    /** Correlates a request's log lines; echoed as X-Request-Id. */
    id: string;
  }
}

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Takes the caller's X-Request-Id (if sane) or makes one, and logs each request once it is answered. */
export function requestLog(enabled: boolean) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.header('x-request-id');
    req.id = incoming && /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', req.id);
    if (!enabled) return next();
    const started = process.hrtime.bigint();
    // The path only: query strings may carry emails; headers (tokens) are never logged. Decoded, so that the
    // logger's scrubbing finds an email in it (`/api/user/a%40b.example`).
    const path = decodedPath(req.originalUrl.split('?')[0]);
    res.on('finish', () => {
      logger.info('request', {
        requestId: req.id,
        method: req.method,
        path,
        status: res.statusCode,
        durationMs: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      });
    });
    next();
  };
}

/** Headers that keep browsers from sniffing, framing or leaking referrers. */
export function securityHeaders(req: Request, res: Response, next: NextFunction) {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin-allow-popups');
  // `req.secure` weighs the proxy trust (parses the peer's address): ask only when something says HTTPS.
  const maybeHttps =
    (req.socket as { encrypted?: boolean }).encrypted || req.headers['x-forwarded-proto'] !== undefined;
  if (maybeHttps && req.secure) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  next();
}

/** CORS for the configured origins only; the shop's own pages are same-origin and need none. */
export function cors(allowedOrigins: string[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.header('origin');
    if (origin && allowedOrigins.includes(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
      res.setHeader(
        'Access-Control-Allow-Headers',
        'authorization, content-type, x-request-id, apollo-require-preflight',
      );
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
      res.setHeader('Access-Control-Max-Age', '600');
      if (req.method === 'OPTIONS') {
        res.status(204).end();
        return;
      }
    }
    next();
  };
}
