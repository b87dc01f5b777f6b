import { ApolloClient, ApolloLink, InMemoryCache, Observable } from '@apollo/client';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { AppShell } from './app/App';
import { routes } from './app/router';

/**
 * A page as a visitor's first render in the browser shows it, rendered to HTML at build time (web/scripts/
 * prerender.mjs writes the home page into dist/home.html, the catalog's, a category's, a part's and the login
 * page's beside it, which the server sends for those routes). A visitor then sees the header and the page's
 * first render as soon as the HTML and the style sheet arrive, not after the scripts have downloaded and run;
 * then the app hydrates that markup (main.tsx).
 *
 * The state rendered is the one an anonymous visitor's first render has: data not yet arrived (the popular
 * parts' and the catalog's placeholders), below-the-fold sections not yet near, signed out.
 */
export async function renderPage(pathname: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://prerender.local${pathname}`));
  if (context instanceof Response) throw new Error(`prerender: ${pathname} answered a redirect`);
  if (context.errors) throw new Error(`prerender: ${pathname} failed: ${JSON.stringify(context.errors)}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  // No request leaves the build: every query stays loading, as on the first render in the browser.
  const client = new ApolloClient({
    ssrMode: true,
    cache: new InMemoryCache(),
    link: new ApolloLink(() => new Observable(() => undefined)),
  });
  return renderToString(
    <StrictMode>
      <AppShell client={client}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppShell>
    </StrictMode>,
  );
}
