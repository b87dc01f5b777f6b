import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const typedFiles = ['api/src/**/*.ts', 'web/src/**/*.{ts,tsx}', 'common/src/**/*.ts'];

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
