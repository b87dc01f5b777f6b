import { sql } from 'drizzle-orm';
import type { Config } from '../../src/config';
import type { Db } from '../../src/db/database';
import { createAccessTokens } from '../../src/identity/accessTokens';
import { startServer, type RunningServer } from '../../src/server';
import type { DatabaseKind } from '../support/env';
import { openTestDatabase } from '../support/pgliteTemplate';
import { createTestDatabase } from '../support/postgres';
import { testConfig } from '../support/testApp';

/** An answer as the performance suites look at it: status, headers and body. */
export interface Answer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  data: T | null;
  errors?: { message: string; extensions?: { code?: string; fields?: Record<string, string> } }[];
}

export interface CountingApp {
  server: RunningServer;
  db: Db;
  /** The PostgreSQL database's URL (undefined on PGlite). */
  databaseUrl: string | undefined;
  /** Every SQL statement the app issued since the last `statements()` call (and forgets them). */
  statements(): string[];
  /** An access token for a user that exists in the database (no Firebase needed). */
  /** An access token for a user the test wrote into the database (given a Firebase uid of its own if it has none). */
  tokenFor(user: { id: string }): Promise<string>;
  /** POSTs a GraphQL operation (or GETs it, with the preflight header the web client sends). */
  gql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    options?: { token?: string; method?: 'GET' | 'POST'; headers?: Record<string, string> },
  ): Promise<Answer<T>>;
  close(): Promise<void>;
}

/**
 * The whole app on a fresh database of `kind`, with every SQL statement it issues recorded (Drizzle's
 * logger). Users are made with SQL and signed in with tokens of the app's own secret.
 */
export async function startCountingApp(kind: DatabaseKind, overrides: Partial<Config> = {}): Promise<CountingApp> {
  let recorded: string[] = [];
  let drop: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;
  let database: Config['database'] = { kind: 'pglite', dataDir: undefined };
  if (kind === 'postgres') {
    const created = await createTestDatabase({ migrated: true });
    drop = created.drop;
    databaseUrl = created.url;
    database = { kind: 'postgres', url: created.url, poolSize: 10 };
  }
  const config = testConfig({ database, ...overrides });
  const opened = await openTestDatabase(database, { logger: { logQuery: (query) => recorded.push(query) } });
  const server = await startServer(config, { database: opened });
  const tokens = createAccessTokens(config.jwt);
  recorded = [];

  const gql: CountingApp['gql'] = async (query, variables = {}, { token, method = 'POST', headers = {} } = {}) => {
    const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const res =
      method === 'GET'
        ? await fetch(`${server.url}/graphql?${new URLSearchParams({ query, variables: JSON.stringify(variables) })}`, {
            headers: { 'apollo-require-preflight': 'true', ...auth, ...headers },
          })
        : await fetch(`${server.url}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...auth, ...headers },
            body: JSON.stringify({ query, variables }),
          });
    const text = await res.text();
    const body = (text ? JSON.parse(text) : {}) as Omit<Answer, 'status' | 'headers'>;
    return { status: res.status, headers: res.headers, data: (body.data ?? null) as never, errors: body.errors };
  };

  return {
    server,
    db: opened.db,
    databaseUrl,
    statements() {
      const taken = recorded;
      recorded = [];
      return taken;
    },
    async tokenFor(user) {
      const { rows } = (await opened.db.execute(
        sql`update users set firebase_uid = coalesce(firebase_uid, 'test-uid-' || id) where id = ${user.id}
            returning firebase_uid`,
      )) as unknown as { rows: { firebase_uid: string }[] };
      return tokens.sign({ userId: user.id, firebaseUid: rows[0].firebase_uid });
    },
    gql,
    async close() {
      await server.close({ graceMs: 1000 });
      await drop?.();
    },
  };
}

/** Runs SQL that adds rows, then gives the planner fresh statistics. */
export async function grow(db: Db, ...statements: ReturnType<typeof sql>[]): Promise<void> {
  for (const statement of statements) await db.execute(statement);
  await db.execute(sql`analyze`);
}
