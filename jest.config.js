/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/api', '<rootDir>/common'],
  testMatch: ['**/test/**/*.test.ts'],
  transform: {
    '^.+\\.tsx?$': [
      '@swc/jest',
      { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
    ],
  },
  globalSetup: '<rootDir>/api/test/support/globalSetup.ts',
  globalTeardown: '<rootDir>/api/test/support/globalTeardown.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
  verbose: false,
};
