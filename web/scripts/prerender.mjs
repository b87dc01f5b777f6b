// Writes dist/home.html: dist/index.html with the home page's first render inside #root (src/prerender.tsx).
// Runs after `vite build` and `vite build --ssr src/prerender.tsx` (npm run build -w web).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(web, 'dist');
const serverBuild = path.join(web, 'dist-prerender');

// What the app's modules read while rendering, as a browser shows them on an anonymous visitor's first render:
// sections below the fold not yet near (no IntersectionObserver callback yet), and no access token.
globalThis.IntersectionObserver = class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
globalThis.localStorage = { getItem: () => null, setItem() {}, removeItem() {} };

/**
 * On the pre-rendered page the first paint needs the HTML and the style sheet only: the app's scripts (the
 * entry and the shell's chunks, preloaded, and the page chunk the boot script preloads) are fetched at low priority,
 * so that on a slow network they do not compete with the style sheet. The empty shell keeps them as they are.
 * (The boot script, web/boot/boot.js, reads `lowPriority` from the page's data.)
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
  const html = await renderPage('/');
  const index = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const root = '<div id="root"></div>';
  if (!index.includes(root)) throw new Error(`prerender: dist/index.html has no ${root}`);
  // A function, not a string: `$'`, `` $` `` or `$&` in the markup would stand for parts of the page.
  writeFileSync(
    path.join(dist, 'home.html'),
    lowPriorityScripts(index).replace(root, () => `<div id="root">${html}</div>`),
  );
  console.log(`prerender: dist/home.html (${(html.length / 1000).toFixed(1)} kB of markup for /)`);
} finally {
  rmSync(serverBuild, { recursive: true, force: true });
}
