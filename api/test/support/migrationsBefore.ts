import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { createPglite, migrationsFolder } from '../../src/db/database';

interface Journal {
  entries: { idx: number; tag: string }[];
}

/**
 * The migrations folder as it was before `tag`: the same files, the journal cut there. Called in a describe's
 * body; the folder is removed after it.
 */
export function migrationsBefore(tag: string): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'partsyard-migrations-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as Journal;
  const cut = journal.entries.findIndex((e) => e.tag === tag);
  if (cut <= 0) throw new Error(`no migration ${tag} after the first`);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }));
  return folder;
}

export type Db = ReturnType<typeof drizzle>;

/**
 * A database migrated up to `before`, given the rows `seed` writes, then migrated to the end; `check` reads what
 * the later migrations made of them.
 */
export async function upgrade(before: string, seed: (db: Db) => Promise<void>, check: (db: Db) => Promise<void>) {
  const client = await createPglite();
  try {
    const db = drizzle({ client });
    await migrate(db, { migrationsFolder: before });
    await seed(db);
    await migrate(db, { migrationsFolder });
    await check(db);
  } finally {
    await client.close();
  }
}
