import path from 'node:path';
import { ESLint } from 'eslint';

/**
 * The layering (docs/architecture.md) is enforced by `npm run lint`: these are the imports it must refuse, each
 * linted as if it were written in a real file of that layer, and the hook mistakes React's rules must catch.
 */

const root = path.resolve(__dirname, '..', '..', '..');
// The project's own config, with only the rules these checks are about: none of them needs type information, so
// the TypeScript programs of the typed rules (some 8 s of CPU) are not built.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports' || ruleId.startsWith('react-hooks/'),
});

async function problemsOf(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

const backward = (problems: string[]) => problems.filter((p) => p.startsWith('no-restricted-imports'));

describe('imports point one way', () => {
  it.each([
    [
      'api/src/payments/testGateway.ts',
      "import { createServices } from '../services';\nexport const x = createServices;\n",
    ],
    [
      'api/src/services/ordersService.ts',
      "import { clientOf } from '../http/rateLimit';\nexport const x = clientOf;\n",
    ],
    ['api/src/db/database.ts', "import { createApp } from '../app';\nexport const x = createApp;\n"],
    ['api/src/errors.ts', "import { loadConfig } from './config';\nexport const x = loadConfig;\n"],
    ['api/src/rest/restRouter.ts', "import { buildSchema } from '../app';\nexport const x = buildSchema;\n"],
    ['api/src/rest/restRouter.ts', "import { queryLimits } from '../graphql/limits';\nexport const x = queryLimits;\n"],
    [
      'api/src/http/answerCache.ts',
      "import { cachingPlugins } from '../graphql/caching';\nexport const x = cachingPlugins;\n",
    ],
    [
      'web/src/components/Header.tsx',
      "import LoginPage from '../features/auth/LoginPage';\nexport const x = LoginPage;\n",
    ],
    ['web/src/lib/apollo.ts', "import { App } from '../app/App';\nexport const x = App;\n"],
    [
      'web/src/features/orders/PurchasePage.tsx',
      "import LoginPage from '../auth/LoginPage';\nexport const x = LoginPage;\n",
    ],
    [
      'web/src/features/orders/PurchasePage.tsx',
      "import { RequireAuth } from '../../app/guards';\nexport const x = RequireAuth;\n",
    ],
    [
      'web/src/features/home/components/HeroSlider.tsx',
      "import LoginPage from '../../auth/LoginPage';\nexport const x = LoginPage;\n",
    ],
  ])('%s may not import: %s', async (file, code) => {
    expect(backward(await problemsOf(file, code))).toEqual([
      expect.stringMatching(/^no-restricted-imports: .* Backward import: /),
    ]);
  });

  it.each([
    ['api/src/rest/restRouter.ts', "import { toAppError } from '../errors';\nexport const x = toAppError;\n"],
    [
      'api/src/graphql/caching.ts',
      "import type { WriteTracker } from '../http/answerCache';\nexport type X = WriteTracker;\n",
    ],
    [
      'web/src/features/orders/PurchasePage.tsx',
      "import { useAuth } from '../../lib/auth';\nexport const x = useAuth;\n",
    ],
    [
      'web/src/features/home/components/HeroSlider.tsx',
      "import { useInView } from '../../../lib/useInView';\nimport { stats } from '../HomePage';\nexport const x = [useInView, stats];\n",
    ],
  ])('%s may import: %s', async (file, code) => {
    expect(backward(await problemsOf(file, code))).toEqual([]);
  });
});

describe('React hooks', () => {
  it('a hook called conditionally, and an effect that misses a dependency, are lint errors', async () => {
    const code = [
      "import { useEffect, useState } from 'react';",
      'export function Widget({ show, id }: { show: boolean; id: string }) {',
      '  const [value, setValue] = useState(id);',
      '  if (show) useEffect(() => setValue(id), []);',
      '  return value;',
      '}',
      '',
    ].join('\n');
    const problems = await problemsOf('web/src/components/Spinner.tsx', code);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^react-hooks\/rules-of-hooks: /),
        expect.stringMatching(/^react-hooks\/exhaustive-deps: /),
      ]),
    );
  });
});
