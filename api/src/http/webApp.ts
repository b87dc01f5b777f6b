import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  categoryPageMeta,
  escapeHtml,
  matchPage,
  notFoundPage,
  pages,
  partPageMeta,
  type PageInfo,
  vehiclePageMeta,
} from '@partsyard/common';
import express, { type Express, type Request, type Response } from 'express';
import { isRefusal } from '../errors';

/** Vite names every file under assets/ after its content hash: a new build means new names. */
export const immutableCache = 'public, max-age=31536000, immutable';

const cacheControlFor = (res: Response, file: string, webDist: string) => {
  const relative = path.relative(webDist, file).split(path.sep);
  if (relative[0] === 'assets') res.setHeader('Cache-Control', immutableCache);
  // The pages name the current assets, so browsers must revalidate them on every visit.
  else if (file.endsWith('.html')) res.setHeader('Cache-Control', 'no-cache');
  else res.setHeader('Cache-Control', 'public, max-age=3600');
};

/** What the pages need to know of the parts: a part's name and description, and every part's id. */
export interface WebAppParts {
  getPart(id: string): Promise<{ name: string; description: string }>;
  partsForSitemap(limit: number): Promise<{ id: string; createdAt: Date }[]>;
}

/**
 * What the pages need to know of the catalog: a category and a vehicle by their addresses (null: none so named),
 * and the categories' address names for the sitemap.
 */
export interface WebAppCatalog {
  categoryBySlug(slug: string): Promise<{ name: string } | null>;
  vehicleBySlugs(args: {
    make: string;
    model: string;
    year: number;
    variant?: string;
  }): Promise<{ name: string } | null>;
  categoriesForSitemap(limit: number): Promise<{ slug: string }[]>;
}

/** A sitemap holds at most 50,000 addresses. */
const sitemapLimit = 50_000;

/** The shop's address as the visitor reached it (the proxy's, when one forwards from loopback). */
const originOf = (req: Request) => `${req.protocol}://${req.get('host') ?? 'localhost'}`;

/** The page's HTML with its own title and description (and noindex where crawlers have nothing to read). */
function withMeta(html: string, meta: { title: string; description: string }, index: boolean): string {
  const head = [
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}" />`,
    ...(index ? [] : ['<meta name="robots" content="noindex" />']),
  ].join('\n    ');
  // A function, not the string: in a replacement string `$'` and `` $` `` (which a part's name may hold) stand for
  // the rest of the page and what precedes the match.
  return html
    .replace(/<meta\s+name="description"\s+content="[^"]*"\s*\/?>\s*/, '')
    .replace(/<title>[^<]*<\/title>/, () => head);
}

/**
 * What the server answers for a path of the app: its status (404 for a path that is no page, or a part that
 * does not exist) and its title and description (common/src/pages.ts).
 */
async function describePath(
  pathname: string,
  parts: WebAppParts,
  catalog: WebAppCatalog,
): Promise<{ status: number; meta: { title: string; description: string }; index: boolean; route?: string }> {
  const match = matchPage(pathname);
  if (!match) return { status: 404, meta: notFoundPage, index: false };
  const { page, params } = match;
  const described = await describePage(page, params, parts, catalog);
  return { ...described, route: page.path };
}

async function describePage(
  page: PageInfo,
  params: Record<string, string>,
  parts: WebAppParts,
  catalog: WebAppCatalog,
): Promise<{ status: number; meta: { title: string; description: string }; index: boolean }> {
  if (page.part) {
    try {
      const part = await parts.getPart(params.partId ?? '');
      return { status: 200, meta: page.public ? partPageMeta(part) : page, index: page.public };
    } catch {
      return { status: 404, meta: page, index: false };
    }
  }
  if (page.category) {
    const category = await catalog.categoryBySlug(params.slug ?? '');
    return category
      ? { status: 200, meta: categoryPageMeta(category), index: true }
      : { status: 404, meta: page, index: false };
  }
  if (page.vehicle) {
    // A year is four digits in an address: anything else names no vehicle (and is never asked for).
    const year = /^\d{4}$/.test(params.year ?? '') ? Number(params.year) : null;
    const vehicle =
      year === null
        ? null
        : await catalog
            .vehicleBySlugs({ make: params.make ?? '', model: params.model ?? '', year, variant: params.variant ?? '' })
            .catch((error: unknown) => {
              if (isRefusal(error)) return null; // a year outside the catalog's range names no vehicle either
              throw error;
            });
    return vehicle
      ? { status: 200, meta: vehiclePageMeta(vehicle), index: true }
      : { status: 404, meta: page, index: false };
  }
  return { status: 200, meta: page, index: page.public };
}

/**
 * The pre-rendered pages of a build, by route pattern (common/src/pages.ts): the HTML, and whether it also answers
 * the route's addresses with a query string. The build lists them in prerendered.json (web/scripts/prerender.mjs).
 */
function readPrerendered(webDist: string): Map<string, { html: string; query: boolean }> {
  const manifestFile = path.join(webDist, 'prerendered.json');
  const prerendered = new Map<string, { html: string; query: boolean }>();
  if (!existsSync(manifestFile)) return prerendered;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, { file: string; query: boolean }>;
  for (const [route, { file, query }] of Object.entries(manifest))
    prerendered.set(route, { html: readFileSync(path.join(webDist, file), 'utf8'), query });
  return prerendered;
}

/**
 * The built web app at /: hashed assets cached for a year, the pages revalidated, robots.txt and a sitemap of
 * the public pages, the categories' pages and the parts; every path of the app gets the shell with its own title and description, and
 * a path that is no page answers 404 (the app still shows its 404 page).
 */
export function serveWebApp(app: Express, webDist: string, parts: WebAppParts, catalog: WebAppCatalog): void {
  app.get('/robots.txt', (req, res) => {
    const privatePrefixes = [...new Set(pages.filter((p) => !p.public).map((p) => `/${p.path.split('/')[1]}/`))];
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('text/plain').send(
      [
        'User-agent: *',
        'Allow: /',
        // The signed-in pages (and the API) have nothing for crawlers.
        ...['/api/', '/graphql', '/dashboard', ...privatePrefixes.filter((p) => p !== '/dashboard/')].map(
          (p) => `Disallow: ${p}`,
        ),
        '',
        `Sitemap: ${originOf(req)}/sitemap.xml`,
        '',
      ].join('\n'),
    );
  });

  app.get('/sitemap.xml', async (req, res, next) => {
    try {
      const origin = originOf(req);
      const listed = pages
        .filter((p) => p.public && !p.path.includes(':'))
        .map((p): { loc: string; lastmod?: string } => ({ loc: `${origin}${p.path}` }));
      // The categories before the parts: a few addresses that lead to many. All of it within the limit.
      const categoryPages = (await catalog.categoriesForSitemap(sitemapLimit - listed.length)).map(
        (c): { loc: string; lastmod?: string } => ({ loc: `${origin}/categories/${encodeURIComponent(c.slug)}` }),
      );
      const room = sitemapLimit - listed.length - categoryPages.length;
      const partPages = (room > 0 ? await parts.partsForSitemap(room) : []).map((p) => ({
        loc: `${origin}/parts/${p.id}`,
        lastmod: p.createdAt.toISOString().slice(0, 10),
      }));
      const urls = [...listed, ...categoryPages, ...partPages]
        .map((u) => `  <url><loc>${escapeHtml(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}</url>`)
        .join('\n');
      res.setHeader('Cache-Control', 'public, max-age=600');
      res
        .type('application/xml')
        .send(
          `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
        );
    } catch (error) {
      next(error);
    }
  });

  if (existsSync(path.join(webDist, 'index.html'))) {
    app.use(
      express.static(webDist, {
        index: false,
        cacheControl: false,
        setHeaders: (res, file) => cacheControlFor(res, file, webDist),
      }),
    );
    // A missing hashed asset is a 404, never the shop's page (which a browser would try to run as a script).
    app.use('/assets', (_req, res) => {
      res.status(404).json({ message: 'No such asset' });
    });
    // Some pages are pre-rendered at build time (web/scripts/prerender.mjs, web/src/prerender.tsx): their header
    // and first render paint before the scripts run. Every other path gets the empty shell, which the app fills
    // in. Read once: a new build means a new start.
    const shell = readFileSync(path.join(webDist, 'index.html'), 'utf8');
    const prerendered = readPrerendered(webDist);
    app.get('/{*path}', async (req, res, next) => {
      try {
        const { status, meta, index, route } = await describePath(req.path, parts, catalog);
        // A page that is not there (404) gets the shell, and so does an address with a query string unless the
        // page's first render does not depend on it (the catalog's search or page would not match the HTML).
        const page = status === 200 && route !== undefined ? prerendered.get(route) : undefined;
        const html = page && (page.query || !req.originalUrl.includes('?')) ? page.html : shell;
        res.setHeader('Cache-Control', 'no-cache');
        res
          .status(status)
          .type('html')
          .send(withMeta(html, meta, index));
      } catch (error) {
        next(error);
      }
    });
    return;
  }
  // Before the web is built, still serve the shop's own images (seeded parts point at them).
  app.use('/images', express.static(path.join(webDist, '..', 'public', 'images'), { maxAge: '1h' }));
  app.get('/', (_req, res) => {
    res
      .type('html')
      .send(
        '<!doctype html><title>PartsYard</title><h1>PartsYard API</h1><p>GraphQL at <code>/graphql</code>, REST at <code>/api</code>. The web app has not been built yet.</p>',
      );
  });
}
