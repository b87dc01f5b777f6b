import { isIP } from 'node:net';
import type { Request } from 'express';
import type { RateLimitRule, RateLimits } from '../config';
import { AppError } from '../errors';

/**
 * Rate limits on the operations a script could abuse: exchanging sign-in tokens, sending contact messages,
 * placing orders (unpaid orders hold stock). The services apply them (one rule for GraphQL and REST; each
 * operation of a GraphQL batch or each alias counts). Counters live in this process's memory: with
 * several replicas each counts on its own, so a caller spread over N replicas gets up to N times the limit.
 * A shared store (Redis) would make the limits exact across replicas; not needed at this shop's scale.
 */

/** Where a call came from: the client address Express saw (`req.ip`; proxies are trusted on loopback only). */
export interface Client {
  address: string;
}

export const clientOf = (req: Request): Client => ({ address: req.ip ?? req.socket.remoteAddress ?? '' });

/** RATE_LIMITED (429): the caller may try again after `retryAfterSeconds` (sent as Retry-After). */
export class RateLimitedError extends AppError {
  constructor(
    message: string,
    public readonly retryAfterSeconds: number,
  ) {
    super('RATE_LIMITED', message);
    this.name = 'RateLimitedError';
  }
}

/**
 * The key an address is counted under: an IPv4 address as it is (also when IPv4-mapped, `::ffff:a.b.c.d`),
 * an IPv6 address by its /64 prefix, since one subscriber usually holds a whole /64.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (isIP(address) !== 6) return address;
  const [head, tail = ''] = address.toLowerCase().split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * Fixed-window counters: each key may make `max` attempts in a window that starts at its first attempt.
 * Refused attempts do not count, nor do attempts handed back with `unhit`. Expired windows are swept once per window length; past `maxKeys` keys the
 * oldest are dropped (a flood of addresses costs bounded memory).
 */
export function createWindowCounter(rule: RateLimitRule, now: () => number, maxKeys = 100_000) {
  const windows = new Map<string, { start: number; count: number }>();
  let nextSweep = 0;
  const sweep = (t: number) => {
    for (const [key, w] of windows) if (t - w.start >= rule.windowMs) windows.delete(key);
    nextSweep = t + rule.windowMs;
  };
  return {
    /** Counts an attempt by `key`: 0 if allowed, else the milliseconds until the key may try again. */
    hit(key: string): number {
      const t = now();
      if (t >= nextSweep) sweep(t);
      let w = windows.get(key);
      if (!w || t - w.start >= rule.windowMs) {
        windows.delete(key);
        while (windows.size >= maxKeys) windows.delete(windows.keys().next().value as string);
        w = { start: t, count: 0 };
        windows.set(key, w);
      }
      if (w.count >= rule.max) return Math.max(1, w.start + rule.windowMs - t);
      w.count += 1;
      return 0;
    },
    /**
     * Takes back one attempt of `key` counted by `hit` (the attempt was refused after all), if its window is
     * still the one it was counted in.
     */
    unhit(key: string, countedAt: number): void {
      const w = windows.get(key);
      if (w && w.count > 0 && countedAt >= w.start && countedAt - w.start < rule.windowMs) w.count -= 1;
    },
    get size() {
      return windows.size;
    },
  };
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** "45 seconds", "1 minute", "10 minutes", "1 hour": rounded up. */
export function waitInWords(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return plural(seconds, 'second');
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return plural(minutes, 'minute');
  return plural(Math.ceil(minutes / 60), 'hour');
}

/** The shop's rate limits (settings in config.ts). `now` is injectable for tests. */
export function createRateLimits(settings: RateLimits, now: () => number = Date.now) {
  const counter = (rule: RateLimitRule | null) => (rule ? createWindowCounter(rule, now) : null);
  const counters = {
    signInPerAddress: counter(settings.signInPerAddress),
    signInPerEmail: counter(settings.signInPerEmail),
    contactPerAddress: counter(settings.contactPerAddress),
    ordersPerUser: counter(settings.ordersPerUser),
    ordersPerAddress: counter(settings.ordersPerAddress),
  };
  const check = (rule: keyof typeof counters, key: string, refusal: string) => {
    const wait = counters[rule]?.hit(key) ?? 0;
    if (wait > 0) throw new RateLimitedError(`${refusal} Try again in ${waitInWords(wait)}.`, Math.ceil(wait / 1000));
  };
  /** Hands back an attempt counted at `countedAt` under `rule`. */
  const giveBack = (rule: keyof typeof counters, key: string, countedAt: number) =>
    counters[rule]?.unhit(key, countedAt);
  return {
    /** Before a sign-in token is even verified: per client address. */
    signInFrom(client: Client | undefined) {
      if (client) check('signInPerAddress', addressKey(client.address), 'Too many sign-in attempts from your network.');
    },
    /** After the token is verified (so nobody can use up another person's allowance): per email. */
    signInAs(email: string) {
      check('signInPerEmail', email.toLowerCase(), 'Too many sign-ins to this account.');
    },
    contactFrom(client: Client | undefined) {
      if (client) check('contactPerAddress', addressKey(client.address), 'Too many messages sent from your network.');
    },
    /**
     * Counts an order about to be placed, per address and per user; answers how to give the attempt back if
     * the order is then refused (bad input, no stock, the unpaid cap): only accepted orders use up the limits.
     * The attempt is counted before the order is checked, so concurrent orders cannot all slip past a limit.
     */
    orderBy(userId: string, client: Client | undefined): { refused(): void } {
      const countedAt = now();
      const address = client ? addressKey(client.address) : null;
      if (address) check('ordersPerAddress', address, 'Too many orders placed from your network.');
      try {
        check('ordersPerUser', userId, 'You are placing orders too quickly.');
      } catch (error) {
        if (address) giveBack('ordersPerAddress', address, countedAt);
        throw error;
      }
      return {
        refused() {
          if (address) giveBack('ordersPerAddress', address, countedAt);
          giveBack('ordersPerUser', userId, countedAt);
        },
      };
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimits>;
