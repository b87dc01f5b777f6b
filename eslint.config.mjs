import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const typedFiles = ['api/src/**/*.ts', 'web/src/**/*.{ts,tsx}', 'common/src/**/*.ts'];

/** One `no-restricted-imports` block per layer (a file in two blocks gets the later one, so they do not overlap). */
function layers(rules) {
  return rules.map(({ files, forbid, why }) => ({
    files,
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: forbid, message: `Backward import: ${why}.` }] }],
    },
  }));
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-prerender/**',
      'api/src/graphql/generated.ts',
      'web/src/generated/**',
      'web/public/**',
      '.data/**',
      'coverage/**',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
        fetch: 'readonly',
        setTimeout: 'readonly',
        URL: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  // The application code is linted with type information too (floating promises, unsafe `any`, methods passed
  // around unbound...). Tests, e2e and the bench are not: their types are checked by tsc, and linting them with
  // types would double `npm run lint`'s time.
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: typedFiles })),
  {
    files: typedFiles,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Apollo's plugin hooks are typed to return promises; an `async` hook without `await` is how they read.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: {
      globals: { window: 'readonly', document: 'readonly', localStorage: 'readonly', atob: 'readonly' },
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // Props and contexts hold functions, never methods that need `this`.
      '@typescript-eslint/method-signature-style': ['error', 'property'],
    },
  },
  // Layers (docs/architecture.md): imports point one way. API: app/server/main -> adapters (http, graphql, rest)
  // -> services -> data, identity, payments -> config, errors, logger. Web: app -> features -> components, lib.
  ...layers([
    {
      files: ['api/src/config.ts', 'api/src/errors.ts', 'api/src/logger.ts'],
      forbid: '^\\./',
      why: 'config, errors and logger are the bottom layer: they import nothing of ours',
    },
    {
      files: ['api/src/services/**/*.ts'],
      forbid: '^\\.\\./(http|graphql|rest|app|server|main|metrics|writeBus)(/|$)',
      why: 'services are given what they need (rate limits, the database) and know no adapter',
    },
    {
      files: ['api/src/{db,identity,payments}/**/*.ts'],
      forbid: '^\\.\\./(services|http|graphql|rest|app|server|main)(/|$)',
      why: 'data, identity and payments serve the services and know nothing above them',
    },
    {
      files: ['api/src/{http,graphql,rest}/**/*.ts'],
      forbid: '^\\.\\./(app|server|main)(/|$)',
      why: 'adapters are composed by app.ts, not the other way round',
    },
    {
      files: ['api/src/http/**/*.ts'],
      forbid: '^\\.\\./(graphql|rest|app|server|main)(/|$)',
      why: 'http/ is the plumbing both adapters share (caller, body, the answer cache): it imports neither',
    },
    {
      files: ['api/src/graphql/**/*.ts'],
      forbid: '^\\.\\./(rest|app|server|main)(/|$)',
      why: 'GraphQL and REST are sibling adapters over the services; shared HTTP plumbing lives in http/',
    },
    {
      files: ['api/src/rest/**/*.ts'],
      forbid: '^\\.\\./(graphql|app|server|main)(/|$)',
      why: 'GraphQL and REST are sibling adapters over the services; shared HTTP plumbing lives in http/',
    },
    {
      files: ['web/src/{components,lib}/**/*.{ts,tsx}'],
      forbid: '^(\\.\\./)+(features|app)(/|$)',
      why: 'shared components and lib are used by features and the app, never the reverse',
    },
    {
      files: ['web/src/features/*/*.{ts,tsx}'],
      forbid: '^(\\.\\./\\.\\./app(/|$)|\\.\\./[^./][^/]*(/|$))',
      why: 'a feature imports shared code only (components, lib, generated), not the app or another feature',
    },
    {
      files: ['web/src/features/*/*/*.{ts,tsx}'],
      forbid: '^(\\.\\./\\.\\./\\.\\./app(/|$)|\\.\\./\\.\\./[^./][^/]*(/|$))',
      why: 'a feature imports shared code only (components, lib, generated), not the app or another feature',
    },
  ]),
  {
    // The pages' start-up script (a classic script in the browser, web/boot/boot.js).
    files: ['web/boot/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { document: 'readonly', location: 'readonly' } },
  },
  {
    files: ['**/*.cjs', 'jest.config.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
