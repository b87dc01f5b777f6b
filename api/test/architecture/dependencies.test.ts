import fs from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';
import ts from 'typescript';

/**
 * The production image installs only the API workspace's production dependencies (with @partsyard/common's):
 * a package the server imports that only a tool or the web client brings in (hoisted into the root's
 * node_modules in development) works in every test here and is missing in the image. Each workspace's sources
 * import only builtins, their own workspace siblings and what their own package.json lists as dependencies.
 */

const root = path.resolve(__dirname, '..', '..', '..');

function sourcesOf(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => !file.includes(`${path.sep}generated`) || file.endsWith('generated.ts'));
}

const packageOf = (specifier: string) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];

/** The packages a file loads when it runs: its imports and exports from a module, `import()` and `require()`;
 * type-only imports and module augmentations (`declare module`) are erased and left out. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier))
      found.push(node.moduleSpecifier.text);
    else if (
      ts.isExportDeclaration(node) &&
      !node.isTypeOnly &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      found.push(node.moduleSpecifier.text);
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0])
    )
      found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function undeclaredImports(workspace: string): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, workspace, 'package.json'), 'utf8'));
  const declared = new Set([manifest.name, ...Object.keys(manifest.dependencies ?? {})]);
  const builtins = new Set(builtinModules);
  const missing = new Set<string>();
  for (const file of sourcesOf(path.join(root, workspace, 'src'))) {
    for (const specifier of runtimeImports(file)) {
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      const name = packageOf(specifier);
      if (!builtins.has(name) && !declared.has(name)) missing.add(`${path.relative(root, file)} imports ${name}`);
    }
  }
  return [...missing].sort();
}

describe('what the server imports is what its image installs', () => {
  it.each(['api', 'common'])(
    '%s/src imports only builtins and the dependencies its package.json lists',
    (workspace) => {
      expect(undeclaredImports(workspace)).toEqual([]);
    },
  );
});
