// Writes the pre-rendered pages: dist/index.html with a page's first render inside #root (src/prerender.tsx), one
// file per route below, and dist/prerendered.json, which tells the server (api/src/http/webApp.ts) which file
// answers which route. Runs after `vite build` and `vite build --ssr src/prerender.tsx` (npm run build -w web).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(web, 'dist');
const serverBuild = path.join(web, 'dist-prerender');

/**
 * The routes pre-rendered (patterns of common/src/pages.ts), each as an anonymous visitor's first render shows it:
 * the header, the footer, and the page as far as it goes without the API's answers (the catalog's, a category's
 * and a part's placeholders, the login page's card). `render`: the address rendered, for a route with `:name`
 * segments (the first render of those pages does not show them). `query`: whether the file also answers the
 * route with a query string (the catalog's `?q=` or `?page=` would render otherwise, so those get the empty
 * shell). The first paint of these pages needs no script, so their scripts are fetched at low priority, not
 * competing with the style sheet on a slow network.
 */
const routes = [
  { route: '/', file: 'home.html', query: true },
  { route: '/parts', file: 'parts.html' },
  { route: '/categories/:slug', render: '/categories/pre-rendered', file: 'category.html' },
  { route: '/parts/:partId', render: '/parts/pre-rendered', file: 'part.html' },
  // Not /signup: a visitor holding an access token sees a spinner there until sign-in state is known, which the
  // HTML (signed out) would not match.
  { route: '/login', file: 'login.html' },
];

// What the app's modules read while rendering, as a browser shows them on an anonymous visitor's first render:
// sections below the fold not yet near (no IntersectionObserver callback yet), and no access token.
globalThis.IntersectionObserver = class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
globalThis.localStorage = { getItem: () => null, setItem() {}, removeItem() {} };

/**
 * The app's scripts (the entry and the shell's chunks, preloaded, and the page chunk the boot script preloads)
 * fetched at low priority. (The boot script, web/boot/boot.js, reads `lowPriority` from the page's data.)
 */
function lowPriorityScripts(html) {
  const rules = [
    [/<link rel="modulepreload"/g, '<link rel="modulepreload" fetchpriority="low"'],
    [/<script async src="/g, '<script async fetchpriority="low" src="'],
    [/"lowPriority":false/g, '"lowPriority":true'],
  ];
  for (const [pattern, replacement] of rules) {
    if (!pattern.test(html)) throw new Error(`prerender: dist/index.html has nothing matching ${pattern}`);
    html = html.replace(pattern, replacement);
  }
  return html;
}

try {
  const { renderPage } = await import(pathToFileURL(path.join(serverBuild, 'prerender.mjs')).href);
  const index = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const root = '<div id="root"></div>';
  if (!index.includes(root)) throw new Error(`prerender: dist/index.html has no ${root}`);
  const manifest = {};
  for (const { route, render = route, file, query = false } of routes) {
    const html = await renderPage(render);
    // A function, not a string: `$'`, `` $` `` or `$&` in the markup would stand for parts of the page.
    const page = lowPriorityScripts(index).replace(root, () => `<div id="root">${html}</div>`);
    writeFileSync(path.join(dist, file), page);
    manifest[route] = { file, query };
    console.log(`prerender: dist/${file} (${(html.length / 1000).toFixed(1)} kB of markup for ${route})`);
  }
  writeFileSync(path.join(dist, 'prerendered.json'), `${JSON.stringify(manifest, null, 2)}\n`);
} finally {
  rmSync(serverBuild, { recursive: true, force: true });
}
