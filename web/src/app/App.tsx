import { ApolloProvider, type ApolloClient } from '@apollo/client';
import { useState, type ReactNode } from 'react';
import { RouterProvider } from 'react-router-dom';
import { Toasts } from '../components/Toasts';
import { AuthProvider } from '../lib/auth';
import { createApolloClient } from '../lib/apollo';
import { ClientSettingsProvider } from '../lib/clientSettings';
import { createRouter } from './router';

/**
 * Providers (Apollo, client settings, sign-in state) around the pages, and the toasts. The browser's app and
 * the build's pre-render of the home page (src/prerender.tsx) share it, so that their markup matches.
 */
export function AppShell({ client, children }: { client: ApolloClient<unknown>; children: ReactNode }) {
  return (
    <ApolloProvider client={client}>
      <ClientSettingsProvider>
        <AuthProvider>
          {children}
          <Toasts />
        </AuthProvider>
      </ClientSettingsProvider>
    </ApolloProvider>
  );
}

type Router = ReturnType<typeof createRouter>;

/** The app in the browser: the shell around the router. */
export function App({ router: given }: { router?: Router } = {}) {
  const [client] = useState(createApolloClient);
  const [router] = useState(() => given ?? createRouter());
  return (
    <AppShell client={client}>
      {/* Navigations are plain state updates, not transitions: a transition's render could be cut short by the
          page it leaves (a list asking `cache-and-network` again for its old filter), over and over, so a search
          typed into an admin list never landed (web/test/admin/ManagePartsPage.test.tsx, on a slow machine). */}
      <RouterProvider router={router} useTransitions={false} />
    </AppShell>
  );
}
