import { isIP } from 'node:net';
import type { Redis } from 'ioredis';
import type { Pool } from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { RateLimitRule, RateLimits } from './config';
import { AppError } from './errors';

/**
 * Rate limits on the operations a script could abuse: exchanging sign-in tokens, sending contact messages,
 * placing orders (unpaid orders hold stock). The services apply them (one rule for GraphQL and REST; each
 * operation of a GraphQL batch or each alias counts); they receive the limiter at construction.
 *
 * Counted with rate-limiter-flexible in a store every replica sees (docs/decisions.md, "Running in
 * production"): Redis when REDIS_URL is set, else the PostgreSQL database (table `rate_limits`) in production
 * mode, and this process's memory only in the embedded default (one process). Fixed windows: a key may make
 * `max` attempts in a window that starts at its first attempt; refused attempts do not count.
 */

/** Where a call came from: the client address the HTTP layer saw. */
export interface Client {
  address: string;
}

/** RATE_LIMITED (429): the caller may try again after `retryAfterSeconds` (sent as Retry-After). */
export class RateLimitedError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super('RATE_LIMITED', message, undefined, retryAfterSeconds);
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

/** Mailbox providers that ignore dots in the local part (`r.a.h.i.m@gmail.com` reaches `rahim@gmail.com`). */
const dotlessDomains: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The key a recipient address is counted under: the mailbox it reaches, as far as spelling goes. Lower-cased,
 * without a `+tag` (sub-addresses most providers deliver to the same mailbox) and, at Gmail, without dots in
 * the local part; so a script cannot get around a per-recipient limit by writing one address many ways.
 */
export function recipientKey(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 1) return address;
  const domain = address.slice(at + 1).replace(/\.+$/, '');
  let local = address.slice(0, at).split('+')[0] || address.slice(0, at);
  const dotless = dotlessDomains[domain];
  if (dotless) local = local.replace(/\./g, '');
  return `${local}@${dotless ?? domain}`;
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

/** Where the counters live. */
export type RateLimitStore =
  { kind: 'memory' } | { kind: 'postgres'; pool: Pool } | { kind: 'redis'; client: Redis; keyPrefix?: string };

/** The table the PostgreSQL store counts in (a migration creates it: api/src/db/schema.ts, rateLimitCounters). */
export const rateLimitTable = 'rate_limits';

/** A fixed-window counter of one rule in `store`. */
export function createWindowCounter(store: RateLimitStore, name: string, rule: RateLimitRule) {
  const options = { keyPrefix: name, points: rule.max, duration: Math.ceil(rule.windowMs / 1000) };
  const limiter: RateLimiterAbstract =
    store.kind === 'postgres'
      ? new RateLimiterPostgres({
          ...options,
          storeClient: store.pool,
          storeType: 'pool',
          tableName: rateLimitTable,
          tableCreated: true,
          // Every 5 minutes each replica deletes the rows of windows that ended an hour ago or more.
          clearExpiredByTimeout: true,
        })
      : store.kind === 'redis'
        ? new RateLimiterRedis({
            ...options,
            keyPrefix: `${store.keyPrefix ?? 'partsyard'}:rl:${name}`,
            storeClient: store.client,
          })
        : new RateLimiterMemory(options);
  return {
    /** Counts an attempt by `key`: 0 if allowed, else the milliseconds until the key may try again. */
    async hit(key: string): Promise<number> {
      try {
        await limiter.consume(key);
        return 0;
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        // A refused attempt does not count: the window ends when it would have without it.
        await limiter.reward(key, 1);
        return Math.max(1, refusal.msBeforeNext);
      }
    },
    /**
     * Takes back one attempt of `key` counted by `hit` at `countedAt` (the attempt was refused after all), if
     * its window is still the one it was counted in.
     */
    async unhit(key: string, countedAt: number): Promise<void> {
      const current = await limiter.get(key);
      if (!current || current.consumedPoints <= 0) return;
      const windowStart = Date.now() + current.msBeforeNext - options.duration * 1000;
      if (countedAt >= windowStart) await limiter.reward(key, 1);
    },
  };
}

/** The shop's rate limits (settings in config.ts), counted in `store`. */
export function createRateLimits(settings: RateLimits, store: RateLimitStore = { kind: 'memory' }) {
  const counter = (name: string, rule: RateLimitRule | null) => (rule ? createWindowCounter(store, name, rule) : null);
  const counters = {
    signInPerAddress: counter('sign_in_address', settings.signInPerAddress),
    signInPerEmail: counter('sign_in_email', settings.signInPerEmail),
    contactPerAddress: counter('contact_address', settings.contactPerAddress),
    contactPerRecipient: counter('contact_recipient', settings.contactPerRecipient),
    ordersPerUser: counter('orders_user', settings.ordersPerUser),
    ordersPerAddress: counter('orders_address', settings.ordersPerAddress),
    paymentIntentsPerUser: counter('payment_intents_user', settings.paymentIntentsPerUser),
  };
  const check = async (rule: keyof typeof counters, key: string, refusal: string) => {
    const wait = (await counters[rule]?.hit(key)) ?? 0;
    if (wait > 0) throw new RateLimitedError(`${refusal} Try again in ${waitInWords(wait)}.`, Math.ceil(wait / 1000));
  };
  /** Hands back an attempt counted at `countedAt` under `rule`. */
  const giveBack = async (rule: keyof typeof counters, key: string, countedAt: number) =>
    counters[rule]?.unhit(key, countedAt);
  return {
    /** Before a sign-in token is even verified: per client address. */
    async signInFrom(client: Client | undefined) {
      if (client)
        await check('signInPerAddress', addressKey(client.address), 'Too many sign-in attempts from your network.');
    },
    /** After the token is verified (so nobody can use up another person's allowance): per email. */
    async signInAs(email: string) {
      await check('signInPerEmail', email.toLowerCase(), 'Too many sign-ins to this account.');
    },
    async contactFrom(client: Client | undefined) {
      if (client)
        await check('contactPerAddress', addressKey(client.address), 'Too many messages sent from your network.');
    },
    /**
     * Counts a contact form confirmation to `email` (per normalised address): whether it may be sent. Never
     * refused with 429, so the form answers the same either way and nobody learns whether a mail went out.
     */
    async contactConfirmationTo(email: string): Promise<boolean> {
      return ((await counters.contactPerRecipient?.hit(recipientKey(email))) ?? 0) === 0;
    },
    /** Counts a payment intent asked for by `userId` (reused or new: each asks the gateway), before it is. */
    async paymentIntentBy(userId: string) {
      await check('paymentIntentsPerUser', userId, 'You are starting payments too quickly.');
    },
    /**
     * Counts an order about to be placed, per address and per user; answers how to give the attempt back if
     * the order is then refused (bad input, no stock, the unpaid cap): only accepted orders use up the limits.
     * The attempt is counted before the order is checked, so concurrent orders cannot all slip past a limit.
     */
    async orderBy(userId: string, client: Client | undefined): Promise<{ refused(): Promise<void> }> {
      const countedAt = Date.now();
      const address = client ? addressKey(client.address) : null;
      if (address) await check('ordersPerAddress', address, 'Too many orders placed from your network.');
      try {
        await check('ordersPerUser', userId, 'You are placing orders too quickly.');
      } catch (error) {
        if (address) await giveBack('ordersPerAddress', address, countedAt);
        throw error;
      }
      return {
        async refused() {
          if (address) await giveBack('ordersPerAddress', address, countedAt);
          await giveBack('ordersPerUser', userId, countedAt);
        },
      };
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimits>;
