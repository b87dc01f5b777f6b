import { matchPage, notFoundPage } from '@partsyard/common';
import { useEffect } from 'react';

/** Sets the document's title and its meta description. */
export function setPageMeta({ title, description }: { title: string; description: string }): void {
  document.title = title;
  let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'description';
    document.head.appendChild(meta);
  }
  meta.content = description;
}

/** The title and description of the page at `pathname` (common/src/pages.ts), set as the visitor moves. */
export function usePageMeta(pathname: string): void {
  useEffect(() => setPageMeta(matchPage(pathname)?.page ?? notFoundPage), [pathname]);
}
