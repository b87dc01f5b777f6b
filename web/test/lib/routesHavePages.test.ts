import { matchPage } from '@partsyard/common';
import type { RouteObject } from 'react-router-dom';
import { routes } from '../../src/app/router';

/** Every path the app routes, as a pattern (`/dashboard/lists/:listId`), from the nested route objects. */
function patterns(list: RouteObject[], parent = ''): string[] {
  return list.flatMap((route) => {
    const own = route.path === undefined ? parent : `${parent.replace(/\/$/, '')}/${route.path}`;
    const here = route.path !== undefined && route.path !== '*' ? [own] : route.index ? [parent || '/'] : [];
    return [...here, ...patterns(route.children ?? [], own)];
  });
}

/*
 * The server answers a path with the app's shell only when common/src/pages.ts lists it (else 404, with its own
 * title and description): a page the router has and pages.ts lacks loads when reached by a link, and answers 404
 * when reloaded or opened from a bookmark (as /dashboard/imports once did).
 */
describe('the routes and the server’s list of pages (common/src/pages.ts)', () => {
  it('lists every page the router has', () => {
    const missing = [...new Set(patterns(routes))].filter((pattern) => {
      const sample = pattern.replace(/:[A-Za-z]+/g, 'x');
      return matchPage(sample)?.page.path !== pattern;
    });
    expect(missing).toEqual([]);
  });
});
