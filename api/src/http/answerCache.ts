import { gzipSync } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { sendAnswer, type AnswerKeeper } from './apolloHandler';

/**
 * This process as a shared cache of public answers (docs/decisions.md, "Caching and speed"); the GraphQL side,
 * which decides what is public and writes the Cache-Control header, is `graphql/caching.ts`.
 *
 * - `publicAnswerCache` keeps anonymous public answers in memory for their s-maxage and answers the same
 *   anonymous request with them, before Apollo runs.
 * - A write of this process that changed something drops every cached answer before its answer is sent (a
 *   GraphQL mutation one of whose fields resolved; a REST call other than GET/HEAD/OPTIONS that succeeded), and
 *   its change is announced to the other replicas (PostgreSQL NOTIFY or Redis pub/sub, api/src/writeBus.ts),
 *   which drop theirs too: a part added on one shows on all at once. A refused write (401, 403, 400, 404, 409,
 *   429: a refusal changes nothing) drops nothing and announces nothing, so strangers cannot empty the caches
 *   by sending writes they may not make (issue 32). A failure that is not a refusal (a bug, the database lost
 *   mid-write) may have changed something, and counts as a change.
 * - What that guarantees, through one counter (the generation) that each change moves: a caller who asks after
 *   a write of this process has answered reads the database, since the generation moved before that answer was
 *   sent. An answer is kept only if the generation has not moved since its read began: a read racing a write
 *   never keeps a pre-write answer once the write has changed the generation, and one kept before that moment
 *   is dropped by it (the generation is compared on the next request). While a write runs, before its change is
 *   counted, the cache still answers: such a read is concurrent with the write, and may see the shop as before
 *   it, as a read of another replica does until the notice arrives. (Until issue 32 every write, refused or not,
 *   dropped the cache when it began and turned it off while it ran: a loop of refused writes kept it off.)
 */

export interface WriteTracker {
  /** The generation now: an answer read from now on may be kept under it while it lasts. */
  generation(): number;
  /** Whether an answer read under `generation` may be kept: nothing has changed since. */
  isCurrent(generation: number): boolean;
  /** A write of this process changed something (called before its answer is sent): the replicas are told. */
  changed(): void;
  /** Another replica changed something: nothing kept before now may be answered again. */
  invalidate(): void;
}

/** `onChange`: called on each change this process makes (the replicas are told: api/src/writeBus.ts). */
export function createWriteTracker(onChange: () => void = () => {}): WriteTracker {
  let generation = 0;
  return {
    generation: () => generation,
    isCurrent: (read) => read === generation,
    changed() {
      generation++;
      onChange();
    },
    invalidate() {
      generation++;
    },
  };
}

interface CachedAnswer {
  stored: number;
  /** How long it is fresh (its s-maxage). */
  seconds: number;
  /** From then on, the answer is given only while one request fetches its successor. */
  expires: number;
  body: string;
  /** The body gzipped, made on the first request that accepts it (compressing on every answer costs more). */
  gzipped?: Buffer;
  headers: [string, string][];
}

/** What shared caches are told about a public answer: keep it `seconds`, browsers revalidate each time. */
export const publicCacheControl = (seconds: number) => `public, max-age=0, s-maxage=${seconds}`;

/**
 * Lets this process keep the answer being sent to a request with credentials for `seconds`: GraphQL says so for
 * a public answer whose operation never looked at the caller (graphql/caching.ts).
 */
export function shareAnswer(res: Response, seconds: number): void {
  (res.locals as { shareableSeconds?: number }).shareableSeconds = seconds;
}

/** Bodies below this are sent as they are (the compression middleware's threshold). */
const compressFrom = 1024;

/**
 * The response headers a cached answer keeps (the others are set per request by the middleware before;
 * Cache-Control is written for each request: public for one without credentials, no-store for one with).
 */
const keptHeaders = ['content-type', 'vary', 'etag'];
const sharedMaxAge = /(?:^|,)\s*s-maxage=(\d+)/;

/** What Apollo reads of a request (its runHttpQuery): these fields of a POST's body, or of a GET's query string. */
const operationFields = ['query', 'operationName', 'variables', 'extensions'] as const;

/** A GET's `variables` or `extensions` as Apollo parses them (spacing aside); as sent if it is no JSON. */
function parsedParameter(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * What an answer depends on: the method, the operation as Apollo reads it, and the request headers it negotiates
 * with (but not the credentials). Nothing else of the URL or the body: a POST's query string, a parameter or a
 * body field Apollo never reads (`?x=1`, `"x": 1`) is the same request, and may not fill the cache with copies of
 * one answer (issue 32). Undefined for a POST whose body is no JSON object (Apollo refuses it).
 */
function requestKey(req: Request): string | undefined {
  let operation: unknown[];
  if (req.method === 'POST') {
    const body: unknown = req.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
    operation = operationFields.map((name) => (body as Record<string, unknown>)[name]);
  } else {
    const at = req.url.indexOf('?');
    const search = new URLSearchParams(at < 0 ? '' : req.url.slice(at + 1));
    operation = operationFields.map((name) => {
      const values = search.getAll(name);
      // Given twice, Apollo refuses it (never kept); kept apart all the same.
      if (values.length !== 1) return values.length ? values : undefined;
      return name === 'variables' || name === 'extensions' ? parsedParameter(values[0]) : values[0];
    });
  }
  return JSON.stringify([
    req.method,
    ...operation,
    req.headers.accept,
    req.headers['content-type'],
    req.headers['apollo-require-preflight'],
    req.headers['x-apollo-operation-name'],
  ]);
}

/**
 * The heap an entry holds besides its characters (issue 32). Measured by filling the cache with tiny answers
 * (a 46-byte body, a key of about 105 characters) and comparing the heap after a full GC: through the app
 * (4,000 anonymous requests with distinct variables) a POST's answer held about 860 bytes and a GET's (an ETag
 * too) about 960, where key and body counted 150, so that the 16 MiB the cache was allowed could hold some
 * 90 MiB. Counted now: `answerOverheadBytes` for the answer, its key in lru-cache's map and lists, its size and
 * times; `answerPartBytes` for each header (its pair; an ETag is made of several strings) and for the gzipped
 * body's Buffer; then the characters, two bytes each in a string V8 keeps wide. That is 860 and 1,010 bytes for
 * those two (docs/decisions.md, "Caching and speed").
 */
const answerOverheadBytes = 400;
const answerPartBytes = 128;
/** Characters V8 keeps in two bytes each: a string holding one is two bytes a character throughout. */
const wide = /[\u0100-\uffff]/;
const heapBytes = (text: string) => (wide.test(text) ? 2 : 1) * text.length;
/** An entry's size, as near as can be told of the memory it holds. */
const answerSize = (answer: CachedAnswer, key: string) => {
  let size = answerOverheadBytes + heapBytes(key) + heapBytes(answer.body);
  for (const [, value] of answer.headers) size += answerPartBytes + value.length;
  if (answer.gzipped) size += answerPartBytes + answer.gzipped.length;
  return size;
};

/**
 * Express middleware for /graphql, after the body parser: answers a request from memory when the same request
 * (`requestKey`: the operation as Apollo reads it, the headers its answer depends on) got a public answer
 * within its s-maxage and no write has changed anything since; otherwise lets Apollo answer, and keeps
 * that answer if it is public. Only answers anyone gets are kept: an anonymous public one, or one to a request
 * with credentials that GraphQL marks shareable (`shareAnswer`: its operation never looked at the caller); an
 * answer that needs the caller has no public hints and is never kept, so it is never found here. A request
 * asking `Cache-Control: no-cache` is answered afresh (and its answer kept). Bounded by `maxBytes` of memory,
 * each answer counted with what it costs besides its characters (`answerOverheadBytes`): the least recently used
 * answers go first.
 *
 * Once an answer has expired, the next request for it goes to Apollo and keeps the new answer; the requests
 * that come meanwhile, up to one more s-maxage after expiry, get the expired one (its Age tells), instead of
 * all running the same query at once when a popular answer expires under load.
 *
 * The storage is lru-cache (size bound, least recently used first, an entry gone after its ttl: the s-maxage
 * and the stale one after it); the freshness and the one refresh at a time are ours, on top.
 */
export function publicAnswerCache(writes: WriteTracker, { maxBytes = 16 * 1024 * 1024, now = Date.now } = {}) {
  const answers = new LRUCache<string, CachedAnswer>({
    maxSize: maxBytes,
    sizeCalculation: answerSize,
    // The same clock as `expires` (tests move it); read on every look-up, not cached for a tick.
    perf: { now },
    ttlResolution: 0,
  });
  let answersGeneration = -1;
  /** Keys whose expired answer one request is fetching again. */
  const refreshing = new Set<string>();

  const middleware = (req: Request, res: Response, next: NextFunction) => {
    const generation = writes.generation();
    // A batch (a POST of an array) is never kept: its answers are GraphQL's to join.
    const key = req.method === 'GET' || req.method === 'POST' ? requestKey(req) : undefined;
    if (key === undefined) return next();
    const credentials = req.headers.authorization !== undefined;
    if (generation !== answersGeneration) {
      // A write changed something: nothing kept before it may be answered again.
      answers.clear();
      refreshing.clear();
      answersGeneration = generation;
    }

    // Gone after its stale time; `get` also makes it the most recently used.
    const cached = /\bno-cache\b/i.test(req.headers['cache-control'] ?? '') ? undefined : answers.get(key);
    const time = now();
    if (cached && cached.expires <= time && !refreshing.has(key)) {
      // Expired: this request fetches the answer again; until that one is kept, the others get this one.
      refreshing.add(key);
      res.once('close', () => refreshing.delete(key));
    } else if (cached) {
      // Fresh, or expired while another request fetches its successor.
      let answer = cached;
      const gzip = answer.body.length >= compressFrom && req.acceptsEncodings('gzip') === 'gzip';
      if (gzip && !answer.gzipped) {
        // Kept again with its gzipped body counted in its size, for the time it had left.
        answer = { ...answer, gzipped: gzipSync(answer.body) };
        answers.set(key, answer, { noUpdateTTL: true });
      }
      for (const [name, value] of answer.headers) res.setHeader(name, value);
      res.setHeader('Cache-Control', credentials ? 'no-store' : publicCacheControl(answer.seconds));
      res.setHeader('Age', String(Math.floor((time - answer.stored) / 1000)));
      if (!gzip || !answer.gzipped) {
        sendAnswer(req, res, answer.body);
        return;
      }
      // Already encoded: the compression middleware lets it through (and adds Vary: Accept-Encoding).
      res.setHeader('Content-Encoding', 'gzip');
      sendAnswer(req, res, answer.gzipped);
      return;
    }

    // The GraphQL handler offers each complete answer once it is written (http/apolloHandler.ts).
    (res.locals as AnswerKeeper).keepAnswer = (answer: string) => {
      const seconds = credentials
        ? ((res.locals as { shareableSeconds?: number }).shareableSeconds ?? 0)
        : Number(sharedMaxAge.exec(String(res.getHeader('cache-control') ?? ''))?.[1] ?? 0);
      if (!(seconds > 0 && res.statusCode === 200 && writes.isCurrent(generation))) return;
      const stored = now();
      // The headers as sent, with the ETag that a GET's answer was given.
      const headers: [string, string][] = [];
      for (const name of keptHeaders) {
        const value = res.getHeader(name);
        if (value !== undefined) headers.push([name, String(value)]);
      }
      // lru-cache keeps an entry while its age is at most its ttl: gone from two s-maxages on.
      const ttl = 2 * seconds * 1000 - 1;
      answers.set(key, { stored, seconds, expires: stored + seconds * 1000, body: answer, headers }, { ttl });
      refreshing.delete(key);
    };
    next();
  };
  /** How many answers are kept, and their size as counted against `maxBytes`. */
  const kept = () => ({ answers: answers.size, bytes: answers.calculatedSize });
  return Object.assign(middleware, { kept });
}
