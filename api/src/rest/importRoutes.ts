import express, { type Request, type Response, type Router } from 'express';
import type { PendingCaller } from '../http/caller';
import type { Actor } from '../services/actor';
import { importLimits, type ImportJobView } from '../imports/importService';
import type { Services } from '../services';
import { optionalInt, query } from './queryParams';
import type { RouteOf } from './restRouter';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** An import as REST answers it: the fields of GraphQL's ImportJob. */
export const importDocument = (job: ImportJobView) => ({
  id: job.id,
  kind: job.kind,
  status: job.status,
  phase: job.phase,
  fileName: job.fileName,
  rowsTotal: job.rowsTotal,
  rowsDone: job.rowsDone,
  rowsRejected: job.rowsRejected,
  inserted: job.inserted,
  updated: job.updated,
  unchanged: job.unchanged,
  rowsPerSecond: job.rowsPerSecond,
  secondsLeft: job.secondsLeft,
  error: job.error,
  cancelRequested: job.cancelRequested,
  createdAt: job.createdAt.toISOString(),
  startedAt: iso(job.startedAt),
  finishedAt: iso(job.finishedAt),
});

const readRaw = express.raw({ type: () => true, limit: importLimits.chunkBytes });
/** A chunk's bytes, read only once its caller is let in (an admin). */
const rawBody = (req: Request, res: Response) =>
  new Promise<void>((resolve, reject) =>
    readRaw(req, res, (error?: Error) => (error === undefined ? resolve() : reject(error))),
  );

const param = (req: Request, name: string): string => String(req.params[name] ?? '');
/**
 * The imports under /api (docs/imports.md): start, send the file in chunks, finish, follow, cancel, and read the
 * rejected rows (JSON pages, or all of them as CSV). None of it changes what visitors read until a job is applied
 * (the worker says so then).
 */
export function addImportRoutes(
  router: Router,
  deps: { services: Services; route: RouteOf; actorOf: (pending: PendingCaller) => Promise<Actor | null> },
): void {
  const { services, route, actorOf: actor } = deps;
  const quiet = { changesPublicAnswers: false };
  const body = (req: Request) =>
    req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};

  router.post(
    '/imports',
    route(
      'imports.start',
      async (req, caller) => {
        const { kind, fileName } = body(req);
        return importDocument(
          await services.imports.start(
            await actor(caller),
            typeof kind === 'string' ? kind : '',
            typeof fileName === 'string' ? fileName : '',
          ),
        );
      },
      quiet,
    ),
  );
  router.get(
    '/imports',
    route('imports.jobs', async (req, caller) => {
      const found = await services.imports.jobs(await actor(caller), {
        offset: optionalInt(query(req, 'offset'), 'offset'),
        limit: optionalInt(query(req, 'limit'), 'limit'),
      });
      return { ...found, items: found.items.map(importDocument) };
    }),
  );
  router.get(
    '/imports/:id',
    route('imports.job', async (req, caller) =>
      importDocument(await services.imports.job(await actor(caller), param(req, 'id'))),
    ),
  );
  router.put(
    '/imports/:id/chunks/:part',
    route(
      'imports.receive',
      async (req, caller) => {
        const part = optionalInt(param(req, 'part'), 'part') ?? -1;
        const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        return importDocument(await services.imports.receiveChunk(await actor(caller), param(req, 'id'), part, bytes));
      },
      { ...quiet, readBody: rawBody },
    ),
  );
  router.post(
    '/imports/:id/finish',
    route(
      'imports.finish',
      async (req, caller) => importDocument(await services.imports.finish(await actor(caller), param(req, 'id'))),
      quiet,
    ),
  );
  router.post(
    '/imports/:id/cancel',
    route(
      'imports.cancel',
      async (req, caller) => importDocument(await services.imports.cancel(await actor(caller), param(req, 'id'))),
      quiet,
    ),
  );
  router.get(
    '/imports/:id/rejections',
    route('imports.rejections', async (req, caller) =>
      services.imports.rejections(await actor(caller), param(req, 'id'), {
        offset: optionalInt(query(req, 'offset'), 'offset'),
        limit: optionalInt(query(req, 'limit'), 'limit'),
      }),
    ),
  );
  router.get(
    '/imports/:id/rejections.csv',
    route(
      'imports.rejections',
      async (req, caller) => {
        const rows = services.imports.rejectionsCsv(await actor(caller), param(req, 'id'));
        // The first page is read before anything is sent: a refusal (404) is still answered as JSON.
        const first = await rows.next();
        return { id: param(req, 'id'), first: first.done ? '' : first.value, rows };
      },
      {
        send: (res, answer) => {
          const { id, first, rows } = answer as { id: string; first: string; rows: AsyncGenerator<string> };
          res.setHeader('Content-Type', 'text/csv; charset=utf-8');
          res.setHeader('Content-Disposition', `attachment; filename="import-${id}-rejected-rows.csv"`);
          res.write(first);
          void (async () => {
            try {
              for await (const chunk of rows) {
                if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
              }
            } finally {
              res.end();
            }
          })();
        },
      },
    ),
  );
}
