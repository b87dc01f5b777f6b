import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from './lib/reactDom';
import { App } from './app/App';
import { createRouter } from './app/router';
import './index.css';

const container = document.getElementById('root') as HTMLElement;
const router = createRouter();
const app = (
  <StrictMode>
    <App router={router} />
  </StrictMode>
);

/** Resolves once the router has loaded the code of the page at the address opened. */
const pageLoaded = () =>
  new Promise<void>((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });

// Rendered as transitions, the first render and the hydration yield to the browser every few milliseconds
// instead of holding the main thread for the whole app at once (long tasks are what Total Blocking Time counts).
const render = () => startTransition(() => createRoot(container).render(app));

if (!container.hasChildNodes()) {
  // After the page's code has loaded: rendered before, the router would have nothing to show for the page
  // (and would warn that no HydrateFallback was given).
  void pageLoaded().then(render);
} else {
  // Some pages arrive pre-rendered (dist/home.html and the others of web/scripts/prerender.mjs, src/prerender.tsx)
  // as an anonymous visitor's first render; React adopts that markup instead of building it again (what depends
  // on the visitor, the account menu, renders as the HTML did until hydration is done: lib/hydration.ts). It waits
  // for the page's code: before it, the router would render the page blank.
  void pageLoaded().then(() => startTransition(() => void hydrateRoot(container, app)));
}
