import { matchPage, notFoundPage } from '@partsyard/common';
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

type PageMeta = { title: string; description: string };

/** Sets the document's title and its meta description. */
export function setPageMeta({ title, description }: PageMeta): void {
  document.title = title;
  let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'description';
    document.head.appendChild(meta);
  }
  meta.content = description;
}

/**
 * The meta a page set for itself (a category's name, a vehicle's), by path: the route's own meta must not replace
 * it when both are set in one render (a page whose data was already in the cache).
 */
let own: { pathname: string; meta: PageMeta } | null = null;

/** The title and description of the page at `pathname` (common/src/pages.ts), set as the visitor moves. */
export function usePageMeta(pathname: string): void {
  useEffect(
    () => setPageMeta(own?.pathname === pathname ? own.meta : (matchPage(pathname)?.page ?? notFoundPage)),
    [pathname],
  );
}

/** A page's own title and description once it knows them (null until then): the same as the server writes. */
export function useOwnPageMeta(meta: PageMeta | null): void {
  const { pathname } = useLocation();
  const title = meta?.title;
  const description = meta?.description;
  useEffect(() => {
    if (title === undefined || description === undefined) return;
    own = { pathname, meta: { title, description } };
    setPageMeta(own.meta);
  }, [pathname, title, description]);
}
