/**
 * React DOM's entry points, bundled into the `react` chunk (web/vite.config.ts). The build puts Preact's in their
 * place (`preactForReact`): small ES modules. With React DOM itself (the component tests, the development server),
 * which is CommonJS and starts on first use, using them from here makes it start while the `react` chunk is
 * evaluated, in a task of its own (see the boot script), not inside the entry's.
 */
export { createRoot, hydrateRoot } from 'react-dom/client';
