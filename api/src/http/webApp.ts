import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Express, type Response } from 'express';

/** Vite names every file under assets/ after its content hash: a new build means new names. */
export const immutableCache = 'public, max-age=31536000, immutable';

const cacheControlFor = (res: Response, file: string, webDist: string) => {
  const relative = path.relative(webDist, file).split(path.sep);
  if (relative[0] === 'assets') res.setHeader('Cache-Control', immutableCache);
  // The pages name the current assets, so browsers must revalidate them on every visit.
  else if (file.endsWith('.html')) res.setHeader('Cache-Control', 'no-cache');
  else res.setHeader('Cache-Control', 'public, max-age=3600');
};

/** The built web app at /: hashed assets cached for a year, the pages revalidated, every other path the shop. */
export function serveWebApp(app: Express, webDist: string): void {
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
    // The home page is pre-rendered at build time (web/src/prerender.tsx): its header and hero paint before
    // the scripts run. Every other path gets the empty shell, which the app fills in.
    const home = path.join(webDist, 'home.html');
    const shell = path.join(webDist, 'index.html');
    const homeExists = existsSync(home);
    app.get('/{*path}', (req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(req.path === '/' && homeExists ? home : shell);
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
