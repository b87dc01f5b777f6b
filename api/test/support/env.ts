/** The test harness's own settings (the app's settings come from src/config.ts). */
export const testEnv = {
  /** A PostgreSQL server to run the suites against as well as PGlite. */
  postgresUrl: process.env.TEST_DATABASE_URL?.trim() || undefined,
  /** host:port of the Auth emulator that globalSetup started. */
  authEmulatorHost: process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '',
  /** The emulator's project id, which ID tokens name as their audience. */
  firebaseProjectId: process.env.TEST_FIREBASE_PROJECT_ID ?? 'demo-partsyard',
};

export type DatabaseKind = 'pglite' | 'postgres';

/** Every suite of the services and of the data (what SQL, transactions and the driver decide) runs on each of these. */
export const databaseKinds: DatabaseKind[] = testEnv.postgresUrl ? ['pglite', 'postgres'] : ['pglite'];

/**
 * The suites of the adapters (GraphQL and REST shapes, the rights matrix, bad input, the caller, logs) test what lies
 * above the services, the same code whichever engine holds the data: they run on one, PostgreSQL when the run has
 * one (the production engine), else PGlite. PGlite is PostgreSQL's own code, so an input that reaches SQL meets the
 * same parser either way; the services' suites run on both (README, "Run the tests").
 */
export const adapterDatabaseKinds: DatabaseKind[] = [testEnv.postgresUrl ? 'postgres' : 'pglite'];

export const testDatabasePrefix = 'partsyard_t_';
