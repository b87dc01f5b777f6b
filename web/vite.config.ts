import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';

/**
 * The pages' start-up (web/boot/boot.js), without inline script: the Content-Security-Policy allows scripts from
 * this origin only. index.html gets the boot script as a hashed asset and its data as JSON beside it:
 *
 * - `landing`: for the pages visitors land on (`pages`: route -> page module; `:name` stands for a segment of the
 *   path), the chunks of that page, which the router would fetch only once the app's code has run (one more round
 *   trip before the page shows);
 * - `chunks`: the shell's chunks (the runtime, graphql's helpers, React, the router with Apollo, the shop's shared
 *   modules, then the entry), run one per task. Run as one module graph, their evaluation is a single task of
 *   about 250 ms on a phone 4x slower than this machine, all of it blocking input; one chunk per task, none is
 *   much over 50 ms. They still download at once, in parallel (modulepreload links), and start once the document
 *   is parsed, as the deferred entry did.
 */
function bootScript(pages: Record<string, string>): Plugin {
  const source = readFileSync(resolve(__dirname, 'boot/boot.js'), 'utf8');
  const fileName = `assets/boot-${createHash('sha256').update(source).digest('base64url').slice(0, 10)}.js`;
  return {
    name: 'partsyard:boot-script',
    apply: 'build',
    generateBundle(_options, bundle) {
      if (Object.values(bundle).some((c) => c.type === 'chunk' && c.isEntry && c.name === 'main'))
        this.emitFile({ type: 'asset', fileName, source });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle, filename }) {
        if (!bundle || !filename.endsWith('index.html')) return html;
        const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
        const entryChunk = chunks.find((c) => c.isEntry && c.facadeModuleId === filename);
        // Chunks the entry imports statically are in index.html already.
        const loaded = new Set<string>();
        const collect = (name: string, into: Set<string>) => {
          if (into.has(name)) return;
          into.add(name);
          for (const imported of bundle[name]?.type === 'chunk' ? bundle[name].imports : []) collect(imported, into);
        };
        if (entryChunk) collect(entryChunk.fileName, loaded);
        const landing: Record<string, string[]> = {};
        for (const [pathname, module] of Object.entries(pages)) {
          const chunk = chunks.find((c) => c.facadeModuleId === resolve(__dirname, module));
          if (!chunk) throw new Error(`bootScript: no chunk for ${module}`);
          const files = new Set<string>();
          collect(chunk.fileName, files);
          landing[pathname] = [...files].filter((f) => !loaded.has(f)).map((f) => `/${f}`);
        }

        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html);
        if (!entry) throw new Error('bootScript: index.html has no module entry');
        const preloaded = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
        const data = JSON.stringify({ landing, chunks: [...preloaded, entry[1]], lowPriority: false }).replace(
          /</g,
          '\\u003c',
        );
        // Before the style sheet, so that the boot script's download does not wait for it.
        // A function, not a string, so that no `$` in the data is read as a replacement pattern.
        return html.replace(
          entry[0],
          () =>
            `<link rel="modulepreload" crossorigin href="${entry[1]}">\n` +
            `    <script type="application/json" id="partsyard-boot">${data}</script>\n` +
            `    <script async src="/${fileName}"></script>`,
        );
      },
    },
  };
}

// `npm run dev -w web` serves the client with hot reload and forwards API calls to `npm start`'s server.
// Two pages: the shop (index.html) and the GraphiQL playground (playground.html, served at GET /graphql), built
// apart (`vite build` the shop, `vite build --mode playground` the playground): they share no code but graphql's,
// and the shop's runtime is not the playground's.
export default defineConfig(({ command, mode, isSsrBuild }): UserConfig => ({
  plugins: [
    react(),
    tailwindcss(),
    // The public pages of the router (src/app/router.tsx) people open first, by route.
    bootScript({
      '/': 'src/features/home/HomePage.tsx',
      '/parts': 'src/features/parts/CatalogPage.tsx',
      '/parts/:partId': 'src/features/parts/PartPage.tsx',
      '/categories/:slug': 'src/features/parts/CategoryPage.tsx',
      '/bikes/:make/:model/:year': 'src/features/parts/BikePage.tsx',
      '/bikes/:make/:model/:year/:variant': 'src/features/parts/BikePage.tsx',
      '/login': 'src/features/auth/LoginPage.tsx',
      '/signup': 'src/features/auth/SignupPage.tsx',
    }),
  ],
  // Apollo Client keeps its development checks and messages unless told otherwise (smaller, faster build).
  define: command === 'build' ? { 'globalThis.__DEV__': 'false' } : {},
  server: {
    proxy: { '/graphql': 'http://localhost:4000', '/api': 'http://localhost:4000' },
  },
  worker: { format: 'es' },
  // `vite build --ssr src/prerender.tsx`: the home page's first render as HTML, written into dist/home.html by
  // scripts/prerender.mjs. Self-contained (libraries bundled in), removed once used.
  ssr: { noExternal: true },
  build: isSsrBuild
    ? {
        outDir: 'dist-prerender',
        emptyOutDir: true,
        rollupOptions: { output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' } },
      }
    : mode === 'playground'
      ? {
          // After the shop's build, into the same folder.
          outDir: 'dist',
          emptyOutDir: false,
          copyPublicDir: false,
          sourcemap: false,
          // The playground's editor (Monaco) is one large chunk, loaded only by the playground page.
          chunkSizeWarningLimit: 4000,
          rollupOptions: {
            input: { playground: resolve(__dirname, 'playground.html') },
            onwarn(warning, warn) {
              // graphiql marks modules "use no memo" for React's compiler, which we do not use.
              if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
              warn(warning);
            },
          },
        }
      : {
          outDir: 'dist',
          sourcemap: false,
          rollupOptions: {
            input: { main: resolve(__dirname, 'index.html') },
            // The shared rules and formatting (common/) have no side effects: a page that only truncates names
            // does not carry the validation library.
            treeshake: { moduleSideEffects: [{ test: /[\\/]common[\\/]src[\\/]/, sideEffects: false }] },
            output: {
              // Few, named chunks for the app shell (each request costs a round trip on a slow network), split by
              // how often they change and by who needs them: libraries apart from the shop's code.
              codeSplitting: {
                groups: [
                  {
                    // what Apollo Client uses of graphql (it prints and visits documents; the generated ones come
                    // parsed, so no parser), and small helpers
                    name: 'common',
                    test: /node_modules[\\/](graphql[\\/](language|error|jsutils)|tslib)[\\/]|vite[\\/](preload-helper|modulepreload-polyfill)/,
                    priority: 4,
                    includeDependenciesRecursively: false,
                  },
                  {
                    name: 'react',
                    test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|[\\/]web[\\/]src[\\/]lib[\\/]reactDom/,
                    priority: 3,
                  },
                  {
                    name: 'vendor', // the shop's other libraries
                    test: /node_modules[\\/](react-router|react-router-dom|@apollo[\\/]client|@wry|optimism|zen-observable-ts|ts-invariant|rehackt|graphql-tag)[\\/]/,
                    priority: 2,
                    includeDependenciesRecursively: false,
                  },
                  {
                    // the shop's modules that its pages share with the shell, and the part cards; not the admin
                    // overview's own generated query (generated/overview.tsx), which stays with its page
                    name: 'app',
                    test: /[\\/]web[\\/]src[\\/](lib[\\/](apollo|session)|generated[\\/]graphql\.|components[\\/]Part(Card|Image))|[\\/]common[\\/]src[\\/]format/,
                    priority: 1,
                    includeDependenciesRecursively: false,
                  },
                ],
              },
            },
          },
        },
}));
