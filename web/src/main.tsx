import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from './lib/reactDom';
import { App } from './app/App';
import { createRouter } from './app/router';
import { getAccessToken } from './lib/session';
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
  render();
} else {
  // The home page arrives pre-rendered (dist/home.html, src/prerender.tsx) as an anonymous visitor's first
  // render. Both ways below wait for the page's code: before it, the router would render the page blank.
  void pageLoaded().then(() => {
    // An anonymous visitor's first render matches that markup: React adopts it instead of building it again.
    if (!getAccessToken()) startTransition(() => void hydrateRoot(container, app));
    // With a token the header starts in its loading state, not as rendered: React replaces the markup.
    else render();
  });
}
