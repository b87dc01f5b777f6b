import { ApolloProvider } from '@apollo/client';
import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { Toasts } from '../components/Toasts';
import { AuthProvider } from '../features/auth/AuthProvider';
import { createApolloClient } from '../lib/apollo';
import { ClientSettingsProvider } from './ClientSettings';
import { createRouter } from './router';

/** Providers (Apollo, client settings, sign-in state), the router, and the toasts. */
export function App() {
  const [client] = useState(createApolloClient);
  const [router] = useState(createRouter);
  return (
    <ApolloProvider client={client}>
      <ClientSettingsProvider>
        <AuthProvider>
          <RouterProvider router={router} />
          <Toasts />
        </AuthProvider>
      </ClientSettingsProvider>
    </ApolloProvider>
  );
}
