// eslint-disable-next-line @typescript-eslint/no-require-imports
const base = require('./jest.config.js');

/**
 * `npm run test:image`: the production image built by Docker from a clean clone and checked as a user would
 * (api/test/image.docker.ts). Apart from `npm test`: it needs Docker (set up as root by the shared script) and
 * PostgreSQL; .ci/run runs it as a step of its own.
 */
/** @type {import('jest').Config} */
module.exports = {
  globalSetup: base.globalSetup,
  globalTeardown: base.globalTeardown,
  testTimeout: 120_000,
  projects: [
    {
      displayName: 'image',
      testEnvironment: 'node',
      roots: ['<rootDir>/api/test'],
      testMatch: ['**/*.docker.ts'],
      transform: base.projects[0].transform,
    },
  ],
};
