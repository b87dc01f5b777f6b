import { useSyncExternalStore } from 'react';

const neverChanges = () => () => {};

/**
 * False while React renders the pre-rendered pages at build time and while the browser hydrates one; true
 * on every other render. A component whose first render in the browser would differ from that HTML (because
 * it depends on the visitor) renders as the HTML did until then, so that hydration matches, and then as it
 * should: React renders it again at once.
 */
export const useHydrated = (): boolean =>
  useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
