const swc = (tsx) => [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', tsx },
      ...(tsx ? { transform: { react: { runtime: 'automatic' } } } : {}),
    },
    module: { type: 'commonjs' },
  },
];

/** @type {import('jest').Config} */
module.exports = {
  // One Auth emulator for the whole run (api, e2e); the web's component tests do not need it.
  globalSetup: '<rootDir>/api/test/support/globalSetup.ts',
  globalTeardown: '<rootDir>/api/test/support/globalTeardown.ts',
  maxWorkers: 2,
  // The longest test files first (scripts/jest-sequencer.cjs), whether or not jest has a cache of the last run.
  testSequencer: '<rootDir>/scripts/jest-sequencer.cjs',
  testTimeout: 120_000,
  projects: [
    {
      displayName: 'api',
      testEnvironment: 'node',
      roots: ['<rootDir>/api', '<rootDir>/common'],
      testMatch: ['**/test/**/*.test.ts'],
      transform: { '^.+\\.tsx?$': swc(false) },
      setupFiles: ['<rootDir>/api/test/support/runLogSetup.ts'],
    },
    {
      displayName: 'web',
      testEnvironment: 'jsdom',
      roots: ['<rootDir>/web/test'],
      testMatch: ['**/*.test.ts?(x)'],
      transform: { '^.+\\.tsx?$': swc(true) },
      moduleNameMapper: { '\\.css$': '<rootDir>/web/test/support/styleMock.js' },
      setupFiles: ['<rootDir>/web/test/support/polyfills.ts'],
      setupFilesAfterEnv: ['<rootDir>/web/test/support/setup.ts'],
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      roots: ['<rootDir>/e2e'],
      testMatch: ['**/*.e2e.test.ts'],
      transform: { '^.+\\.tsx?$': swc(false) },
      setupFiles: ['<rootDir>/api/test/support/runLogSetup.ts'],
    },
  ],
};
