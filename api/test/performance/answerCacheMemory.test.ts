import { EventEmitter } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Request, Response } from 'express';
import type { AnswerKeeper } from '../../src/http/apolloHandler';
import { createWriteTracker, publicAnswerCache } from '../../src/http/answerCache';

/**
 * The public answer cache's bound is memory (issue 32): cache-busting requests (`POST /graphql?x=N`) filled the
 * 16 MiB it was allowed with 121,000 tiny answers holding about 58 MiB of heap. A query string or body field that
 * Apollo never reads makes no entry of its own, and each entry is counted with what it holds in memory.
 *
 * The requests go straight to the middleware, shaped as Express hands them over and answered as Apollo answers
 * (a fresh body string each time, its headers), so that 100,000 of them take a second, not minutes over HTTP.
 * `caching.test.ts` sends such requests to the app itself.
 */

type Cache = ReturnType<typeof publicAnswerCache>;
interface Asked {
  method: 'GET' | 'POST';
  /** After /graphql: '' or a query string. */
  search?: string;
  body?: unknown;
}

const query = '{ clientSettings { demoMode } }';

/** Sends one anonymous request through the cache: 'memory' if it answered, 'apollo' if the request went on. */
function ask(cache: Cache, { method, search = '', body }: Asked): 'memory' | 'apollo' {
  let answeredBy: 'memory' | 'apollo' = 'memory';
  const req = Object.assign(new EventEmitter(), {
    method,
    url: `/${search}`,
    originalUrl: `/graphql${search}`,
    headers: { accept: '*/*', 'content-type': 'application/json' },
    body: body === undefined ? {} : JSON.parse(JSON.stringify(body)),
    acceptsEncodings: () => false,
  }) as unknown as Request;
  const headers = new Map<string, unknown>();
  const res = Object.assign(new EventEmitter(), {
    locals: {},
    statusCode: 200,
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), value),
    send: () => undefined,
    end: () => undefined,
  }) as unknown as Response;
  cache(req, res, () => {
    answeredBy = 'apollo';
    const answer = JSON.stringify({ data: { clientSettings: { demoMode: false } } });
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.setHeader('vary', ['Accept-Encoding', 'Authorization'].join(', '));
    // Express gives a GET's answer an ETag (http/apolloHandler.ts, sendAnswer), made of several strings.
    if (method === 'GET')
      res.setHeader('etag', `W/"${answer.length.toString(16)}-${Math.random().toString(36).slice(2)}"`);
    res.setHeader('cache-control', 'public, max-age=0, s-maxage=10');
    (res.locals as AnswerKeeper).keepAnswer?.(answer);
  });
  return answeredBy;
}

describe('the public answer cache’s key', () => {
  it('a query string or body field Apollo never reads makes no entry: 100,000 cache-busting POSTs are one answer', () => {
    const cache = publicAnswerCache(createWriteTracker());
    const answeredBy = { memory: 0, apollo: 0 };
    for (let i = 0; i < 100_000; i++) {
      answeredBy[ask(cache, { method: 'POST', search: `?x=${i}`, body: { query, variables: {}, x: i } })]++;
    }
    expect(answeredBy).toEqual({ memory: 99_999, apollo: 1 });
    expect(cache.kept().answers).toBe(1);
  });

  it('a GET is keyed by the parameters Apollo reads, its variables as Apollo parses them', () => {
    const cache = publicAnswerCache(createWriteTracker());
    const get = (params: Record<string, string>) =>
      ask(cache, { method: 'GET', search: `?${new URLSearchParams(params)}` });
    expect(get({ query, variables: '{"limit":6}' })).toBe('apollo');
    expect(get({ _: '1', query, variables: '{ "limit": 6 }', utm_source: 'mail' })).toBe('memory');
    expect(get({ variables: '{"limit":6}', query, _: '2' })).toBe('memory');
    // What Apollo reads still tells requests apart.
    expect(get({ query, variables: '{"limit":7}' })).toBe('apollo');
    expect(get({ query, variables: '{"limit":6}', operationName: 'Home' })).toBe('apollo');
    expect(get({ query: `${query} `, variables: '{"limit":6}' })).toBe('apollo');
    expect(ask(cache, { method: 'POST', body: { query, variables: { limit: 6 } } })).toBe('apollo');
    expect(cache.kept().answers).toBe(5);
  });
});

describe('the public answer cache’s bound', () => {
  // A full collection before each heap reading (a flag a running process may turn on for the contexts it makes).
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const heapUsed = () => {
    for (let i = 0; i < 3; i++) gc();
    return process.memoryUsage().heapUsed;
  };
  const MiB = 1024 * 1024;

  /**
   * A cache of `maxBytes` sent 40,000 requests with distinct variables, what it says it keeps, and a holder of it
   * alone (made in a function of its own, so that no register of the test's frame keeps the cache alive).
   */
  const filled = (method: 'GET' | 'POST', maxBytes: number) => {
    const cache = publicAnswerCache(createWriteTracker(), { maxBytes });
    for (let i = 0; i < 40_000; i++) {
      ask(
        cache,
        method === 'POST'
          ? { method, body: { query, variables: { x: i } } }
          : { method, search: `?${new URLSearchParams({ query, variables: JSON.stringify({ x: i }) })}` },
      );
    }
    const held: { cache?: Cache } = { cache };
    return { held, kept: cache.kept() };
  };

  it.each(['POST', 'GET'] as const)(
    'is the memory its answers hold: 40,000 distinct tiny answers over %s hold about its 4 MiB',
    (method) => {
      const maxBytes = 4 * MiB;
      const { held, kept } = filled(method, maxBytes);
      // The heap the kept answers hold: what is freed once the cache is dropped.
      const withAnswers = heapUsed();
      held.cache = undefined;
      const heldMiB = (withAnswers - heapUsed()) / MiB;
      const { answers, bytes } = kept;
      expect(heldMiB).toBeGreaterThan(3);
      expect(heldMiB).toBeLessThan(4.5); // the bound, give or take the measure's noise
      expect(bytes).toBeLessThanOrEqual(maxBytes);
      expect(answers).toBeLessThan(40_000); // the bound was reached: the oldest went
    },
  );
});
