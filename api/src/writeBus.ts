import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { Client, type Pool } from 'pg';
import { describeError, logger } from './logger';

/**
 * Tells the other replicas that a write of this one changed something, so that they drop their public answer cache at once
 * (api/src/http/answerCache.ts; docs/decisions.md, "Running in production"): PostgreSQL LISTEN/NOTIFY in
 * production mode, Redis pub/sub when REDIS_URL is set, nothing in the embedded default (one process).
 *
 * A replica whose listening connection drops reconnects and then drops its cache (it may have missed a
 * notice); meanwhile its answers are at most s-maxage old, as without this.
 */
export interface WriteBus {
  /** Announces that a write of this process changed something. Never throws. */
  announce(): void;
  /** Calls `onWrite` when another replica announces a write (or when notices may have been missed). */
  listen(onWrite: () => void): Promise<void>;
  close(): Promise<void>;
}

const channel = 'partsyard_public_answers';

/**
 * One notice at a time: a write that ends while a notice is on its way is announced by one more notice sent
 * when that one is done, which covers every write that ended meanwhile. Each write is still announced after it
 * ended, at most one round trip later than alone; under many writes a second (a race for one part: about 2,000
 * refused orders a second on the bench) the replicas get a few notices instead of one each, and this process
 * no longer spends a round trip per write on them (issue 15).
 */
export function oneNoticeAtATime(send: () => Promise<unknown>): () => void {
  let sending = false;
  let again = false;
  const run = () => {
    sending = true;
    let notice: Promise<unknown>;
    try {
      notice = send();
    } catch {
      notice = Promise.resolve(); // a send that throws at once failed too: the next write still gets one
    }
    notice
      .catch(() => undefined)
      .finally(() => {
        sending = false;
        if (!again) return;
        again = false;
        run();
      });
  };
  return () => {
    if (sending) again = true;
    else run();
  };
}

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
    announce: oneNoticeAtATime(() => pool.query('select pg_notify($1, $2)', [channel, origin])),
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
    announce: oneNoticeAtATime(() => client.publish(name, origin)),
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
