import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../db/schema';

/** What a file loads (docs/imports.md says each one's columns). */
export const importKinds = ['vehicles', 'parts', 'numbers', 'fitment', 'supersessions'] as const;
export type ImportKind = (typeof importKinds)[number];

/**
 * A job's life: `receiving` its file in chunks, `queued` once the file is whole, `running` (checking the rows
 * against the catalog, then applying them in one transaction), then `succeeded`, `failed` (with its reason) or
 * `cancelled`. Only `succeeded` changed the catalog.
 */
export const importStatuses = ['receiving', 'queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type ImportStatus = (typeof importStatuses)[number];

/**
 * An import (issue 33 point 5): a row any replica's worker may take (STYLE.md: long jobs are rows, never a
 * promise in one process), with its state and progress. `heartbeatAt` is renewed while a worker runs it; a job
 * whose worker stopped (its heartbeat too old) is marked failed by whichever replica notices.
 */
export const importJobs = pgTable(
  'import_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: importKinds }).notNull(),
    status: text('status', { enum: importStatuses }).notNull().default('receiving'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    fileName: text('file_name').notNull().default(''),
    /** The file's columns as its header row names them (in order), once the first chunk arrived. */
    header: text('header').array(),
    chunksReceived: integer('chunks_received').notNull().default(0),
    /** Lines of the file read so far (the header's included): the next chunk's first line is this + 1. */
    linesReceived: integer('lines_received').notNull().default(0),
    rowsReceived: integer('rows_received').notNull().default(0),
    /** While running: `checking` the rows against the catalog, then `applying` them. */
    phase: text('phase').notNull().default(''),
    rowsDone: integer('rows_done').notNull().default(0),
    rowsRejected: integer('rows_rejected').notNull().default(0),
    inserted: integer('inserted').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last time anything happened to it (a chunk received, a worker's heartbeat). */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('import_jobs_status_idx').on(t.status, t.createdAt),
    index('import_jobs_created_idx').on(t.createdAt),
    check('import_jobs_kind_check', sql`${t.kind} in ('vehicles', 'parts', 'numbers', 'fitment', 'supersessions')`),
    check(
      'import_jobs_status_check',
      sql`${t.status} in ('receiving', 'queued', 'running', 'succeeded', 'failed', 'cancelled')`,
    ),
  ],
);

/**
 * The rows of a job's file that passed the row checks, staged until the job runs (then deleted): each with its
 * line in the file and its values, in the kind's column order (importFormats.ts), checked and tidied. `jobId`
 * has no foreign key (since 0022): rows are staged only in the transaction that holds their job's row locked,
 * jobs are never deleted, and every way a job ends deletes its rows; the key's per-row check was half the time
 * of staging a chunk (COPY of 200,000 rows, 5.1 s with it, 2.3 s without).
 */
export const importRows = pgTable(
  'import_rows',
  {
    jobId: uuid('job_id').notNull(),
    line: integer('line').notNull(),
    values: text('values').array().notNull(),
  },
  (t) => [primaryKey({ name: 'import_rows_pkey', columns: [t.jobId, t.line] })],
);

/** The rows of a job's file that were not loaded: where (line, column), what it held, and why. */
export const importRejections = pgTable(
  'import_rejections',
  {
    jobId: uuid('job_id')
      .notNull()
      .references(() => importJobs.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    column: text('column').notNull(),
    value: text('value').notNull(),
    reason: text('reason').notNull(),
  },
  (t) => [primaryKey({ name: 'import_rejections_pkey', columns: [t.jobId, t.line] })],
);

export type ImportJobRow = typeof importJobs.$inferSelect;
export type ImportRejectionRow = typeof importRejections.$inferSelect;
