import { gzipSync } from 'node:zlib';
import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControl } from '@apollo/server/plugin/cacheControl';
import type { NextFunction, Request, Response } from 'express';
import { OperationTypeNode } from 'graphql';
import type { GraphQLContext } from './context';

/**
 * Caching of public answers (docs/decisions.md, "Caching and speed").
 *
 * - Hints: `@cacheControl(maxAge)` in schema.graphql marks the public queries (parts, part, popularParts,
 *   reviews, the client settings); Apollo adds up an answer's policy from the fields it holds.
 * - Headers: an anonymous query whose answer is public and without errors carries
 *   `Cache-Control: public, max-age=0, s-maxage=<maxAge>` (shared caches keep it that long, browsers
 *   revalidate every time with the ETag); everything else, and anything asked with a token, `no-store`.
 * - This process is its own shared cache: `publicAnswerCache` keeps such answers in memory for their
 *   s-maxage and answers the same anonymous request with them, before Apollo runs.
 * - A write made by this process (a GraphQL mutation once its operation is resolved; a REST call other than
 *   GET/HEAD/OPTIONS once its route is matched and its body parsed) drops every cached answer when it starts
 *   and again when it ends, and nothing is read from or stored in the cache while one is in flight: a caller
 *   who asks after a write of this process has answered reads the database. A request whose body never
 *   finishes, or that matches no route, is no write and leaves the cache on.
 * - Each write's end is announced to the other replicas (PostgreSQL NOTIFY or Redis pub/sub,
 *   api/src/writeBus.ts), which drop their answers too: a part added on one shows on all at once.
 */

export interface WriteTracker {
  /** Marks a write as started; the function answered marks it finished (calling it again does nothing). */
  begin(): () => void;
  /** The generation a read starting now may use and fill the cache under; null while a write is in flight. */
  readableGeneration(): number | null;
  /** Whether an answer read under `generation` may be stored: no write has started since. */
  isCurrent(generation: number): boolean;
  /** Another replica wrote: nothing kept before now may be answered again. */
  invalidate(): void;
}

/** `onWriteEnd`: called as each write of this process ends (the replicas are told: api/src/writeBus.ts). */
export function createWriteTracker(onWriteEnd: () => void = () => {}): WriteTracker {
  let generation = 0;
  let inFlight = 0;
  return {
    begin() {
      generation++;
      inFlight++;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        inFlight--;
        generation++;
        onWriteEnd();
      };
    },
    invalidate() {
      generation++;
    },
    readableGeneration: () => (inFlight > 0 ? null : generation),
    isCurrent: (read) => inFlight === 0 && read === generation,
  };
}

/** A caller without a token. A caller with any token, even one refused, is never answered from a cache. */
const isAnonymous = (context: GraphQLContext) => !context.credentials;

/** The Apollo plugins of caching: the cache hints, and the Cache-Control header they lead to. */
export function cachingPlugins(writes: WriteTracker): ApolloServerPlugin<GraphQLContext>[] {
  // The hints of schema.graphql add up to each answer's policy; the header is written below. Only an anonymous
  // request's answer may be cached, so only it pays for the hints: Apollo's plugin hooks into every field it
  // resolves (a page of 20 orders: 300 fields), which a signed-in request, never cached, does not need.
  const hints = ApolloServerPluginCacheControl({ calculateHttpHeaders: false });
  const hintsForAnonymousRequests: ApolloServerPlugin<GraphQLContext> = {
    // Apollo installs its own (for every request) unless a plugin carries this id.
    ...({ __internal_plugin_id__: 'CacheControl', __is_disabled_plugin__: false } as object),
    serverWillStart: async (service) => hints.serverWillStart?.(service),
    requestDidStart: async (request) =>
      isAnonymous(request.contextValue) ? hints.requestDidStart?.(request) : undefined,
  };
  return [
    hintsForAnonymousRequests,
    {
      async requestDidStart({ contextValue }) {
        let endWrite: (() => void) | undefined;
        return {
          async didResolveOperation({ operation, overallCachePolicy }) {
            if (operation?.operation === OperationTypeNode.MUTATION) endWrite = writes.begin();
            // Only an anonymous query may be cached; deciding it now also spares the per-field hints.
            if (operation?.operation !== OperationTypeNode.QUERY || !isAnonymous(contextValue))
              overallCachePolicy.restrict({ maxAge: 0 });
          },
          async willSendResponse({ response, overallCachePolicy, requestIsBatched, operation }) {
            endWrite?.();
            const policy = overallCachePolicy.policyIfCacheable();
            const cacheable =
              policy?.scope === 'PUBLIC' &&
              operation?.operation === OperationTypeNode.QUERY &&
              isAnonymous(contextValue) &&
              !requestIsBatched &&
              response.body.kind === 'single' &&
              !response.body.singleResult.errors;
            response.http.headers.set(
              'cache-control',
              cacheable ? `public, max-age=0, s-maxage=${policy.maxAge}` : 'no-store',
            );
            // A cached anonymous answer must not be reused for a request that carries a token.
            response.http.headers.set('vary', 'Authorization');
          },
        };
      },
    },
  ];
}

interface CachedAnswer {
  expires: number;
  /** Until then, once expired, the answer is still given while one request fetches its successor. */
  staleUntil: number;
  stored: number;
  body: string;
  /** The body gzipped, made on the first request that accepts it (compressing on every answer costs more). */
  gzipped?: Buffer;
  headers: [string, string][];
}

/** Bodies below this are sent as they are (the compression middleware's threshold). */
const compressFrom = 1024;
const sizeOf = (key: string, answer: CachedAnswer) => key.length + answer.body.length + (answer.gzipped?.length ?? 0);

/** The response headers a cached answer keeps (the others are set per request by the middleware before). */
const keptHeaders = ['content-type', 'cache-control', 'vary', 'etag'];
const sharedMaxAge = /(?:^|,)\s*s-maxage=(\d+)/;

/**
 * Express middleware for /graphql, after the body parser: answers an anonymous request from memory when the
 * same request (method, URL, body and the headers Apollo's answer depends on) got a public answer within its
 * s-maxage and no write of this process has started since; otherwise lets Apollo answer, and keeps that
 * answer if it is public. Bounded by `maxBytes`: the least recently used answers go first.
 *
 * Once an answer has expired, the next request for it goes to Apollo and keeps the new answer; the requests
 * that come meanwhile, up to one more s-maxage after expiry, get the expired one (its Age tells), instead of
 * all running the same query at once when a popular answer expires under load.
 */
export function publicAnswerCache(writes: WriteTracker, { maxBytes = 16 * 1024 * 1024, now = Date.now } = {}) {
  const answers = new Map<string, CachedAnswer>();
  let bytes = 0;
  let answersGeneration = -1;
  const drop = (key: string, answer: CachedAnswer) => {
    answers.delete(key);
    bytes -= sizeOf(key, answer);
  };
  /** Keys whose expired answer one request is fetching again. */
  const refreshing = new Set<string>();
  const keep = (key: string, answer: CachedAnswer) => {
    const previous = answers.get(key);
    if (previous) drop(key, previous);
    answers.set(key, answer);
    bytes += sizeOf(key, answer);
    for (const [oldest, old] of answers) {
      if (bytes <= maxBytes) break;
      drop(oldest, old);
    }
  };

  return (req: Request, res: Response, next: NextFunction) => {
    const generation = writes.readableGeneration();
    const body: unknown = req.body;
    if (
      generation === null ||
      req.headers.authorization !== undefined ||
      (req.method !== 'GET' && req.method !== 'POST') ||
      Array.isArray(body)
    ) {
      return next();
    }
    if (generation !== answersGeneration) {
      // A write happened: nothing kept before it may be answered again.
      answers.clear();
      refreshing.clear();
      bytes = 0;
      answersGeneration = generation;
    }
    const key = [
      req.method,
      req.originalUrl,
      req.headers.accept,
      req.headers['content-type'],
      req.headers['apollo-require-preflight'],
      req.headers['x-apollo-operation-name'],
      req.method === 'POST' ? JSON.stringify(body) : '',
    ].join('\n');

    const cached = answers.get(key);
    const time = now();
    if (cached && cached.staleUntil <= time) drop(key, cached);
    else if (cached && cached.expires <= time && !refreshing.has(key)) {
      // Expired: this request fetches the answer again; until that one is kept, the others get this one.
      refreshing.add(key);
      res.once('close', () => refreshing.delete(key));
    } else if (cached) {
      // Fresh, or expired while another request fetches its successor.
      const gzip = cached.body.length >= compressFrom && req.acceptsEncodings('gzip') === 'gzip';
      if (gzip) cached.gzipped ??= gzipSync(cached.body);
      keep(key, cached); // now the most recently used (an expired one is given only while it is refreshed)
      for (const [name, value] of cached.headers) res.setHeader(name, value);
      res.setHeader('Age', String(Math.floor((time - cached.stored) / 1000)));
      if (!gzip || !cached.gzipped) {
        res.send(cached.body);
        return;
      }
      // Already encoded: the compression middleware lets it through (and adds Vary: Accept-Encoding).
      res.setHeader('Content-Encoding', 'gzip');
      res.send(cached.gzipped);
      return;
    }

    // Apollo's Express integration answers a complete body with one res.send(string).
    const send = res.send.bind(res);
    res.send = (answer?: unknown) => {
      res.send = send;
      const seconds = Number(sharedMaxAge.exec(String(res.getHeader('cache-control') ?? ''))?.[1] ?? 0);
      if (!(seconds > 0 && res.statusCode === 200 && typeof answer === 'string' && writes.isCurrent(generation))) {
        return send(answer);
      }
      const stored = now();
      const result = send(answer);
      // The headers as sent, with the ETag that res.send computed.
      const headers: [string, string][] = [];
      for (const name of keptHeaders) {
        const value = res.getHeader(name);
        if (value !== undefined) headers.push([name, String(value)]);
      }
      keep(key, {
        stored,
        expires: stored + seconds * 1000,
        staleUntil: stored + 2 * seconds * 1000,
        body: answer,
        headers,
      });
      refreshing.delete(key);
      return result;
    };
    next();
  };
}
