import type { Request } from 'express';
import type { Client } from '../rateLimits';

/** The client address Express saw (`req.ip`; proxies are trusted on loopback only), for the rate limits. */
export const clientOf = (req: Request): Client => ({ address: req.ip ?? req.socket.remoteAddress ?? '' });
