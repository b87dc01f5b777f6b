import { MemoryRouter, type MemoryRouterProps } from 'react-router-dom';

/**
 * The router of the tests that render pages: a MemoryRouter whose navigations are plain state updates, as the
 * app's RouterProvider makes them (web/src/app/App.tsx, docs/decisions.md "Web client").
 */
export function TestRouter(props: MemoryRouterProps) {
  return <MemoryRouter {...props} useTransitions={false} />;
}
