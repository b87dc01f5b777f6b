import './monacoWorkers';
import { GraphiQL, type GraphiQLProps } from 'graphiql';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'graphiql/style.css';
import './playground.css';
import { moveTabRoleToButtons } from './accessibleTabs';
import { defaultQuery, initialHeaders, initialQuery } from './playgroundSettings';

/** Same-origin POST with JSON, which Apollo's CSRF prevention accepts. */
const fetcher: GraphiQLProps['fetcher'] = async (params, options) => {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...options?.headers },
    body: JSON.stringify(params),
  });
  return (await res.json()) as Record<string, unknown>;
};

const root = document.getElementById('playground') as HTMLElement;
moveTabRoleToButtons(root);
createRoot(root).render(
  <StrictMode>
    <GraphiQL
      fetcher={fetcher}
      defaultQuery={defaultQuery}
      initialQuery={initialQuery(window.location.search)}
      initialHeaders={initialHeaders(window.localStorage)}
      defaultEditorToolsVisibility="headers"
    >
      <GraphiQL.Logo>PartsYard API</GraphiQL.Logo>
    </GraphiQL>
  </StrictMode>,
);
