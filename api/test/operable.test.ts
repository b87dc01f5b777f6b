import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { makes, models, vehicles } from '../src/catalog/catalogSchema';
import type { Database } from '../src/db/database';
import express from 'express';
import { serveWebApp } from '../src/http/webApp';
import { startServer } from '../src/server';
import { openTestDatabase } from './support/pgliteTemplate';
import { startTestApp, testConfig, type TestApp } from './support/testApp';

/** What operators expect of the process: graceful shutdown, compression, caching, the playground page. */

const root = path.resolve(__dirname, '..', '..');

/** A raw GET (fetch would decompress and hide the encoding). */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      request(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
        .on('error', reject)
        .end();
    },
  );
}

describe('graceful shutdown', () => {
  it('finishes a request in flight, refuses new connections meanwhile, then stops', async () => {
    const real = await openTestDatabase({ kind: 'pglite', dataDir: undefined });
    let pingStarted!: () => void;
    const started = new Promise<void>((resolve) => (pingStarted = resolve));
    // /readyz asks the database; this one takes a second to answer, like a slow query.
    const slow: Database = {
      ...real,
      ping: async () => {
        pingStarted();
        await new Promise((r) => setTimeout(r, 1000));
        await real.ping();
      },
    };
    const server = await startServer(testConfig(), { database: slow });
    const inFlight = fetch(`${server.url}/readyz`);
    await started;

    const closed = server.close();
    // The listening socket is closed at once: a new connection is refused.
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: 'ready' });
    expect(answer.headers.get('connection')).toBe('close');
    await closed;
  });

  it('drops idle keep-alive connections at once, answers a request that was on its way (readiness: 503), and does not wait for a silent connection', async () => {
    const config = testConfig();
    const server = await startServer(config, { database: await openTestDatabase(config.database) });
    const open = () =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect(server.port, '127.0.0.1', () => resolve(socket));
        socket.on('error', reject);
      });
    const closedAt = (socket: Socket) =>
      new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    // A kept-alive connection, idle after its answer.
    const keptAlive = await open();
    keptAlive.write('GET /healthz HTTP/1.1\r\nHost: shop\r\n\r\n');
    await new Promise((resolve) => keptAlive.once('data', resolve));
    const keptAliveClosed = closedAt(keptAlive);
    // A connection whose request is on its way (sent just after the stop begins).
    const late = await open();
    let answer = '';
    late.on('data', (d: Buffer) => (answer += d.toString('utf8')));
    const lateClosed = closedAt(late);
    // A connection that never sends anything (a browser's speculative connection, a TCP health check).
    const silent = await open();
    const silentClosed = closedAt(silent);
    await new Promise((r) => setTimeout(r, 100));

    const t0 = Date.now();
    const closed = server.close({ graceMs: 8_000 });
    // A load balancer's readiness probe on that connection: not ready, from the first moment.
    late.write('GET /readyz HTTP/1.1\r\nHost: shop\r\n\r\n');
    expect((await keptAliveClosed) - t0).toBeLessThan(300);
    await lateClosed;
    expect(answer).toMatch(/^HTTP\/1\.1 503 Service Unavailable/);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(answer).toContain('"status":"stopping"');
    expect((await silentClosed) - t0).toBeLessThan(1_000);
    await closed;
    expect(Date.now() - t0).toBeLessThan(1_500);
  });

  it('with a delay (SHUTDOWN_DELAY), is not ready at once but still takes and answers new connections, saying Connection: close, until it stops listening', async () => {
    const config = testConfig();
    const server = await startServer(config, { database: await openTestDatabase(config.database) });
    const t0 = Date.now();
    const closed = server.close({ graceMs: 8_000, delayMs: 600 });
    // Each fetch below opens a new connection (the answers say Connection: close).
    const readiness = await fetch(`${server.url}/readyz`);
    expect(readiness.status).toBe(503);
    await new Promise((r) => setTimeout(r, 300));
    const meanwhile = await fetch(`${server.url}/api/parts`);
    expect(meanwhile.status).toBe(200);
    expect(meanwhile.headers.get('connection')).toBe('close');
    await closed;
    expect(Date.now() - t0).toBeGreaterThanOrEqual(600);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it('cuts a request that outlives the grace period', async () => {
    const real = await openTestDatabase({ kind: 'pglite', dataDir: undefined });
    let pingStarted!: () => void;
    const started = new Promise<void>((resolve) => (pingStarted = resolve));
    const stuck: Database = {
      ...real,
      ping: async () => {
        pingStarted();
        await new Promise((r) => setTimeout(r, 5000));
      },
    };
    const server = await startServer(testConfig(), { database: stuck });
    const inFlight = fetch(`${server.url}/readyz`).then(
      () => 'answered',
      () => 'cut',
    );
    await started;
    const t0 = Date.now();
    await server.close({ graceMs: 200 });
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(await inFlight).toBe('cut');
  });
});

describe('compression, caching and the playground page', () => {
  let app: TestApp;
  let webDist: string;
  beforeAll(async () => {
    // A stand-in for the built web app: a page, a hashed asset, the playground page and a plain file.
    webDist = mkdtempSync(path.join(os.tmpdir(), 'partsyard-dist-'));
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(webDist, 'home.html'), '<!doctype html><div id="root"><h1>Ride like a pro</h1></div>');
    writeFileSync(path.join(webDist, 'prerendered.json'), JSON.stringify({ '/': { file: 'home.html', query: true } }));
    writeFileSync(path.join(webDist, 'playground.html'), '<!doctype html><div id="playground"></div>');
    writeFileSync(path.join(webDist, 'assets', 'main-Ab12Cd34.js'), 'console.log("shop");'.repeat(200));
    writeFileSync(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    app = await startTestApp('pglite', { webDistDir: webDist });
    const admin = await app.signUp({ admin: true });
    for (let i = 0; i < 12; i++) {
      await app.gql(
        'mutation($input: PartInput!) { addPart(input: $input) { id } }',
        {
          input: {
            name: `Brake lever ${i}`,
            description: 'A forged aluminium brake lever with an adjustable reach, for most sport bikes.',
            price: 12.5,
            minOrder: 10,
            available: 500,
            image: '/images/parts/brake-lever.jpg',
          },
        },
        admin.token,
      );
    }
  });
  afterAll(async () => {
    await app?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('gzips a JSON response when the client accepts it', async () => {
    const res = await rawGet(`${app.url}/api/parts`, { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const parts = JSON.parse(gunzipSync(res.body).toString('utf8')) as unknown[];
    expect(parts).toHaveLength(12);
    const plain = await rawGet(`${app.url}/api/parts`, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(res.body.length).toBeLessThan(plain.body.length);
  });

  it('gzips a GraphQL answer when the client accepts it, sends it as it is when it accepts none, both varying by Accept-Encoding', async () => {
    const query = encodeURIComponent('{ parts(limit: 12) { items { id name description } total } }');
    const url = `${app.url}/graphql?query=${query}`;
    const preflight = { 'apollo-require-preflight': 'true' };
    const gzipped = await rawGet(url, { ...preflight, 'accept-encoding': 'gzip' });
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    const plain = await rawGet(url, preflight);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gunzipSync(gzipped.body).toString('utf8')).toBe(plain.body.toString('utf8'));
    expect(JSON.parse(plain.body.toString('utf8'))).toMatchObject({ data: { parts: { total: 12 } } });
    for (const res of [gzipped, plain]) {
      expect(String(res.headers.vary).split(/,\s*/).sort()).toEqual(['Accept-Encoding', 'Authorization']);
      expect(res.headers.etag).toBeDefined();
    }
    // A POST's answer is written with its length (no ETag: nothing revalidates a POST).
    const posted = await new Promise<{ headers: Record<string, string | string[] | undefined>; body: string }>(
      (resolve, reject) => {
        const body = JSON.stringify({ query: '{ parts(limit: 12) { items { id name description } total } }' });
        request(`${app.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ headers: res.headers, body: text }));
        })
          .on('error', reject)
          .end(body);
      },
    );
    expect(posted.body).toBe(plain.body.toString('utf8'));
    expect(posted.headers['content-length']).toBe(String(Buffer.byteLength(posted.body)));
    expect(posted.headers.etag).toBeUndefined();
  });

  it('caches hashed assets for a year (immutable), and revalidates index.html', async () => {
    const asset = await fetch(`${app.url}/assets/main-Ab12Cd34.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const page of ['/index.html', '/', '/blog']) {
      const res = await fetch(`${app.url}${page}`);
      expect({ page, status: res.status, cache: res.headers.get('cache-control') }).toEqual({
        page,
        status: 200,
        cache: 'no-cache',
      });
    }
    expect((await fetch(`${app.url}/favicon.svg`)).headers.get('cache-control')).toBe('public, max-age=3600');
    // The pre-rendered home page for / only; every other page address gets the empty shell.
    expect(await (await fetch(`${app.url}/`)).text()).toContain('Ride like a pro');
    for (const page of ['/parts', '/dashboard/my-orders', '/index.html'])
      expect([page, await (await fetch(`${app.url}${page}`)).text()]).toEqual([
        page,
        '<!doctype html><div id="root"></div>',
      ]);
    // A missing asset is a 404, not the shop's page.
    expect((await fetch(`${app.url}/assets/gone-12345678.js`)).status).toBe(404);
  });

  it('GET /graphql from a browser (Accept: text/html) answers the playground page, not cached', async () => {
    const res = await fetch(`${app.url}/graphql`, {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toContain('<div id="playground">');
  });

  it('POST /graphql keeps working, and Apollo’s CSRF prevention still refuses a simple GET operation', async () => {
    const { data } = await app.gql<{ parts: { total: number } }>('{ parts { total } }');
    expect(data?.parts.total).toBe(12);
    const get = await fetch(`${app.url}/graphql?query=${encodeURIComponent('{ parts { total } }')}`);
    expect(get.status).toBe(400);
    expect(await get.text()).toMatch(/CSRF/i);
    const form = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ query: '{ parts { total } }' }),
    });
    expect(form.status).toBe(400);
  });
});

describe('honest pages: robots.txt, the sitemap, a title and description per page, 404 for what is no page', () => {
  let app: TestApp;
  let webDist: string;
  let partId: string;
  const shell =
    '<!doctype html><html><head><meta name="description" content="Shell description" /><title>Shell</title></head><body><div id="root"></div></body></html>';
  beforeAll(async () => {
    webDist = mkdtempSync(path.join(os.tmpdir(), 'partsyard-dist-'));
    writeFileSync(path.join(webDist, 'index.html'), shell);
    const prerendered = (markup: string) => shell.replace('<div id="root"></div>', `<div id="root">${markup}</div>`);
    writeFileSync(path.join(webDist, 'home.html'), prerendered('home'));
    writeFileSync(path.join(webDist, 'parts.html'), prerendered('catalog'));
    writeFileSync(path.join(webDist, 'category.html'), prerendered('a category'));
    writeFileSync(
      path.join(webDist, 'prerendered.json'),
      JSON.stringify({
        '/': { file: 'home.html', query: true },
        '/parts': { file: 'parts.html', query: false },
        '/categories/:slug': { file: 'category.html', query: false },
      }),
    );
    app = await startTestApp('pglite', { webDistDir: webDist });
    const admin = await app.signUp({ admin: true });
    const added = await app.gql<{ addPart: { id: string } }>(
      'mutation($input: PartInput!) { addPart(input: $input) { id } }',
      {
        input: {
          name: 'Chain <Kit> & Sprockets',
          description: 'A 520 chain with both sprockets.',
          price: 40,
          minOrder: 2,
          available: 20,
        },
      },
      admin.token,
    );
    partId = added.data?.addPart.id ?? '';
    // A category and one below it: both have pages (/categories/<slug>) for crawlers to find.
    const top = await app.gql<{ createCategory: { id: string } }>(
      'mutation { createCategory(name: "Brakes") { id } }',
      {},
      admin.token,
    );
    await app.gql(
      'mutation($parent: ID) { createCategory(name: "Brake pads", parentId: $parent) { id } }',
      { parent: top.data?.createCategory.id },
      admin.token,
    );
  });
  afterAll(async () => {
    await app?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  const page = async (pathname: string) => {
    const res = await fetch(`${app.url}${pathname}`);
    const html = await res.text();
    return {
      status: res.status,
      title: /<title>([^<]*)<\/title>/.exec(html)?.[1],
      description: /<meta name="description" content="([^"]*)"/.exec(html)?.[1],
      noindex: html.includes('<meta name="robots" content="noindex" />'),
      descriptions: html.match(/name="description"/g)?.length,
      html,
    };
  };

  it('robots.txt is text for crawlers, keeping them off the signed-in pages and naming the sitemap', async () => {
    const res = await fetch(`${app.url}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    for (const path of ['/dashboard', '/purchase/', '/payment/', '/reviews/', '/api/'])
      expect([path, text.includes(`Disallow: ${path}\n`)]).toEqual([path, true]);
    expect(text).toContain(`Sitemap: ${app.url}/sitemap.xml`);
  });

  it("the sitemap lists the public pages, every category's page and every part, and no signed-in page", async () => {
    const res = await fetch(`${app.url}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await res.text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1].slice(app.url.length));
    expect(locs).toEqual([
      '/',
      '/parts',
      '/portfolio',
      '/blog',
      '/quick-order',
      '/login',
      '/signup',
      '/categories/brake-pads',
      '/categories/brakes',
      `/parts/${partId}`,
    ]);
  });

  it.each([
    ['/', 'PartsYard — reliable motorcycle parts since 1967'],
    ['/parts', 'All parts — PartsYard'],
    ['/blog', 'Blog — PartsYard'],
    ['/portfolio', 'Portfolio — PartsYard'],
    ['/login', 'Login — PartsYard'],
    ['/signup', 'Sign up — PartsYard'],
    ['/quick-order', 'Quick order — PartsYard'],
  ])('%s answers 200 with its own title and a description, open to crawlers', async (pathname, title) => {
    const answer = await page(pathname);
    expect({ status: answer.status, title: answer.title, noindex: answer.noindex }).toEqual({
      status: 200,
      title,
      noindex: false,
    });
    expect(answer.description?.length).toBeGreaterThan(20);
    expect(answer.descriptions).toBe(1);
  });

  it("a part's page carries its name (escaped) and description; an unknown part answers 404", async () => {
    const part = await page(`/parts/${partId}`);
    expect([part.status, part.title, part.description]).toEqual([
      200,
      'Chain &lt;Kit&gt; &amp; Sprockets — PartsYard',
      'A 520 chain with both sprockets.',
    ]);
    for (const pathname of ['/parts/00000000-0000-4000-8000-000000000000', '/parts/not-an-id', '/purchase/nope'])
      expect([pathname, (await page(pathname)).status]).toEqual([pathname, 404]);
  });

  it("a part whose name or description holds `$'` or `` $` `` gets exactly that text, escaped, and the page once", async () => {
    // String.prototype.replace reads `$'` and `` $` `` in a replacement string as "the rest of the document" and
    // "what came before": a part named so would paste the page into its own title.
    const admin = await app.signUp({ admin: true });
    const added = await app.gql<{ addPart: { id: string } }>(
      'mutation($input: PartInput!) { addPart(input: $input) { id } }',
      {
        input: {
          name: "Pads $' x $` & $& $1",
          description: "Sintered $` pads $'.",
          price: 30,
          minOrder: 1,
          available: 5,
        },
      },
      admin.token,
    );
    const answer = await page(`/parts/${added.data?.addPart.id ?? ''}`);
    expect([answer.status, answer.title, answer.description]).toEqual([
      200,
      'Pads $&#39; x $` &amp; $&amp; $1 — PartsYard',
      'Sintered $` pads $&#39;.',
    ]);
    // The shell, with its title and description changed, and nothing else: no second copy of any of it.
    expect(answer.html.replace(/<title>.*<\/title>\s*<meta name="description" content="[^"]*" \/>/, '')).toBe(
      shell.replace('<meta name="description" content="Shell description" /><title>Shell</title>', ''),
    );
  });

  it("a category's and a bike's pages carry their own titles; an unknown category or bike address answers 404", async () => {
    const { db } = app.server.database;
    // The categories Brakes > Brake pads are the describe's own (beforeAll).
    const [honda] = await db.insert(makes).values({ name: 'Honda', slug: 'honda' }).returning();
    const [crf] = await db.insert(models).values({ makeId: honda.id, name: 'CRF450R', slug: 'crf450r' }).returning();
    await db.insert(vehicles).values([
      { modelId: crf.id, year: 2019 },
      { modelId: crf.id, year: 2020, variant: 'ABS' },
    ]);

    for (const [pathname, title] of [
      ['/categories/brake-pads', 'Brake pads — PartsYard'],
      ['/categories/brakes', 'Brakes — PartsYard'],
      ['/bikes/honda/crf450r/2019', 'Parts for the 2019 Honda CRF450R — PartsYard'],
      ['/bikes/honda/crf450r/2020/abs', 'Parts for the 2020 Honda CRF450R ABS — PartsYard'],
    ]) {
      const answer = await page(pathname);
      expect([pathname, answer.status, answer.title, answer.noindex, answer.descriptions]).toEqual([
        pathname,
        200,
        title,
        false,
        1,
      ]);
      expect(answer.description?.length).toBeGreaterThan(20);
    }
    for (const pathname of [
      '/categories/no-such-category',
      '/categories/Brakes', // slugs are lower-case: no other spelling names the category
      '/categories/brakes/extra',
      '/bikes/honda/crf450r/2018', // no such year
      '/bikes/honda/crf450r/2020', // 2020 has the ABS variant alone
      '/bikes/honda/crf450r/2019/abs',
      '/bikes/yamaha/crf450r/2019',
      '/bikes/honda/crf450r/19',
      '/bikes/honda/crf450r/0001', // a year outside the catalog's range
      '/bikes/honda/crf450r/twenty',
      '/bikes/honda/crf450r',
    ]) {
      const answer = await page(pathname);
      expect([pathname, answer.status, answer.noindex]).toEqual([pathname, 404, true]);
    }
  });

  it('a pre-rendered page (web/dist/prerendered.json) is sent for its route, with its own title; the shell for a query string it does not take, or an address that is no page', async () => {
    const root = (html: string) => /<div id="root">([^<]*)<\/div>/.exec(html)?.[1];
    for (const [pathname, status, markup, title] of [
      ['/', 200, 'home', 'PartsYard — reliable motorcycle parts since 1967'],
      ['/?ref=newsletter', 200, 'home', 'PartsYard — reliable motorcycle parts since 1967'],
      ['/parts', 200, 'catalog', 'All parts — PartsYard'],
      ['/parts?q=pads&page=2', 200, '', 'All parts — PartsYard'], // the catalog's first render depends on them
      ['/categories/brakes', 200, 'a category', 'Brakes — PartsYard'],
      ['/categories/brakes?inStock=1', 200, '', 'Brakes — PartsYard'],
      ['/categories/no-such-category', 404, '', 'Category — PartsYard'],
      [`/parts/${partId}`, 200, '', 'Chain &lt;Kit&gt; &amp; Sprockets — PartsYard'], // none for this route here
    ] as const) {
      const answer = await page(pathname);
      expect([pathname, answer.status, root(answer.html), answer.title, answer.descriptions]).toEqual([
        pathname,
        status,
        markup,
        title,
        1,
      ]);
    }
  });

  it('a signed-in page answers 200 with its title, kept from crawlers', async () => {
    const answer = await page('/dashboard/my-orders');
    expect([answer.status, answer.title, answer.noindex]).toEqual([200, 'My Orders — PartsYard', true]);
  });

  it('a path that is no page answers 404 with the app (which shows its 404 page)', async () => {
    for (const pathname of ['/no/such/page', '/dashboard/nope', '/blog/extra']) {
      const answer = await page(pathname);
      expect([pathname, answer.status, answer.title, answer.noindex]).toEqual([
        pathname,
        404,
        'Page not found — PartsYard',
        true,
      ]);
      expect(answer.html).toContain('<div id="root"></div>');
    }
  });
});

/** The boot script's data in a built page (web/boot/boot.js reads it). */
function bootData(html: string): { landing: Record<string, string[]>; chunks: string[]; lowPriority: boolean } {
  const json = /<script type="application\/json" id="partsyard-boot">([^<]*)<\/script>/.exec(html)?.[1];
  if (!json) throw new Error('the page has no #partsyard-boot data');
  return JSON.parse(json) as ReturnType<typeof bootData>;
}

describe('the sitemap within 50,000 addresses', () => {
  /** The sitemap of a shop with `categoryCount` categories and `partCount` parts (no database: the counts alone). */
  async function sitemapOf(categoryCount: number, partCount: number) {
    const asked: { categories?: number; parts?: number } = {};
    const app = express();
    serveWebApp(
      app,
      path.join(os.tmpdir(), 'partsyard-no-dist'),
      {
        getPart: () => Promise.reject(new Error('not asked')),
        partsForSitemap: async (limit) => {
          asked.parts = limit;
          return Array.from({ length: Math.min(limit, partCount) }, (_, i) => ({
            id: `p${i}`,
            createdAt: new Date('2026-01-02T00:00:00Z'),
          }));
        },
      },
      {
        categoryBySlug: () => Promise.reject(new Error('not asked')),
        vehicleBySlugs: () => Promise.reject(new Error('not asked')),
        categoriesForSitemap: async (limit) => {
          asked.categories = limit;
          return Array.from({ length: Math.min(limit, categoryCount) }, (_, i) => ({ slug: `c${i}` }));
        },
      },
    );
    const server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as { port: number };
      const xml = await (await fetch(`http://127.0.0.1:${port}/sitemap.xml`)).text();
      const locs = [...xml.matchAll(/<loc>[^<]*\/(categories|parts)\/[^<]+<\/loc>/g)].map((m) => m[1]);
      return {
        total: xml.match(/<url>/g)?.length ?? 0,
        categories: locs.filter((l) => l === 'categories').length,
        parts: locs.filter((l) => l === 'parts').length,
        asked,
      };
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('lists every category and every part when they fit', async () => {
    const map = await sitemapOf(30, 1_000);
    expect([map.categories, map.parts]).toEqual([30, 1_000]);
  });

  it('keeps all of it (pages, categories, parts) within 50,000 addresses: the parts get the room the categories leave', async () => {
    const staticPages = (await sitemapOf(0, 0)).total;
    expect(staticPages).toBeGreaterThan(0);
    const map = await sitemapOf(2_000, 60_000);
    expect(map.total).toBe(50_000);
    expect(map.categories).toBe(2_000);
    expect(map.parts).toBe(50_000 - staticPages - 2_000);
    // Never more asked of the database than there is room for.
    expect(map.asked.parts).toBe(map.parts);
  });

  it('asks no part at all when the categories alone fill it', async () => {
    const map = await sitemapOf(60_000, 10);
    expect([map.total, map.parts]).toEqual([50_000, 0]);
    expect(map.asked.parts).toBeUndefined();
  });
});

describe('the built playground (web/dist)', () => {
  const webDist = path.join(root, 'web', 'dist');
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('pglite', { webDistDir: webDist });
  });
  afterAll(() => app?.close());

  it('serves the home page pre-rendered at /: header and hero in the HTML, with the shell’s own scripts', async () => {
    const home = await (await fetch(`${app.url}/`)).text();
    const shell = await (await fetch(`${app.url}/blog`)).text();
    expect(shell).toContain('<div id="root"></div>');
    expect(home).not.toContain('<div id="root"></div>');
    for (const text of ['Ride like a pro', 'Popular Moto Parts', '>Login<', 'aria-label="Main"'])
      expect([text, home.includes(text)]).toEqual([text, true]);
    // The same scripts, fetched at low priority on the pre-rendered page (its first paint does not need them).
    const scripts = (html: string) =>
      [...html.matchAll(/<script[^>]*>|<link rel="modulepreload"[^>]*>/g)].map((m) => m[0]);
    expect(scripts(home).map((tag) => tag.replace(' fetchpriority="low"', ''))).toEqual(scripts(shell));
    expect(scripts(home).filter((tag) => tag.includes('src=') || tag.includes('href='))).toEqual(
      scripts(home).filter((tag) => tag.includes('fetchpriority="low"')),
    );
    expect([bootData(home).lowPriority, bootData(shell).lowPriority]).toEqual([true, false]);
  });

  it('has no inline script (the Content-Security-Policy allows none): only files of ours and JSON data', async () => {
    for (const page of ['/', '/parts', '/graphql']) {
      const html = await (await fetch(`${app.url}${page}`, { headers: { accept: 'text/html' } })).text();
      const inline = [...html.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)].filter(
        ([, attributes, body]) => body.trim() !== '' && !attributes.includes('type="application/json"'),
      );
      expect({ page, inline: inline.map((m) => m[0].slice(0, 80)) }).toEqual({ page, inline: [] });
      expect(html).not.toMatch(/\son[a-z]+="/); // no inline event handlers either
    }
  });

  it('preloads the shell’s chunks and has them added one after another (one evaluation per task), the entry last', async () => {
    for (const page of ['/', '/parts']) {
      const html = await (await fetch(`${app.url}${page}`)).text();
      // No module script runs on its own: every chunk is preloaded, and the loader adds them one after another.
      expect([page, /<script type="module"/.test(html)]).toEqual([page, false]);
      const preloaded = [...html.matchAll(/<link rel="modulepreload"[^>]* href="([^"]+)">/g)].map((m) => m[1]);
      const order = bootData(html).chunks;
      expect(order.slice(-1)[0]).toMatch(/^\/assets\/main-[\w-]+\.js$/);
      expect([...order].sort()).toEqual([...preloaded].sort());
      const boot = /<script async (?:fetchpriority="low" )?src="(\/assets\/boot-[\w-]+\.js)">/.exec(html)?.[1];
      expect(boot).toBeDefined();
      for (const file of [...order, boot as string, ...(bootData(html).landing[page] ?? [])])
        expect({ file, status: (await fetch(`${app.url}${file}`)).status }).toEqual({ file, status: 200 });
    }
  });

  it('the chart library (uPlot) is in the admin overview’s chart chunk alone: the home page loads none of it', async () => {
    const assets = path.join(webDist, 'assets');
    // uPlot's own class names (its code is minified, these strings are not).
    const isChart = (code: string) => ['u-over', 'u-legend', 'u-cursor-x', 'u-wrap'].every((c) => code.includes(c));
    const withChart = readdirSync(assets).filter(
      (f) => f.endsWith('.js') && isChart(readFileSync(path.join(assets, f), 'utf8')),
    );
    expect(withChart.map((f) => f.split('-')[0])).toEqual(['RevenueChart']);
    const home = await (await fetch(`${app.url}/`)).text();
    const scripts = new Set([
      ...[...home.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]),
      ...bootData(home).chunks,
      ...(bootData(home).landing['/'] ?? []),
    ]);
    expect(scripts.size).toBeGreaterThan(3);
    for (const file of scripts) {
      const code = await (await fetch(`${app.url}${file}`)).text();
      expect({ file, chart: isChart(code) }).toEqual({ file, chart: false });
    }
  });

  it('is served at GET /graphql, and every script, style and worker it loads exists, offline', async () => {
    const res = await fetch(`${app.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<title>PartsYard GraphQL playground</title>');
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    // Nothing from another host (no CDN).
    expect(html).not.toMatch(/(?:src|href)="(https?:)?\/\//);
    const entry = assets.find((a) => /\/playground-[\w-]+\.js$/.test(a));
    expect(entry).toBeDefined();
    for (const asset of assets) {
      const file = await fetch(`${app.url}${asset}`);
      expect({ asset, status: file.status }).toEqual({ asset, status: 200 });
    }
    // Monaco's workers (Vite `?worker` imports) are bundled files of ours too.
    const workers = readdirSync(path.join(webDist, 'assets')).filter((f) => /^(editor|json|graphql)\.worker-/.test(f));
    expect(workers.map((w) => w.split('-')[0]).sort()).toEqual(['editor.worker', 'graphql.worker', 'json.worker']);
    for (const worker of workers) {
      expect({ worker, status: (await fetch(`${app.url}/assets/${worker}`)).status }).toEqual({ worker, status: 200 });
    }
  });
});
