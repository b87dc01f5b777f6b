import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { parse } from 'csv-parse';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { csvCell } from '@partsyard/common';
import type { Db } from '../db/database';
import { badInput, conflict, notFound } from '../errors';
import type { Actor } from '../services/actor';
import { isId, page, pageWithTotal } from '../services/paging';
import { authorize } from '../services/rights';
import { headerProblem, rowChecker } from './importFormats';
import {
  importJobs,
  importKinds,
  importRejections,
  importRows,
  type ImportJobRow,
  type ImportKind,
} from './importSchema';

/** The bounds of an import (docs/imports.md). */
export const importLimits = {
  /** One chunk of a file, as one request carries it. */
  chunkBytes: 8 * 1024 * 1024,
  /** One row (a record) of a file. */
  recordBytes: 64 * 1024,
  /** Rows one job may hold. */
  maxRows: 5_000_000,
  /** Rows staged by one statement. */
  stagingBatch: 5_000,
} as const;

/** Page sizes of the lists of jobs and of a job's rejected rows. */
export const importPageSizes = {
  jobs: { fallback: 20, max: 100 },
  rejections: { fallback: 50, max: 500 },
} as const;

/** A job as the dashboard and integrators see it: its state, and its progress in rows, rows a second and time left. */
export interface ImportJobView extends ImportJobRow {
  rowsTotal: number;
  rowsPerSecond: number | null;
  secondsLeft: number | null;
}

export function jobView(job: ImportJobRow, now = Date.now()): ImportJobView {
  const rowsTotal = job.rowsReceived;
  const seconds = job.startedAt && job.status === 'running' ? (now - job.startedAt.getTime()) / 1000 : 0;
  const rowsPerSecond = seconds > 0.5 && job.rowsDone > 0 ? Math.round(job.rowsDone / seconds) : null;
  const left = Math.max(0, rowsTotal - job.rowsRejected - job.rowsDone);
  return {
    ...job,
    rowsTotal,
    rowsPerSecond,
    secondsLeft: rowsPerSecond ? Math.ceil(left / rowsPerSecond) : null,
  };
}

/** What is wrong with the bytes of a chunk as CSV text, or null: refused before any row is read. */
function encodingProblem(bytes: Buffer): string | null {
  if (bytes.subarray(0, 4).equals(Buffer.from('PK\u0003\u0004', 'latin1'))) {
    return 'This is a spreadsheet workbook (such as .xlsx), not CSV: save it as "CSV UTF-8" and import that';
  }
  if (bytes.includes(0)) return 'This is not a CSV text file (it holds binary data)';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'This file is not UTF-8 text: save it as "CSV UTF-8" and import that';
  }
  return null;
}

interface ParsedRecord {
  line: number;
  fields: string[] | null;
  /** For a record the parser could not read: why. */
  problem?: string;
}

/**
 * The records of a chunk, each with its line in the file (`firstLine` is the chunk's first). A record the parser
 * cannot read (a quote not closed within it, a row longer than `recordBytes`) is answered with its problem, and
 * the rest are read on. Slices of 256 kB with a turn of the event loop between them, so a chunk's parsing never
 * holds the process for long.
 */
async function parseChunk(text: string, firstLine: number): Promise<ParsedRecord[]> {
  const records: ParsedRecord[] = [];
  const parser = parse({
    bom: true,
    info: true,
    relax_column_count: true,
    // A quote inside a field that is not quoted is taken as written (`=HYPERLINK("...")`), as spreadsheets do.
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    max_record_size: importLimits.recordBytes,
  });
  parser.on('data', ({ record, info }: { record: string[]; info: { lines: number } }) => {
    records.push({ line: firstLine - 1 + info.lines, fields: record });
  });
  parser.on('skip', (error: Error & { lines?: number }) => {
    records.push({ line: firstLine - 1 + (error.lines ?? 0), fields: null, problem: error.message });
  });
  const ended = new Promise<void>((resolve, reject) => {
    parser.on('end', resolve);
    parser.on('error', reject);
  });
  const slice = 256 * 1024;
  for (let at = 0; at < text.length; at += slice) {
    parser.write(text.slice(at, at + slice));
    await yieldToEvents();
  }
  parser.end();
  await ended;
  return records;
}

const linesIn = (text: string) => {
  let lines = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return text.length && !text.endsWith('\n') ? lines + 1 : lines;
};

const separator = '\u001f'; // never in a staged value: the row checks refuse control characters

/**
 * Imports (issue 33 point 5): an admin starts a job for a kind of file, sends the file in chunks (each ending at
 * the end of a row, in order, each once: a chunk sent again is answered as it was), and says when it is whole;
 * a worker (importWorker.ts) then checks the rows against the catalog and applies them in one transaction.
 * Every row is checked as it arrives; the rows that fail are kept with their line, column and reason.
 */
export function createImportService(db: Db, kick: () => void = () => {}) {
  async function jobRow(actor: Actor | null, operation: Parameters<typeof authorize>[0], id: string) {
    authorize(operation, actor);
    if (!isId(id)) throw notFound('Import');
    const [job] = await db.select().from(importJobs).where(eq(importJobs.id, id));
    if (!job) throw notFound('Import');
    return job;
  }

  return {
    async start(actor: Actor | null, kind: string, fileName = ''): Promise<ImportJobView> {
      const { userId } = authorize('imports.start', actor);
      if (!(importKinds as readonly string[]).includes(kind)) {
        throw badInput({ kind: `Must be one of ${importKinds.join(', ')}` });
      }
      const name = fileName.trim().slice(0, 200);
      const [job] = await db
        .insert(importJobs)
        .values({ kind: kind as ImportKind, createdBy: userId, fileName: name })
        .returning();
      return jobView(job);
    },

    /**
     * Receives chunk `part` (0 first) of the job's file: its rows are checked and staged, or rejected, in one
     * transaction with the job's counts. The first chunk's first row is the header. A chunk sent again (its
     * answer lost) changes nothing; one out of order is refused.
     */
    async receiveChunk(actor: Actor | null, id: string, part: number, bytes: Buffer): Promise<ImportJobView> {
      const before = await jobRow(actor, 'imports.receive', id);
      if (!Number.isInteger(part) || part < 0) throw badInput({ part: 'Must be a whole number of 0 or more' });
      if (before.status !== 'receiving')
        throw conflict(`This import is ${before.status}: it takes no more of its file`);
      if (part < before.chunksReceived) return jobView(before);
      if (part > before.chunksReceived) {
        throw conflict(`Chunk ${before.chunksReceived} of the file comes next (chunks are sent in order)`);
      }
      if (bytes.length > importLimits.chunkBytes) {
        throw badInput({ file: `A chunk is at most ${importLimits.chunkBytes / 1024 / 1024} MB` });
      }
      const problem = encodingProblem(bytes);
      if (problem) throw badInput({ file: problem });
      const text = bytes.toString('utf8');
      const records = await parseChunk(text, before.linesReceived + 1);
      let header = before.header;
      let rows = records;
      if (!header) {
        const first = records[0];
        if (!first?.fields) throw badInput({ file: 'The file is empty: its first row names the columns' });
        const headerIssue = headerProblem(before.kind, first.fields);
        if (headerIssue) throw badInput({ file: headerIssue });
        header = first.fields;
        rows = records.slice(1);
      }
      if (before.rowsReceived + rows.length > importLimits.maxRows) {
        throw badInput({ file: `An import holds at most ${importLimits.maxRows.toLocaleString('en-US')} rows` });
      }
      const checkRow = rowChecker(before.kind, header);
      const staged: { line: number; values: string }[] = [];
      const rejected: { line: number; column: string; value: string; reason: string }[] = [];
      for (const [i, record] of rows.entries()) {
        if (i % 5000 === 4999) await yieldToEvents();
        if (!record.fields) {
          rejected.push({ line: record.line, column: '', value: '', reason: `Not readable as CSV: ${record.problem}` });
          continue;
        }
        const checked = checkRow(record.fields);
        if (checked.ok) staged.push({ line: record.line, values: checked.values.join(separator) });
        else
          rejected.push({
            line: record.line,
            column: checked.column,
            value: checked.value.slice(0, 200),
            reason: checked.reason,
          });
      }
      return db.transaction(async (tx) => {
        const [job] = await tx.select().from(importJobs).where(eq(importJobs.id, id)).for('update');
        // Another request took this chunk meanwhile (a retry racing the first): answered as it left the job.
        if (job.status !== 'receiving' || job.chunksReceived !== part) return jobView(job);
        for (let at = 0; at < staged.length; at += importLimits.stagingBatch) {
          const batch = staged.slice(at, at + importLimits.stagingBatch);
          await tx.execute(sql`
            insert into import_rows (job_id, line, values)
            select ${id}, t.line, string_to_array(t.joined, ${separator})
              from unnest(${sql.param(batch.map((s) => s.line))}::int[], ${sql.param(batch.map((s) => s.values))}::text[]) as t(line, joined)`);
        }
        for (let at = 0; at < rejected.length; at += importLimits.stagingBatch) {
          const batch = rejected.slice(at, at + importLimits.stagingBatch);
          await tx.execute(sql`
            insert into import_rejections (job_id, line, "column", value, reason)
            select ${id}, t.line, t.col, t.value, t.reason
              from unnest(${sql.param(batch.map((r) => r.line))}::int[], ${sql.param(batch.map((r) => r.column))}::text[],
                          ${sql.param(batch.map((r) => r.value))}::text[], ${sql.param(batch.map((r) => r.reason))}::text[])
                as t(line, col, value, reason)
            on conflict do nothing`);
        }
        const [updated] = await tx
          .update(importJobs)
          .set({
            header,
            chunksReceived: part + 1,
            linesReceived: job.linesReceived + linesIn(text),
            rowsReceived: job.rowsReceived + rows.length,
            rowsRejected: job.rowsRejected + rejected.length,
            heartbeatAt: sql`now()`,
          })
          .where(eq(importJobs.id, id))
          .returning();
        return jobView(updated);
      });
    },

    /** The file is whole: the job is queued for a worker. A job with no rows is refused. */
    async finish(actor: Actor | null, id: string): Promise<ImportJobView> {
      const job = await jobRow(actor, 'imports.finish', id);
      if (job.status !== 'receiving') {
        if (job.status === 'queued' || job.status === 'running' || job.status === 'succeeded') return jobView(job);
        throw conflict(`This import is ${job.status}`);
      }
      if (!job.header) throw badInput({ file: 'No file was received: send its chunks first' });
      if (job.rowsReceived === 0) throw badInput({ file: 'The file has a header but no rows' });
      const [queued] = await db
        .update(importJobs)
        .set({ status: 'queued', heartbeatAt: sql`now()` })
        .where(and(eq(importJobs.id, id), eq(importJobs.status, 'receiving')))
        .returning();
      kick();
      return jobView(queued ?? job);
    },

    /**
     * Cancels a job: one not yet running at once; a running one at its next step (its transaction rolled back, so
     * the catalog is as it was). A job that has ended stays as it ended.
     */
    async cancel(actor: Actor | null, id: string): Promise<ImportJobView> {
      const job = await jobRow(actor, 'imports.cancel', id);
      const [cancelled] = await db
        .update(importJobs)
        .set({
          cancelRequested: true,
          status: sql`case when ${importJobs.status} in ('receiving', 'queued') then 'cancelled' else ${importJobs.status} end`,
          finishedAt: sql`case when ${importJobs.status} in ('receiving', 'queued') then now() else ${importJobs.finishedAt} end`,
        })
        .where(and(eq(importJobs.id, id), sql`${importJobs.status} in ('receiving', 'queued', 'running')`))
        .returning();
      if (cancelled?.status === 'cancelled') await db.delete(importRows).where(eq(importRows.jobId, id));
      return jobView(cancelled ?? job);
    },

    job: async (actor: Actor | null, id: string) => jobView(await jobRow(actor, 'imports.job', id)),

    async jobs(actor: Actor | null, args: { offset?: number | null; limit?: number | null }) {
      authorize('imports.jobs', actor);
      const bounds = page(args.offset, args.limit, importPageSizes.jobs);
      const found = await pageWithTotal(
        bounds,
        async () =>
          (
            await db
              .select()
              .from(importJobs)
              .orderBy(desc(importJobs.createdAt), desc(importJobs.id))
              .offset(bounds.offset)
              .limit(bounds.limit)
          ).map((job) => jobView(job)),
        async () => (await db.select({ n: count() }).from(importJobs))[0]?.n ?? 0,
      );
      return { ...found, ...bounds };
    },

    /** A page of a job's rejected rows, by line. */
    async rejections(actor: Actor | null, id: string, args: { offset?: number | null; limit?: number | null }) {
      authorize('imports.rejections', actor);
      const bounds = page(args.offset, args.limit, importPageSizes.rejections);
      const job = await jobRow(actor, 'imports.rejections', id);
      const found = await pageWithTotal(
        bounds,
        () =>
          db
            .select({
              line: importRejections.line,
              column: importRejections.column,
              value: importRejections.value,
              reason: importRejections.reason,
            })
            .from(importRejections)
            .where(eq(importRejections.jobId, job.id))
            .orderBy(importRejections.line)
            .offset(bounds.offset)
            .limit(bounds.limit),
        async () =>
          (await db.select({ n: count() }).from(importRejections).where(eq(importRejections.jobId, job.id)))[0]?.n ?? 0,
      );
      return { ...found, ...bounds };
    },

    /**
     * A job's rejected rows as CSV (line, column, value, reason), read from the database in pages of 5,000 so
     * that a million of them never sit in memory. A cell that a spreadsheet would read as a formula is written
     * as text (a leading apostrophe).
     */
    async *rejectionsCsv(actor: Actor | null, id: string): AsyncGenerator<string> {
      const job = await jobRow(actor, 'imports.rejections', id);
      yield 'line,column,value,reason\r\n';
      let after = 0;
      for (;;) {
        const rows = await db
          .select()
          .from(importRejections)
          .where(and(eq(importRejections.jobId, job.id), sql`${importRejections.line} > ${after}`))
          .orderBy(importRejections.line)
          .limit(5000);
        if (!rows.length) return;
        yield (
          rows.map((r) => [String(r.line), r.column, r.value, r.reason].map(csvCell).join(',')).join('\r\n') + '\r\n'
        );
        after = rows[rows.length - 1].line;
      }
    },
  };
}

/** A CSV cell, formula-looking cells kept as text: the shop's one CSV writer (common/src/quickOrder.ts). */
export { csvCell };

export type ImportService = ReturnType<typeof createImportService>;
