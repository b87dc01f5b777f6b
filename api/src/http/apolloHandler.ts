import { HeaderMap, type ApolloServer, type BaseContext } from '@apollo/server';
import type { Request, Response } from 'express';

/** Set by the public answer cache on a request whose answer it may keep (http/answerCache.ts). */
export interface AnswerKeeper {
  keepAnswer?: (body: string) => void;
}

/**
 * Writes a GraphQL answer. A GET's goes through Express's `res.send`, which gives it an ETag and answers 304 to
 * a browser revalidating it (docs/decisions.md, "Caching and speed"). A POST's is written as it is, with its
 * length: nothing revalidates a POST, and `send`'s ETag, type and freshness checks cost a signed-in read about a
 * tenth of its CPU (issue 15). The compression middleware, where the request accepts an encoding, sees both.
 */
export function sendAnswer(req: Request, res: Response, body: string | Buffer): void {
  if (req.method === 'GET' || req.method === 'HEAD') {
    res.send(body);
    return;
  }
  res.setHeader('Content-Length', typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  res.end(body);
}

/**
 * Apollo Server as an Express handler, after the JSON body parser, in place of @as-integrations/express5: the
 * same request (method, headers, query string, parsed body) and the same answer (status, headers, body), written
 * by `sendAnswer` and then offered to the public answer cache if it armed one (`res.locals.keepAnswer`).
 */
export function apolloHandler<Context extends BaseContext>(
  server: ApolloServer<Context>,
  context: (req: Request, res: Response) => Promise<Context>,
) {
  server.assertStarted('apolloHandler()');
  return async (req: Request, res: Response): Promise<void> => {
    const headers = new HeaderMap();
    for (const name in req.headers) {
      const value = req.headers[name];
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const query = req.url.indexOf('?');
    const answer = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: req.method.toUpperCase(),
        headers,
        search: query < 0 ? '' : req.url.slice(query),
        body: req.body,
      },
      context: () => context(req, res),
    });
    // Vary adds to what the middleware before said (Accept-Encoding); the others are Apollo's to set.
    for (const [name, value] of answer.headers) {
      if (name === 'vary') res.vary(value);
      else res.setHeader(name, value);
    }
    res.statusCode = answer.status ?? 200;
    if (answer.body.kind === 'complete') {
      sendAnswer(req, res, answer.body.string);
      (res.locals as AnswerKeeper).keepAnswer?.(answer.body.string);
      return;
    }
    // Incremental delivery (@defer, @stream): written as it comes, never kept.
    for await (const chunk of answer.body.asyncIterator) {
      res.write(chunk);
      (res as { flush?: () => void }).flush?.();
    }
    res.end();
  };
}
