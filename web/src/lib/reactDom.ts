/**
 * React DOM's entry points, bundled into the `react` chunk (web/vite.config.ts). React and React DOM are
 * CommonJS: the bundler wraps them so that they start on first use. Used from here, they start while the
 * `react` chunk itself is evaluated, in a task of their own (see evaluateChunksApart), not inside the entry's.
 */
export { createRoot, hydrateRoot } from 'react-dom/client';
