import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { Client, type Pool } from 'pg';
import { describeError, logger } from './logger';

/**
 * Tells the other replicas that this one wrote, so that they drop their public answer cache at once
 * (api/src/http/answerCache.ts; docs/decisions.md, "Running in production"): PostgreSQL LISTEN/NOTIFY in
 * production mode, Redis pub/sub when REDIS_URL is set, nothing in the embedded default (one process).
 *
 * A replica whose listening connection drops reconnects and then drops its cache (it may have missed a
 * notice); meanwhile its answers are at most s-maxage old, as without this.
 */
export interface WriteBus {
  /** Announces that a write of this process has ended. Never throws. */
  announce(): void;
  /** Calls `onWrite` when another replica announces a write (or when notices may have been missed). */
  listen(onWrite: () => void): Promise<void>;
  close(): Promise<void>;
}

const channel = 'partsyard_public_answers';

export const noWriteBus: WriteBus = {
  announce: () => {},
  listen: async () => {},
  close: async () => {},
};

/** LISTEN on a connection of its own (a pooled one cannot stay listening); NOTIFY through the pool. */
export function postgresWriteBus(url: string, pool: Pool): WriteBus {
  const origin = randomUUID();
  let listener: Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (onWrite: () => void): Promise<void> => {
    const client = new Client({ connectionString: url });
    client.on('notification', (notice) => {
      if (notice.channel === channel && notice.payload !== origin) onWrite();
    });
    const lost = () => {
      if (closed || listener !== client) return;
      listener = null;
      void client.end().catch(() => undefined);
      retry = setTimeout(() => {
        connect(onWrite).then(onWrite, () => lost());
      }, 1000);
      retry.unref();
    };
    client.on('error', (error) => {
      logger.warn('the public answer cache lost its PostgreSQL listener; reconnecting', describeError(error));
      lost();
    });
    client.on('end', lost);
    listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      lost();
      throw error;
    }
  };

  return {
    announce() {
      pool.query('select pg_notify($1, $2)', [channel, origin]).catch(() => undefined);
    },
    listen: (onWrite) => connect(onWrite),
    async close() {
      closed = true;
      clearTimeout(retry);
      await listener?.end().catch(() => undefined);
    },
  };
}

/** Redis pub/sub: a duplicate connection subscribes (ioredis resubscribes after a reconnect). */
export function redisWriteBus(client: Redis, prefix: string): WriteBus {
  const origin = randomUUID();
  const name = `${prefix}:${channel}`;
  const subscriber = client.duplicate();
  subscriber.on('error', () => undefined);
  return {
    announce() {
      client.publish(name, origin).catch(() => undefined);
    },
    async listen(onWrite) {
      subscriber.on('message', (from: string, payload: string) => {
        if (from === name && payload !== origin) onWrite();
      });
      // After a reconnect, notices may have been missed.
      subscriber.on('ready', onWrite);
      await subscriber.subscribe(name);
    },
    async close() {
      subscriber.disconnect();
    },
  };
}
