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

/** Every suite that touches data runs on each of these. */
export const databaseKinds: DatabaseKind[] = testEnv.postgresUrl ? ['pglite', 'postgres'] : ['pglite'];

export const testDatabasePrefix = 'partsyard_t_';
