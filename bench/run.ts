/**
 * `npm run bench`: the shop's server-side benchmark (a benchmark, not a test: it never fails on slowness).
 *
 * Creates a fresh PostgreSQL database (or an in-memory PGlite with `--pglite`), fills it with 10,000 parts,
 * 2,000 users, 100,000 orders and 20,000 reviews, starts the app and drives it on loopback with autocannon
 * (in a child process, so the load generator does not share the server's event loop). Prints a table and
 * writes it to docs/performance.md, then drops its database.
 *
 * Options: --pglite, --duration <seconds> (default 10), --warmup <seconds> (default 3), --connections <n>
 * (default 32), --only <regex>, --catalog-scale (below) and
 * --replicas <n> (printed, not written: below).
 * PostgreSQL server: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test.
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { Kind, parse, print, visit, type DefinitionNode } from 'graphql';
import { Client } from 'pg';
import * as prettier from 'prettier';
import {
  defaultGraphqlCompileAfter,
  defaultHttpTimeouts,
  defaultOverviewMaxAgeMs,
  defaultSeller,
  defaultWorkerHeapLimitMiB,
  type Config,
} from '../api/src/config';
import { openDatabase, type Db } from '../api/src/db/database';
import { createAccessTokens } from '../api/src/identity/accessTokens';
import { startServer, type RunningServer } from '../api/src/server';
import { freePort } from '../api/test/support/ports';
import { catalogAtScale, fillCatalog, type FilledCatalog } from './catalogData';
import type { LoadSpec, LoadSummary } from './load';

const repoRoot = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
/** A numeric option's value, or `fallback` when it is missing or below `min` (by default, anything not positive). */
const option = (name: string, fallback: number, min = Number.MIN_VALUE) => {
  const i = args.indexOf(name);
  const value = i >= 0 ? Number(args[i + 1]) : fallback;
  return Number.isFinite(value) && value >= min ? value : fallback;
};
const usePglite = args.includes('--pglite');
/**
 * `--catalog-scale` (PostgreSQL only; issue 33 point 8): the catalog at a wholesaler's scale besides the usual data
 * (bench/catalogData.ts: 200,000 parts, 40,000 vehicles, 5,000,000 fitment rows, 500,000 numbers; each table's fill
 * timed), and the catalog's scenarios as the web app asks them, afresh, beside the floor, instead of the usual
 * ones. Written to docs/performance.md's "Catalog at scale" section.
 */
const catalogScale = args.includes('--catalog-scale');
if (catalogScale && usePglite) throw new Error('--catalog-scale needs PostgreSQL');
/**
 * `--only <regex>`: run the floor and the scenarios whose name matches (for profiling one path); the report is
 * printed, not written to docs/performance.md.
 */
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? new RegExp(args[onlyIndex + 1] ?? '', 'i') : undefined;
const wanted = (name: string) => !only || name.startsWith('floor') || only.test(name);
/** The race and the checkout run in the usual bench, not beside the catalog's scenarios. */
const wantedBesideCatalog = (name: string) => !catalogScale && wanted(name);
const durationSeconds = option('--duration', 10);
/**
 * `--replicas <n>` (PostgreSQL only): n server processes on the bench's database instead of one, the load spread
 * over them (autocannon's connections round-robin over their URLs); the others are `api/src/main.ts` started as
 * the image starts it. Shows what a second process on the same machine brings (docs/performance.md). The report
 * is printed, not written, and its CPU and memory columns are the first process's only.
 */
const replicas = Math.floor(option('--replicas', 1));
/**
 * `--workers <n|auto>`: the shop as `WORKERS=n` runs it (api/src/cluster.ts), one process per core with `auto`.
 * Default: `auto` on PostgreSQL, as docker-compose.yml runs it; 1 on PGlite, which lives in one process. With
 * more than one, the server is `api/src/main.ts` in a child process: its CPU and resident memory are read from
 * /proc for the primary and its workers, and its V8 heap is the workers' summed by the shop's own /metrics
 * (`serverHeap`); with one, it runs in this process (so that `node --cpu-prof` profiles it).
 */
const workersIndex = args.indexOf('--workers');
const workersAsked = workersIndex >= 0 ? args[workersIndex + 1] : args.includes('--image') ? '1' : 'auto';
const workers = usePglite
  ? 1
  : workersAsked === 'auto'
    ? os.availableParallelism()
    : Math.max(1, Math.floor(Number(workersAsked)) || 1);
/**
 * `--warmup <s>` (default 3; 0 for none): each scenario, the floor included, first runs this long under the same
 * load, unmeasured, so that the table shows the server warm (its code optimised by V8, its statements prepared,
 * its operations compiled), as a server that has been up for a while answers. A scenario measured cold paid
 * its paths' first optimisation in its own figures (docs/performance.md). The race warms up on parts of its
 * own, so that its stock is whole when it starts.
 */
const warmupSeconds = option('--warmup', 3, 0);
const connections = option('--connections', 32);
/**
 * `--image <tag>` (PostgreSQL only): the shop is that Docker image, run with `--network host` as README's "The image"
 * says (`WORKERS` from `--workers`, default 1 here) and `--memory <limit>` (`--memory 512m`): shows what a replica
 * of the image needs. Its processes are measured from /proc (the host sees them), the container's cgroup peak and
 * whether the kernel killed anything in it are printed after the run. The report is printed, not written.
 */
const imageIndex = args.indexOf('--image');
const image = imageIndex >= 0 ? args[imageIndex + 1] : undefined;
const containerName = `partsyard-bench-${process.pid}`;
const memoryIndex = args.indexOf('--memory');
const containerMemory = memoryIndex >= 0 ? args[memoryIndex + 1] : undefined;
/** This process's V8 heap flags (`--max-semi-space-size`...): the server processes the bench starts get them too. */
const heapFlags = process.execArgv.filter((arg) => /^--max-(semi|old)-space-size=/.test(arg));
const adminUrl =
  process.env.BENCH_DATABASE_URL?.trim() ||
  process.env.TEST_DATABASE_URL?.trim() ||
  'postgres://postgres@127.0.0.1:5432/test';

const counts = { parts: 10_000, users: 2_000, orders: 100_000, reviews: 20_000 };
const raceCustomers = 50;
const raceStock = 1_000;
/** The checkout scenario (issue 14): carts of this many lines, checked out by this many customers at once. */
const checkoutLines = 20;
const checkoutCustomers = 10;

async function withAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** The data set, generated in the database with one multi-row INSERT per table. */
async function generateData(db: Db): Promise<void> {
  await db.execute(sql`
    insert into parts (name, description, image, price_cents, min_order, available, created_at)
    select (array['Brake pad','Chain kit','Air filter','Spark plug','Clutch lever','Headlight','Mirror',
                  'Piston kit','Oil filter','Sprocket'])[g % 10 + 1]
             || ' ' || (array['Honda','Yamaha','Suzuki','Bajaj','TVS','Hero','Royal Enfield'])[g % 7 + 1]
             || ' #' || g,
           'Generated part ' || g || ' for the benchmark.', '/images/parts/default.svg',
           500 + (g * 37) % 20000, 1 + g % 10, 1000 + g % 5000, now() - make_interval(mins => g)
    from generate_series(1, ${counts.parts}) g`);
  await db.execute(sql`
    insert into users (email, firebase_uid, name, role, admin_source, created_at)
    select 'rider' || g || '@bench.test', 'bench-uid-' || g, 'Rider ' || g,
           case when g = 1 then 'admin' else 'customer' end, case when g = 1 then 'granted' end,
           now() - make_interval(mins => g)
    from generate_series(1, ${counts.users}) g`);
  await db.execute(sql`
    with u as (select id, email, row_number() over (order by email) - 1 as n from users),
         p as (select id, name, image, price_cents, min_order, row_number() over (order by id) - 1 as n from parts)
    insert into orders (user_id, email, name, phone, address, part_id, part_name, part_image, order_amount,
                        unit_price_cents, total_cents, status, transaction_id, created_at, paid_at)
    select u.id, u.email, 'Rider', '01712345678', 'Dhaka', p.id, p.name, p.image, p.min_order, p.price_cents,
           p.price_cents * p.min_order, s.status,
           case when s.status = 'unpaid' then null else 'bench_tx_' || g end,
           now() - make_interval(secs => g),
           -- Paid over the last 60 days, so the admin overview's 30 days hold about half of them.
           case when s.status = 'unpaid' then null else now() - make_interval(hours => g % 1440) end
    from generate_series(1, ${counts.orders}) g
    join u on u.n = g % ${counts.users}
    join p on p.n = ((g % 100) * (g % 101) + g) % ${counts.parts}
    cross join lateral (select (array['unpaid','paid','shipped'])[g % 3 + 1] as status) s`);
  await db.execute(sql`
    update parts set sold = o.sold
    from (select part_id, sum(order_amount)::int as sold from orders group by part_id) o
    where parts.id = o.part_id`);
  await db.execute(sql`
    with u as (select id, email, row_number() over (order by email) - 1 as n from users),
         p as (select id, name, image, row_number() over (order by id) - 1 as n from parts)
    insert into reviews (user_id, part_id, name, email, text, part_name, part_image, created_at)
    select u.id, p.id, 'Rider', u.email, 'Fits well, arrived fast (' || g || ').', p.name, p.image,
           now() - make_interval(secs => g)
    from generate_series(1, ${counts.reviews}) g
    join u on u.n = g % ${counts.users}
    join p on p.n = (g - 1) / 2`);
  await db.execute(sql`vacuum analyze`);
}

const partFields = 'id name description image price minOrder available';
const homeQuery = `query HomeData($partsLimit: Int, $reviewsLimit: Int) {
  popularParts(limit: $partsLimit) { ${partFields} }
  reviews(limit: $reviewsLimit) { id name email avatar text partName }
}`;
const catalogQuery = `query Catalog($search: String, $offset: Int, $limit: Int) {
  parts(search: $search, offset: $offset, limit: $limit) { items { ${partFields} } total offset limit }
}`;
/** The part page's part (web/src/graphql/parts.graphql `Part`, its fields as the bench asks parts). */
const partPageQuery = `query Part($id: ID!) { part(id: $id) { ${partFields} } }`;
/** A company member's own prices for the parts of a page (web/src/graphql/myPrices.graphql; issue 35 point 3). */
const myPricesQuery = `query MyPrices($partIds: [ID!]!) {
  myPrices(partIds: $partIds) { companyId percentOff parts { partId price priceTiers { minUnits price } } }
}`;
/** The web's OrderFields fragment (web/src/graphql/fragments.graphql): what My Orders and All Orders ask. */
const orderFields =
  'id name email phone address partId partName partImage orderAmount unitPrice price paid status transactionId createdAt expiresAt checkoutId';
/** The web's page size for both lists (myOrdersPageSize, adminPageSize). */
const webPage = { offset: 0, limit: 20 };
const myOrdersQuery = `query MyOrders($offset: Int, $limit: Int) { myOrders(offset: $offset, limit: $limit) { items { ${orderFields} } total } }`;
const allOrdersQuery = `query AllOrders($status: OrderStatus, $offset: Int, $limit: Int) { orders(status: $status, offset: $offset, limit: $limit) { items { ${orderFields} } total } }`;
const overviewQuery = `query AdminOverview { adminOverview { revenueLast30Days revenueByDay { day revenue orders }
  ordersByStatus { status count } unitsReserved unpaidOrders topParts { partId name revenue units }
  lowStock { id name available minOrder } lowStockTotal latestMessages { id firstName message createdAt } } }`;
const checkoutMutation = `mutation Checkout($input: CheckoutInput!) { checkout(input: $input) { id total orders { id } } }`;
const placeOrderMutation = `mutation PlaceOrder($input: PlaceOrderInput!) { placeOrder(input: $input) { id orderAmount } }`;

/**
 * The web app's operation `name` as it sends it: from its documents (the .graphql files under web/src, the one
 * given), with the fragments it spreads (its own file's, web/src/graphql/fragments.graphql's).
 */
function webOperation(file: string, name: string): string {
  const definitions = [file, 'web/src/graphql/fragments.graphql'].flatMap(
    (f) => parse(readFileSync(path.join(repoRoot, f), 'utf8')).definitions,
  );
  const operation = definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === name);
  if (!operation) throw new Error(`no operation ${name} in ${file}`);
  const fragments = new Map(
    definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );
  const sent: DefinitionNode[] = [operation];
  const spreads = (node: DefinitionNode) => {
    visit(node, {
      FragmentSpread(spread) {
        const fragment = fragments.get(spread.name.value);
        if (fragment && !sent.includes(fragment)) {
          sent.push(fragment);
          spreads(fragment);
        }
      },
    });
  };
  spreads(operation);
  return sent.map((d) => print(d)).join('\n');
}

/**
 * Issue 33 point 8's scenarios (`--catalog-scale`): the catalog's reads as the web app sends them (its public
 * queries go as GET without a token, lib/apollo.ts), each asked afresh (`Cache-Control: no-cache`: the resolvers
 * and the SQL run every time), each with its budget: at least 0.5 of the floor, p99 under 50 ms.
 */
async function catalogScenarios(
  db: Db,
  catalog: FilledCatalog,
  graphqlUrl: string,
  base: { connections: number; durationSeconds: number },
): Promise<{ spec: LoadSpec; graphql: boolean; budget: Budget }[]> {
  const bike = catalog.busiestVehicleId;
  // A part the busiest bike fits (with the others it fits: some 26 bikes), and an OEM number of another.
  const [part] = rowsOf<{ id: string; fitments: number }>(
    await db.execute(sql`select f.part_id as id, (select count(*)::int from fitments g where g.part_id = f.part_id) as fitments
                         from fitments f join parts p on p.id = f.part_id
                         where f.vehicle_id = ${bike} and f.position = '' and p.replaced_by_id is null
                         order by f.part_id limit 1`),
  );
  const [{ raw: oem }] = rowsOf<{ raw: string }>(
    await db.execute(sql`select raw from part_numbers where kind = 'oem' order by part_id limit 1 offset 1000`),
  );
  const [{ fitting }] = rowsOf<{ fitting: number }>(
    await db.execute(sql`select count(distinct part_id)::int as fitting from fitments where vehicle_id = ${bike}`),
  );
  const budget: Budget = { ratio: 0.5, p99Ms: 50 };
  const catalogList = webOperation('web/src/graphql/catalog.graphql', 'CatalogList');
  const partPage = (name: string) => webOperation('web/src/features/parts/partPage.graphql', name);
  const asked = (name: string, query: string, operationName: string, variables: Record<string, unknown>) => ({
    spec: {
      ...base,
      name,
      url: `${graphqlUrl}?${new URLSearchParams({ query, operationName, variables: JSON.stringify(variables) })}`,
      method: 'GET' as const,
      headers: { 'apollo-require-preflight': 'true', 'cache-control': 'no-cache' },
    },
    graphql: true,
    budget,
  });
  const page = { offset: 0, limit: 20 };
  return [
    asked(
      `catalog for the busiest bike (fits ${fmt(fitting)} parts) with its facets (CatalogList)`,
      catalogList,
      'CatalogList',
      { filter: { vehicleId: bike }, ...page },
    ),
    asked(`part-number look-up: the search box with an OEM number (CatalogList)`, catalogList, 'CatalogList', {
      filter: { search: oem },
      ...page,
    }),
    asked(`part page: fits the busiest bike? (PartFit)`, partPage('PartFit'), 'PartFit', {
      id: part.id,
      vehicleId: bike,
    }),
    asked(
      `part page: the bikes it fits (PartFitment, ${fmt(part.fitments)} rows)`,
      partPage('PartFitment'),
      'PartFitment',
      {
        id: part.id,
        ...page,
      },
    ),
    asked('search "brake pads" for the busiest bike (CatalogList)', catalogList, 'CatalogList', {
      filter: { search: 'brake pads', vehicleId: bike },
      ...page,
    }),
    asked('search "brake pads", all parts (CatalogList)', catalogList, 'CatalogList', {
      filter: { search: 'brake pads' },
      ...page,
    }),
  ];
}

/** The home page's data in one SQL statement: what a minimal handler can do at best. */
const floorQuery = sql`
  select json_build_object(
    'popularParts', coalesce((
      select json_agg(json_build_object('id', id, 'name', name, 'description', description, 'image', image,
                                        'price', price_cents / 100.0, 'minOrder', min_order, 'available', available))
      from (select * from parts order by sold desc, created_at desc limit 6) p), '[]'::json),
    'reviews', coalesce((
      select json_agg(json_build_object('id', id, 'name', name, 'email', email, 'avatar', avatar, 'text', text,
                                        'partName', part_name))
      from (select * from reviews order by created_at desc, id desc limit 12) r), '[]'::json)
  ) as data`;

function startFloor(db: Db): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    db.execute(floorQuery).then(
      (result) => {
        const body = JSON.stringify({ data: rowsOf<{ data: unknown }>(result)[0].data });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      },
      () => {
        res.writeHead(500);
        res.end();
      },
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`, server });
    }),
  );
}

/** Runs one scenario in a child process (tsx, like this script). */
/**
 * Another server process on the bench's database, started as the image starts it (`--replicas`), with the
 * settings of `config` that matter to the scenarios: the same JWT secret (the bench's tokens), no rate limits,
 * the same order limits.
 */
async function startReplica(
  config: Config,
  databaseUrl: string,
  processes = 1,
  metricsToken?: string,
): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const settings: Record<string, string> = {
    WORKERS: String(processes),
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    JWT_SECRET: config.jwt.secret,
    FIREBASE_PROJECT_ID: config.firebase.projectId,
    FIREBASE_AUTH_EMULATOR_HOST: config.firebase.emulatorHost ?? '127.0.0.1:9',
    ALLOW_AUTH_EMULATOR: 'true',
    FIREBASE_API_KEY: config.firebase.webApiKey,
    SEED_DEMO: 'false',
    LOG_REQUESTS: 'false',
    WEB_DIST_DIR: config.webDistDir,
    RATE_LIMIT_SIGN_IN_PER_ADDRESS: 'off',
    RATE_LIMIT_SIGN_IN_PER_EMAIL: 'off',
    RATE_LIMIT_CONTACT_PER_ADDRESS: 'off',
    RATE_LIMIT_CONTACT_PER_RECIPIENT: 'off',
    RATE_LIMIT_ORDERS_PER_USER: 'off',
    RATE_LIMIT_ORDERS_PER_ADDRESS: 'off',
    UNPAID_ORDER_EXPIRY: String(config.orders.unpaidExpiryMs / 1000),
    UNPAID_ORDERS_PER_CUSTOMER: String(config.orders.unpaidPerCustomer),
    // Dollars, at most the setting's bound.
    UNPAID_VALUE_PER_CUSTOMER: String(Math.min(100_000_000, config.orders.unpaidValuePerCustomerCents / 100)),
    ...(metricsToken ? { METRICS_TOKEN: metricsToken } : {}),
  };
  const child = image
    ? spawn(
        'docker',
        [
          'run',
          `--name=${containerName}`,
          '--network=host',
          ...(containerMemory ? [`--memory=${containerMemory}`] : []),
          ...Object.entries(settings)
            .filter(([name]) => name !== 'WEB_DIST_DIR' && name !== 'NODE_ENV')
            .flatMap(([name, value]) => ['-e', `${name}=${value}`]),
          image,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      )
    : spawn(
        process.execPath,
        // The V8 heap flags the bench was started with (`npm run bench`: the Dockerfile's), as the image runs.
        [...heapFlags, '--import', 'tsx', path.join(repoRoot, 'api', 'src', 'main.ts')],
        { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...settings } },
      );
  const url = `http://127.0.0.1:${port}`;
  // Several workers: ready once the primary says all are (its log line), not when the first answers.
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log = (log + chunk.toString('utf8')).slice(-10_000)));
  const allReady = () => processes === 1 || log.includes(`"all ${processes} workers are ready"`);
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    if (child.exitCode !== null) throw new Error(`replica exited with ${child.exitCode}`);
    if (
      allReady() &&
      (await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      ))
    )
      return { url, process: child };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error('replica did not start within 60 s');
}

/** The host's pid of the container's first process (node, PID 1 inside). */
function containerPid(): number {
  const pid = Number(
    spawnSync('docker', ['inspect', '-f', '{{.State.Pid}}', containerName], { encoding: 'utf8' }).stdout.trim(),
  );
  if (!pid) throw new Error(`no running container ${containerName}`);
  return pid;
}

/** After a run on the image: whether the container still runs, was killed for memory, and its cgroup's peak. */
function containerReport(): string {
  const inspect = spawnSync(
    'docker',
    ['inspect', '-f', '{{.State.Status}} {{.State.OOMKilled}} {{.State.Pid}} {{.HostConfig.Memory}}', containerName],
    { encoding: 'utf8' },
  ).stdout.trim();
  const [status, oomKilled, pid, limit] = inspect.split(' ');
  let cgroupMemory = 'unknown';
  const mib = (bytes: string) => `${fmt(Number(bytes) / 2 ** 20)} MiB`;
  try {
    const cgroups = readFileSync(`/proc/${pid}/cgroup`, 'utf8');
    const v1 = /^\d+:memory:(.*)$/m.exec(cgroups)?.[1];
    const v2 = /^0::(.*)$/m.exec(cgroups)?.[1];
    const read = (file: string) =>
      readFileSync(v1 ? `/sys/fs/cgroup/memory${v1}/${file}` : `/sys/fs/cgroup${v2}/${file}`, 'utf8').trim();
    cgroupMemory = v1
      ? `peak ${mib(read('memory.max_usage_in_bytes'))}, now ${mib(read('memory.usage_in_bytes'))}; ` +
        `memory.oom_control: ${read('memory.oom_control').replace(/\n/g, ', ')}`
      : `peak ${mib(read('memory.peak'))}, now ${mib(read('memory.current'))}; ` +
        `memory.events: ${read('memory.events').replace(/\n/g, ', ')}`;
  } catch {
    // the container is gone
  }
  return (
    `Container ${containerName} (${image}, --memory ${containerMemory ?? 'unlimited'}: ${fmt(Number(limit) / 2 ** 20)} MiB, ` +
    `WORKERS=${workers}): ${status}, OOMKilled ${oomKilled}; cgroup memory ${cgroupMemory}`
  );
}

async function stopReplica(replica: { process: ChildProcess }): Promise<void> {
  if (replica.process.exitCode !== null) return;
  const exited = new Promise((resolve) => replica.process.once('exit', resolve));
  replica.process.kill('SIGTERM');
  await exited;
}

function runLoad(spec: LoadSpec): Promise<LoadSummary> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, 'load.ts'), [], { execArgv: ['--import', 'tsx'] });
    child.once('message', (message: { summary?: LoadSummary; error?: string }) => {
      if (message.summary) resolve(message.summary);
      else reject(new Error(`load generator: ${message.error}`));
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load generator exited with ${code}`));
    });
    child.send(spec);
  });
}

/** One request before the run: proves the scenario answers what it should, and warms the path up. */
async function probe(spec: LoadSpec, token?: string): Promise<string> {
  const res = await fetch(Array.isArray(spec.url) ? spec.url[0] : spec.url, {
    method: spec.method,
    headers: {
      ...(spec.body ? { 'content-type': 'application/json' } : {}),
      ...spec.headers,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: spec.body,
  });
  const text = await res.text();
  if (res.status !== 200 || text.includes('"errors"')) throw new Error(`${spec.name}: ${res.status} ${text}`);
  return text;
}

/** Issue 15's budgets: at least `ratio` of the floor's requests/s, and a p99 under `p99Ms` where given. */
interface Budget {
  ratio: number;
  p99Ms?: number;
}
const signedInRead: Budget = { ratio: 0.5, p99Ms: 60 };

interface Row extends Omit<LoadSummary, 'loadCpuMsTotal'> {
  graphql: boolean;
  note?: string;
  budget?: Budget;
  /** The server's CPU per answered request, in ms. */
  cpuMs?: number;
  /** The database server's CPU (`databaseCpu`) and the load generator's per answered request, in ms. */
  databaseCpuMs?: number;
  loadCpuMs?: number;
  /** This process's resident set and V8 heap after the scenario, in MiB. */
  rssMiB?: number;
  heapMiB?: number;
  /** The server's processes (the primary, each worker) with their resident set after the scenario and its peak. */
  perProcess?: ProcessMemory[];
}

/** One process's resident set (VmRSS) and its peak so far (VmHWM), in MiB. */
interface ProcessMemory {
  role: string;
  rssMiB: number;
  peakMiB: number;
}

/** The resident set and its peak (MiB) of process `pid` ('self' for this one), from /proc; null when it is gone. */
function memoryOf(pid: number | 'self'): { rssMiB: number; peakMiB: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** The server's CPU time so far (ms) and its memory now. */
interface Usage {
  cpuMs: number;
  rssBytes: number;
  /** The V8 heap in use (the in-process server only). */
  heapBytes?: number;
  perProcess?: ProcessMemory[];
}

/** This process's usage: the server when it runs in the bench's process (one worker). */
const ownUsage = (): Usage => {
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  const own = memoryOf('self');
  return {
    cpuMs: (cpu.user + cpu.system) / 1000,
    rssBytes: memory.rss,
    heapBytes: memory.heapUsed,
    perProcess: own ? [{ role: 'server', ...own }] : undefined,
  };
};

/**
 * Every process of this machine from /proc: its parent, its command's name and its CPU time so far (ms), its ended
 * children's included.
 */
function processes(): Map<number, { parent: number; command: string; cpuMs: number }> {
  const found = new Map<number, { parent: number; command: string; cpuMs: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      found.set(Number(entry), {
        parent: Number(fields[1]),
        command: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
        // utime + stime, and cutime + cstime: the CPU of its children that have ended (a backend that closed
        // moves its time to the postmaster's), so that a sum over processes never goes back. Ticks of 10 ms
        // (Linux's USER_HZ is 100).
        cpuMs: (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10,
      });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** A process and all its descendants (a primary, its workers, their helpers), summed from /proc. */
function treeUsage(root: number, rootRole = 'primary'): Usage {
  const all = processes();
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, { parent }] of all)
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
  }
  let cpuMs = 0;
  let rssMiB = 0;
  const perProcess: ProcessMemory[] = [];
  for (const pid of tree) {
    cpuMs += all.get(pid)?.cpuMs ?? 0;
    const memory = memoryOf(pid);
    if (!memory) continue; // gone meanwhile
    rssMiB += memory.rssMiB;
    // The primary, its workers (node processes it forked), and any helper (esbuild's service, for tsx).
    const { parent, command } = all.get(pid) ?? { parent: 0, command: '?' };
    const role = pid === root ? rootRole : parent === root && command === 'node' ? 'worker' : command;
    perProcess.push({ role, ...memory });
  }
  return { cpuMs, rssBytes: rssMiB * 2 ** 20, perProcess };
}

/**
 * The CPU time so far (ms) of the PostgreSQL server on this machine: every process named `postgres` (the
 * postmaster, its backends and its background workers). Set when the bench's database is on loopback or a
 * local socket; a server elsewhere (or PGlite, inside the server's process) is not measured.
 */
let databaseCpu: (() => number) | undefined;
const localPostgresCpu = () => {
  let cpuMs = 0;
  for (const { command, cpuMs: used } of processes().values()) if (command === 'postgres') cpuMs += used;
  return cpuMs;
};
const isLocalHost = (url: URL) =>
  ['', 'localhost', '127.0.0.1', '[::1]'].includes(url.hostname) || url.searchParams.get('host')?.startsWith('/');

/** Where the server's usage is read: this process, or the child running it (set once it is started). */
let serverUsage: () => Usage = ownUsage;
/**
 * The V8 heap in use of a server in a child process (its workers'), when `serverUsage` has none: read after the
 * scenario's CPU, so that the scrape is not counted in it.
 */
let serverHeap: (() => Promise<number | undefined>) | undefined;

/**
 * The V8 heap in use (bytes) of every worker of the shop at `url`, summed by its /metrics (prom-client's gauge of
 * each worker's heap, gathered by the primary); undefined when the scrape fails.
 */
async function heapOfWorkers(url: string, metricsToken: string): Promise<number | undefined> {
  try {
    const answer = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    if (!answer.ok) return undefined;
    const line = /^partsyard_process_nodejs_heap_size_used_bytes (\S+)$/m.exec(await answer.text());
    return line ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs a scenario and measures the server while it runs: CPU per request, then memory; and the CPU per request
 * of the database server (when measured) and of the load generator.
 */
async function measured(
  run: () => Promise<LoadSummary>,
  usage = serverUsage,
): Promise<LoadSummary & Pick<Row, 'cpuMs' | 'databaseCpuMs' | 'loadCpuMs' | 'rssMiB' | 'heapMiB' | 'perProcess'>> {
  // The database's readings outside the server's: with one worker the server is this process, and a scan of
  // /proc between the server's two readings would count in its CPU.
  const databaseBefore = databaseCpu?.();
  const before = usage();
  const result = await run();
  const after = usage();
  const databaseMs = databaseCpu && databaseBefore !== undefined ? databaseCpu() - databaseBefore : undefined;
  const perRequest = (ms: number | undefined) =>
    result.requests && ms !== undefined ? ms / result.requests : undefined;
  return {
    ...result,
    cpuMs: perRequest(after.cpuMs - before.cpuMs),
    databaseCpuMs: perRequest(databaseMs),
    loadCpuMs: perRequest(result.loadCpuMsTotal),
    ...(await memoryAfter(after)),
  };
}

/** The memory columns from a usage read after a scenario: its heap, or the workers' (`serverHeap`), in MiB. */
async function memoryAfter(after: Usage): Promise<Pick<Row, 'rssMiB' | 'heapMiB' | 'perProcess'>> {
  const heapBytes = after.heapBytes ?? (await serverHeap?.());
  return {
    rssMiB: after.rssBytes / 2 ** 20,
    heapMiB: heapBytes === undefined ? undefined : heapBytes / 2 ** 20,
    perProcess: after.perProcess,
  };
}

/** "primary 61; worker 290 (peak 340); worker 301 (peak 335)": each server process's RSS after, and its peak. */
const describeProcesses = (perProcess: ProcessMemory[] | undefined) =>
  (perProcess ?? [])
    .filter((p) => p.role === 'primary' || p.role === 'worker' || p.role === 'server')
    .map((p) => `${p.role} ${fmt(p.rssMiB)} (peak ${fmt(p.peakMiB)})`)
    .join('; ');

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });

/**
 * What a budget of `ratio` of the floor leaves the server on this machine: the server, the database and the load
 * generator share its cores, so at most cores / (`ratio` x the floor's requests/s) of CPU per request, of which
 * the database and the load generator took what this run measured. Undefined where a part was not measured.
 */
function serverShare(r: Row, ratio: number, floor: Row): string | undefined {
  if (r.cpuMs === undefined || r.databaseCpuMs === undefined || r.loadCpuMs === undefined) return undefined;
  const cores = os.availableParallelism();
  const allowedMs = (cores * 1000) / (ratio * floor.requestsPerSecond);
  const othersMs = r.databaseCpuMs + r.loadCpuMs;
  const others = `the database ${fmt(r.databaseCpuMs, 2)} ms and the load generator ${fmt(r.loadCpuMs, 2)} ms`;
  return othersMs >= allowedMs
    ? `out of reach of the server on these ${cores} cores: ${others} of CPU per request leave nothing of the ` +
        `${fmt(allowedMs, 2)} ms that ${ratio} of the floor allows`
    : `on these ${cores} cores ${ratio} of the floor allows ${fmt(allowedMs, 2)} ms of CPU per request; with ` +
        `${others}, the server's share is at most ${fmt(allowedMs - othersMs, 2)} ms (this run: ${fmt(r.cpuMs, 2)})`;
}

function table(rows: Row[], floor: Row | undefined): string {
  const lines = [
    '| scenario | requests/s | p50 (ms) | p99 (ms) | errors | / floor | server CPU / request (ms) | database, load generator CPU / request (ms) | RSS, heap after (MiB) | RSS per process after (peak) (MiB) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of rows) {
    const ratio = r.graphql && floor ? (r.requestsPerSecond / floor.requestsPerSecond).toFixed(2) : '';
    const errors = r.errors + r.graphqlErrors;
    lines.push(
      `| ${r.name} | ${fmt(r.requestsPerSecond)} | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${fmt(errors)}${
        r.note ? ` (${r.note})` : ''
      } | ${ratio} | ${r.cpuMs === undefined ? '' : fmt(r.cpuMs, 2)} | ${
        r.loadCpuMs === undefined
          ? ''
          : `${r.databaseCpuMs === undefined ? '–' : fmt(r.databaseCpuMs, 2)}, ${fmt(r.loadCpuMs, 2)}`
      } | ${r.rssMiB === undefined ? '' : `${fmt(r.rssMiB)}, ${r.heapMiB === undefined ? '–' : fmt(r.heapMiB)}`} | ${describeProcesses(
        r.perProcess,
      )} |`,
    );
  }
  return lines.join('\n');
}

/** The 1-minute load average when the run began (the machine may be shared: the ratios to the floor hold). */
const loadAtStart = os.loadavg()[0];

function machine(databaseVersion: string): string {
  const cpus = os.cpus();
  return [
    `- CPU: ${cpus.length} x ${cpus[0]?.model ?? 'unknown'} (load average over 1 minute: ` +
      `${loadAtStart.toFixed(1)} when the run began, ${os.loadavg()[0].toFixed(1)} when it ended)`,
    `- memory: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- OS: ${os.type()} ${os.release()} (${os.arch()})`,
    `- Node.js: ${process.version}`,
    `- database: ${databaseVersion}`,
  ].join('\n');
}

/** Replaces this database kind's section of docs/performance.md, keeping the rest of the file. */
async function writeReport(kind: string, section: string): Promise<void> {
  const file = path.join(repoRoot, 'docs', 'performance.md');
  const start = `<!-- bench:${kind}:start -->`;
  const end = `<!-- bench:${kind}:end -->`;
  const block = `${start}\n${section}\n${end}`;
  let text = existsSync(file)
    ? readFileSync(file, 'utf8')
    : '# Performance\n\nFigures written by `npm run bench` (server) on the machine named with them.\n';
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from >= 0 && to > from) text = text.slice(0, from) + block + text.slice(to + end.length);
  else text = `${text.trimEnd()}\n\n${block}\n`;
  // Formatted as `npm run lint` (prettier --check) expects it.
  writeFileSync(file, await prettier.format(text, { ...(await prettier.resolveConfig(file)), filepath: file }));
}

async function main(): Promise<void> {
  const started = Date.now();
  let database: Config['database'] = { kind: 'pglite', dataDir: undefined };
  let dropDatabase: (() => Promise<void>) | undefined;
  if (!usePglite) {
    const name = `partsyard_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
    await withAdmin((c) => c.query(`create database "${name}"`));
    dropDatabase = () => withAdmin((c) => c.query(`drop database if exists "${name}" with (force)`)).then(() => {});
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    database = { kind: 'postgres', url: url.toString(), poolSize: 10 };
    if (isLocalHost(url)) databaseCpu = localPostgresCpu;
  }

  let app: RunningServer | undefined;
  const others: { url: string; process: ChildProcess }[] = [];
  let floorServer: Server | undefined;
  try {
    const config: Config = {
      mode: 'embedded',
      port: 0,
      host: '127.0.0.1',
      dataDir: path.join(repoRoot, '.data-bench'),
      database,
      firebase: {
        projectId: 'demo-partsyard',
        emulatorHost: '127.0.0.1:9',
        serviceAccountJson: undefined,
        webApiKey: 'demo-api-key',
        authDomain: 'demo-partsyard.firebaseapp.com',
      },
      jwt: { secret: randomBytes(32).toString('hex'), expiresInSeconds: 3600 },
      adminEmails: [],
      stripe: null,
      seedDemo: false,
      demoMode: false,
      webDistDir: path.join(repoRoot, 'web', 'dist-missing'),
      logRequests: false,
      corsOrigins: [],
      // The race's 50 customers order far more often than a person would; the bench measures speed, not limits.
      rateLimits: {
        signInPerAddress: null,
        signInPerEmail: null,
        contactPerAddress: null,
        contactPerRecipient: null,
        ordersPerUser: null,
        ordersPerAddress: null,
        paymentIntentsPerUser: null,
      },
      // Each racer places ~20 orders; the production caps would refuse them past 10 (or $10,000). The sweeps run as
      // in production.
      orders: { unpaidExpiryMs: 3_600_000, unpaidPerCustomer: 1000, unpaidValuePerCustomerCents: 100_000_000_000 },
      sweepIntervalMs: 15_000,
      importStaleAfterMs: 60_000,
      // No mail server: the orders the bench places queue their emails (written in their transactions), unsent.
      mail: { smtpUrl: undefined, from: 'PartsYard <orders@bench.test>', pollIntervalMs: null },
      http: defaultHttpTimeouts,
      redisUrl: undefined,
      redisKeyPrefix: 'partsyard-bench',
      metricsToken: undefined,
      graphqlCompileAfter: defaultGraphqlCompileAfter,
      workers: 1,
      overviewMaxAgeMs: defaultOverviewMaxAgeMs,
      shutdownDelayMs: 0,
      workerHeapLimitMiB: defaultWorkerHeapLimitMiB,
      seller: defaultSeller,
    };
    const opened = await openDatabase(database);
    const db = opened.db;
    const generating = Date.now();
    await generateData(db);
    const generatedIn = (Date.now() - generating) / 1000;
    console.log(
      `bench: ${database.kind}: generated ${fmt(counts.parts)} parts, ${fmt(counts.users)} users, ` +
        `${fmt(counts.orders)} orders, ${fmt(counts.reviews)} reviews in ${generatedIn.toFixed(1)} s`,
    );
    const catalog = catalogScale
      ? await fillCatalog(db, catalogAtScale, (line) => console.log(`bench: ${line}`))
      : null;
    const [{ version }] = rowsOf<{ version: string }>(await db.execute(sql`select version() as version`));
    const databaseVersion = `${database.kind === 'pglite' ? 'PGlite (in process), ' : ''}${version.split(',')[0]}`;

    // Accounts: rider1 is the admin, rider2 the customer of My Orders, riders 3..52 the 50 racing customers.
    const tokens = createAccessTokens(config.jwt);
    const riders = rowsOf<{ id: string; email: string; firebase_uid: string }>(
      await db.execute(sql`select id, email, firebase_uid from users where email ~ '^rider[0-9]+@bench\\.test$'
                           order by (substring(email from 6 for position('@' in email) - 6))::int limit 52`),
    );
    const [adminUser, customer, ...racers] = riders;
    const tokenOf = (rider: (typeof riders)[number]) =>
      tokens.sign({ userId: rider.id, firebaseUid: rider.firebase_uid });
    const adminToken = tokenOf(adminUser);
    const customerToken = tokenOf(customer);
    const racerTokens = racers.slice(0, raceCustomers).map(tokenOf);
    const [somePart] = rowsOf<{ id: string }>(
      await db.execute(sql`select id from parts order by created_at desc limit 1 offset 123`),
    );
    // A company member (issue 35 point 3): a company with a price list (10 % off, and fixed prices for 1,000
    // parts), asked for the catalog's public answer and their own prices for its page beside it.
    const [member] = rowsOf<{ id: string; firebase_uid: string }>(
      await db.execute(sql`insert into users (email, name, firebase_uid) values ('member@bench.test', 'Bench member',
                           'bench-member') returning id, firebase_uid`),
    );
    const [benchCompany] = rowsOf<{ id: string }>(
      await db.execute(sql`insert into companies (name, tax_id) values ('Bench Works', 'BENCH-1') returning id`),
    );
    await db.execute(sql`insert into company_members (user_id, company_id, role)
                         values (${member.id}, ${benchCompany.id}, 'buyer')`);
    await db.execute(
      sql`insert into company_price_lists (company_id, percent_off_bp) values (${benchCompany.id}, 1000)`,
    );
    await db.execute(sql`insert into company_part_prices (company_id, part_id, price_cents, price_tiers)
                         select ${benchCompany.id}, id, greatest(1, price_cents * 85 / 100), '[]'::jsonb
                         from parts order by id limit 1000`);
    const memberToken = tokens.sign({ userId: member.id, firebaseUid: member.firebase_uid });
    const catalogPageIds = rowsOf<{ id: string }>(await db.execute(sql`select id from parts order by id limit 20`)).map(
      (r) => r.id,
    );
    const [racePart] = rowsOf<{ id: string }>(
      await db.execute(sql`insert into parts (name, description, price_cents, min_order, available)
                           values ('Bench race sprocket', 'The part 50 customers order at once.', 1999, 1, ${raceStock})
                           returning id`),
    );

    // The race warms up on parts of its own: one that never runs out (selling), one sold out (refusing).
    const [warmupPart, soldOutPart] = rowsOf<{ id: string }>(
      await db.execute(sql`insert into parts (name, description, price_cents, min_order, available)
                           values ('Bench warm-up sprocket', 'Ordered while the race warms up.', 1999, 1, 100000000),
                                  ('Bench sold-out sprocket', 'Refused while the race warms up.', 1999, 1, 0)
                           returning id`),
    );

    let appUrl: string;
    if ((workers > 1 || image) && database.kind === 'postgres') {
      // The shop as WORKERS runs it: a primary and its workers in a child process (or the image's container),
      // measured from /proc.
      const metricsToken = randomBytes(16).toString('hex');
      const clustered = await startReplica(config, database.url, workers, metricsToken);
      others.push(clustered);
      appUrl = clustered.url;
      const pid = image ? containerPid() : (clustered.process.pid as number);
      serverUsage = () => treeUsage(pid, workers > 1 ? 'primary' : 'server');
      serverHeap = () => heapOfWorkers(clustered.url, metricsToken);
    } else {
      app = await startServer(config, { database: opened });
      appUrl = app.url;
    }
    if (replicas > 1) {
      if (database.kind !== 'postgres') throw new Error('--replicas needs PostgreSQL');
      for (let i = 1; i < replicas; i++) others.push(await startReplica(config, database.url, workers));
    }
    const origins = [appUrl, ...others.map((o) => o.url)];
    /** A scenario's URL on every replica (the floor's stays its own). */
    const spread = (spec: LoadSpec): LoadSpec =>
      origins.length > 1 && typeof spec.url === 'string' && spec.url.startsWith(appUrl)
        ? { ...spec, url: origins.map((origin) => origin + (spec.url as string).slice(appUrl.length)) }
        : spec;
    const floor = await startFloor(db);
    floorServer = floor.server;
    const graphqlUrl = `${appUrl}/graphql`;
    const gql = (query: string, variables: Record<string, unknown>) => JSON.stringify({ query, variables });
    const base = { connections, durationSeconds } as const;
    /** A signed-in GraphQL operation, posted with the caller's token. */
    const signedIn = (name: string, body: string, token: string, budget?: Budget, headers = {}) => ({
      spec: {
        ...base,
        name,
        url: graphqlUrl,
        method: 'POST' as const,
        body,
        headers: { authorization: `Bearer ${token}`, ...headers },
      },
      graphql: true,
      budget,
    });
    /** The warm-up run of a scenario (`--warmup`): the same load, shorter, unmeasured. */
    const warmUp = async (spec: LoadSpec) => {
      if (warmupSeconds > 0) await runLoad(spread({ ...spec, durationSeconds: warmupSeconds }));
    };

    const scenarios: { spec: LoadSpec; graphql: boolean; budget?: Budget }[] = [
      {
        spec: { ...base, name: 'floor: node:http + one SQL (home data)', url: floor.url, method: 'GET' },
        graphql: false,
      },
      {
        spec: {
          ...base,
          name: 'home: popularParts + reviews (anonymous)',
          url: graphqlUrl,
          method: 'POST',
          body: gql(homeQuery, { partsLimit: 6, reviewsLimit: 12 }),
        },
        graphql: true,
      },
      {
        spec: {
          ...base,
          name: 'home over GET, compressed, as a browser asks (anonymous)',
          url: `${graphqlUrl}?${new URLSearchParams({
            query: homeQuery,
            variables: JSON.stringify({ partsLimit: 6, reviewsLimit: 12 }),
          })}`,
          method: 'GET',
          headers: { 'apollo-require-preflight': 'true', 'accept-encoding': 'gzip, deflate, br' },
        },
        graphql: true,
      },
      signedIn(
        "home signed in (customer: the visitors' public answer)",
        gql(homeQuery, { partsLimit: 6, reviewsLimit: 12 }),
        customerToken,
        signedInRead,
      ),
      signedIn(
        'home signed in, afresh (Cache-Control: no-cache: the resolvers and SQL run)',
        gql(homeQuery, { partsLimit: 6, reviewsLimit: 12 }),
        customerToken,
        signedInRead,
        { 'cache-control': 'no-cache' },
      ),
      {
        spec: {
          ...base,
          name: 'catalog: parts(search "brake", 20)',
          url: graphqlUrl,
          method: 'POST',
          body: gql(catalogQuery, { search: 'brake', offset: 0, limit: 20 }),
        },
        graphql: true,
      },
      signedIn(
        "catalog signed in (customer: the visitors' public answer)",
        gql(catalogQuery, { search: 'brake', offset: 0, limit: 20 }),
        customerToken,
        signedInRead,
      ),
      signedIn(
        'catalog signed in, afresh (Cache-Control: no-cache: the resolvers and SQL run)',
        gql(catalogQuery, { search: 'brake', offset: 0, limit: 20 }),
        customerToken,
        signedInRead,
        { 'cache-control': 'no-cache' },
      ),
      signedIn(
        "catalog signed in as a company member (the visitors' public answer: no company price in it)",
        gql(catalogQuery, { search: 'brake', offset: 0, limit: 20 }),
        memberToken,
        signedInRead,
      ),
      signedIn(
        "company member's myPrices for a page of 20 parts (their price list kept in memory under its version)",
        gql(myPricesQuery, { partIds: catalogPageIds }),
        memberToken,
        signedInRead,
      ),
      // The part page (issue 35 point 3): the public answer as a customer and as a company member, and the
      // member's own price for that one part beside it.
      signedIn(
        "part page signed in (customer: the visitors' public answer)",
        gql(partPageQuery, { id: catalogPageIds[0] }),
        customerToken,
        signedInRead,
      ),
      signedIn(
        "part page signed in as a company member (the visitors' public answer: no company price in it)",
        gql(partPageQuery, { id: catalogPageIds[0] }),
        memberToken,
        signedInRead,
      ),
      signedIn(
        "company member's myPrices for the part page's part",
        gql(myPricesQuery, { partIds: catalogPageIds.slice(0, 1) }),
        memberToken,
        signedInRead,
      ),
      {
        spec: { ...base, name: 'REST GET /api/parts/{id}', url: `${appUrl}/api/parts/${somePart.id}`, method: 'GET' },
        graphql: false,
      },
      // The lists as the web asks them (its fields, 20 a page), with the budgets; and 50 on a page (the API's
      // default when no limit is given), which the web never asks, to show what the page size costs.
      signedIn(
        'My Orders: first page as the web asks (20 of the customer’s 50 orders)',
        gql(myOrdersQuery, webPage),
        customerToken,
        signedInRead,
      ),
      signedIn(
        'My Orders: all 50 on one page (the API’s default page, not asked by the web)',
        gql(myOrdersQuery, {}),
        customerToken,
      ),
      signedIn(
        'All Orders: first page as the web asks (admin, 20 of 100,000)',
        gql(allOrdersQuery, webPage),
        adminToken,
        { ratio: 0.4, p99Ms: 60 },
      ),
      signedIn('All Orders: 50 on one page (admin, the API’s default page)', gql(allOrdersQuery, {}), adminToken),
      signedIn(
        'admin overview: 30 days of revenue, statuses, top parts, low stock (admin; reused up to 5 s or until a write)',
        gql(overviewQuery, {}),
        adminToken,
        signedInRead,
      ),
    ];

    if (catalog) scenarios.splice(1, scenarios.length - 1, ...(await catalogScenarios(db, catalog, graphqlUrl, base)));

    const rows: Row[] = [];
    for (const { spec, graphql, budget } of scenarios.filter((s) => wanted(s.spec.name))) {
      await probe(spec);
      await warmUp(spec);
      // The floor's server runs in this process whatever the shop's does.
      const summary = await measured(() => runLoad(spread(spec)), spec.url === floor.url ? ownUsage : serverUsage);
      rows.push({ ...summary, graphql, budget });
      console.log(
        `bench: ${spec.name}: ${fmt(summary.requestsPerSecond)} req/s; RSS ${describeProcesses(summary.perProcess)}`,
      );
    }

    let raceCheck = 'not run';
    const raceName = `placeOrder: ${raceCustomers} customers, one part (${fmt(raceStock)} in stock)`;
    if (wantedBesideCatalog(raceName)) {
      // The race: 50 customers (one connection each) order 1 unit of the same part until its stock runs out.
      const raceOf = (partId: string): LoadSpec => ({
        name: raceName,
        url: graphqlUrl,
        method: 'POST',
        body: gql(placeOrderMutation, {
          input: { partId, name: 'Racer', phone: '01712345678', orderAmount: 1, address: 'Dhaka' },
        }),
        connections: raceCustomers,
        durationSeconds,
        tokens: racerTokens,
        countGraphqlErrors: true,
      });
      const raceSpec = raceOf(racePart.id);
      await warmUp(raceOf(warmupPart.id));
      await warmUp(raceOf(soldOutPart.id));
      const race = await measured(() => runLoad(spread(raceSpec)));
      // autocannon stops counting at the deadline; let the orders still in flight land before checking.
      let landed = -1;
      for (let settled = 0; settled < 3;) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const [{ n }] = rowsOf<{ n: number }>(
          await db.execute(sql`select count(*)::int as n from orders where part_id = ${racePart.id}`),
        );
        settled = n === landed ? settled + 1 : 0;
        landed = n;
      }
      const [after] = rowsOf<{ available: number; sold: number; orders: number; units: number; selling: number }>(
        await db.execute(sql`select p.available, p.sold,
                                    (select count(*)::int from orders o where o.part_id = p.id) as orders,
                                    (select coalesce(sum(order_amount), 0)::int from orders o where o.part_id = p.id) as units,
                                    (select extract(epoch from max(o.created_at) - min(o.created_at))::float8
                                       from orders o where o.part_id = p.id) as selling
                             from parts p where p.id = ${racePart.id}`),
      );
      const taken = raceStock - after.available;
      const consistent = taken === after.units && after.sold === after.units && after.available >= 0;
      raceCheck =
        `stock taken ${fmt(taken)} ${consistent ? '=' : '!='} sum of accepted orders ${fmt(after.units)} ` +
        `(${fmt(after.orders)} orders of 1 unit, ${fmt(after.available)} left; answers counted in the run: ` +
        `${fmt(race.graphqlOk)} accepted, ${fmt(race.graphqlErrors)} refused; the first order to the last: ` +
        `${(after.selling ?? 0).toFixed(1)} s): ${consistent ? 'consistent' : 'INCONSISTENT'}`;
      rows.push({
        ...race,
        graphqlErrors: 0,
        graphql: true,
        budget: { ratio: 0.4 },
        note: race.graphqlErrors ? `+ ${fmt(race.graphqlErrors)} refused: sold out` : undefined,
      });
      console.log(`bench: ${raceCheck}`);
    }

    let checkoutCheck = 'not run';
    const checkoutName = `checkout: ${checkoutLines}-line carts, ${checkoutCustomers} customers at once (checkouts/s)`;
    if (wantedBesideCatalog(checkoutName)) {
      // Checkout (issue 14): customers check out carts of 20 lines at once, round after round. A cart refills
      // (SQL, not timed) before each round; the time of each checkout request is measured.
      const checkoutParts = rowsOf<{ id: string }>(
        await db.execute(sql`insert into parts (name, description, price_cents, min_order, available)
                             select 'Bench checkout part ' || g, 'Ordered by the checkout scenario.', 250 + g, 1, 10000000
                             from generate_series(1, ${checkoutLines}) g returning id`),
      );
      const shoppers = racers.slice(0, checkoutCustomers);
      const latencies: number[] = [];
      let checkoutErrors = 0;
      let checkedOut = 0;
      const checkoutBefore = serverUsage();
      const checkoutStarted = Date.now();
      while (Date.now() - checkoutStarted < durationSeconds * 1000) {
        await db.execute(sql`insert into cart_lines (user_id, part_id, amount, seen_unit_price_cents)
                             select u.id, p.id, 3, 0
                             from unnest(${`{${shoppers.map((r) => r.id).join(',')}}`}::uuid[]) u(id)
                             cross join unnest(${`{${checkoutParts.map((r) => r.id).join(',')}}`}::uuid[]) p(id)
                             on conflict do nothing`);
        await Promise.all(
          shoppers.map(async (shopper) => {
            const t0 = performance.now();
            const answer = await fetch(graphqlUrl, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${tokenOf(shopper)}` },
              body: gql(checkoutMutation, { input: { name: 'Shopper', phone: '01712345678', address: 'Dhaka' } }),
            });
            const body = (await answer.json()) as { data?: { checkout: { orders: unknown[] } }; errors?: unknown };
            latencies.push(performance.now() - t0);
            if (body.data?.checkout.orders.length === checkoutLines) checkedOut += 1;
            else checkoutErrors += 1;
          }),
        );
      }
      const checkoutSeconds = (Date.now() - checkoutStarted) / 1000;
      const checkoutAfter = serverUsage();
      const checkoutMemory = await memoryAfter(checkoutAfter);
      latencies.sort((a, b) => a - b);
      const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
      const [placed] = rowsOf<{ orders: number; checkouts: number }>(
        await db.execute(sql`select count(*)::int as orders, count(distinct checkout_id)::int as checkouts
                             from orders where part_id in (select id from parts where name like 'Bench checkout part %')`),
      );
      checkoutCheck =
        `${fmt(checkedOut)} checkouts of ${checkoutLines} lines placed ${fmt(placed.orders)} orders in ` +
        `${fmt(placed.checkouts)} checkouts (${placed.orders === checkedOut * checkoutLines ? 'consistent' : 'INCONSISTENT'})`;
      rows.push({
        name: checkoutName,
        requests: latencies.length,
        requestsPerSecond: checkedOut / checkoutSeconds,
        p50: at(0.5),
        p99: at(0.99),
        errors: checkoutErrors,
        graphqlErrors: 0,
        graphqlOk: checkedOut,
        graphql: true,
        note: `${fmt((checkedOut * checkoutLines) / checkoutSeconds)} orders/s`,
        cpuMs: latencies.length ? (checkoutAfter.cpuMs - checkoutBefore.cpuMs) / latencies.length : undefined,
        ...checkoutMemory,
      });
      console.log(`bench: ${checkoutCheck}`);
    }

    const largest = (role: string, key: 'rssMiB' | 'peakMiB') =>
      Math.max(
        0,
        // The floor runs in the bench's own process, not the shop's.
        ...rows
          .filter((r) => !r.name.startsWith('floor'))
          .flatMap((r) => (r.perProcess ?? []).filter((p) => p.role === role).map((p) => p[key])),
      );
    const memoryLine =
      `Memory (V8 flags: ${heapFlags.join(' ') || "Node's defaults"}): ` +
      (workers > 1
        ? `the largest worker's RSS after a scenario ${fmt(largest('worker', 'rssMiB'))} MiB, its peak ` +
          `${fmt(largest('worker', 'peakMiB'))} MiB; the primary's ${fmt(largest('primary', 'rssMiB'))} MiB.`
        : `the server's (${image ? "the container's process" : "the bench's own process, PGlite included"}) RSS after a scenario at ` +
          `most ${fmt(largest('server', 'rssMiB'))} MiB, its peak ${fmt(largest('server', 'peakMiB'))} MiB.`);
    const floorRow = rows[0];
    const home = rows.find((r) => r.name.startsWith('home: '));
    const result = table(rows, floorRow);
    const budget = [
      home
        ? `Budget (issue 5): home GraphQL throughput >= 0.6 of the floor with p99 < 25 ms at 32 connections. ` +
          `This run: ${(home.requestsPerSecond / floorRow.requestsPerSecond).toFixed(2)} of the floor, p99 ` +
          `${fmt(home.p99, 1)} ms at ${connections} connections: ` +
          (home.requestsPerSecond >= 0.6 * floorRow.requestsPerSecond && home.p99 < 25 && connections === 32
            ? 'met.'
            : 'missed.')
        : 'Budget (issue 5): not run.',
      '',
      `Budgets (${catalog ? 'issue 33 point 8' : 'issue 15'}), at 32 connections (this run: ${connections}):`,
      '',
      ...rows
        .filter((r) => r.budget)
        .map((r) => {
          const b = r.budget as Budget;
          const ratio = r.requestsPerSecond / floorRow.requestsPerSecond;
          const met = ratio >= b.ratio && (b.p99Ms === undefined || r.p99 < b.p99Ms) && connections === 32;
          const share = serverShare(r, b.ratio, floorRow);
          return (
            `- ${r.name}: ${ratio.toFixed(2)} of the floor (budget >= ${b.ratio})` +
            (b.p99Ms === undefined ? '' : `, p99 ${fmt(r.p99, 1)} ms (budget < ${b.p99Ms} ms)`) +
            `: ${met ? 'met' : 'missed'}` +
            (share ? `; ${share}` : '')
          );
        }),
    ].join('\n');
    const date = new Date().toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
    const catalogSection =
      catalog &&
      [
        `### The last run of \`npm run bench:catalog\` (${date})`,
        '',
        `\`npm run bench:catalog\` (\`npm run bench -- --catalog-scale\`): the bench's usual data (${fmt(counts.parts)} parts, ${fmt(counts.users)} ` +
          `users, ${fmt(counts.orders)} orders, ${fmt(counts.reviews)} reviews: the floor's) and the catalog of ` +
          'bench/catalogData.ts, filled as the table below says (set-based SQL, in one transaction without per-row ' +
          "triggers, the big tables' secondary indexes built after their rows; then VACUUM ANALYZE). " +
          `${durationSeconds} s per scenario after ${warmupSeconds ? `a ${warmupSeconds} s warm-up under the same load` : 'no warm-up'}, ` +
          `${connections} connections, autocannon on loopback in a separate process. Each catalog scenario is the web ` +
          "app's own operation (its .graphql documents) sent as the web sends it (GET, no token) with " +
          '`Cache-Control: no-cache`, so that every request runs the resolvers and the SQL. "/ floor": requests/s ' +
          "over the floor's in the same run (the ratios hold on a shared machine, the absolute figures do not). " +
          (workers > 1
            ? `The shop ran as \`WORKERS=${workers}\` runs it (a primary and ${workers} workers, api/src/cluster.ts).`
            : "The shop ran as one process, in the bench's own."),
        '',
        '| table | rows | seconds |',
        '|---|---:|---:|',
        ...catalog.tables.map((t) => `| ${t.table} | ${t.rows ? fmt(t.rows) : ''} | ${t.seconds.toFixed(1)} |`),
        `| whole catalog fill | | ${catalog.seconds.toFixed(1)} |`,
        '',
        result,
        '',
        budget.slice(budget.indexOf('Budgets (')),
        '',
        'Machine:',
        '',
        machine(databaseVersion),
        '',
        `Whole run: ${Math.round((Date.now() - started) / 1000)} s.`,
      ].join('\n');
    const section = [
      `## Server on ${database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'} (${date})`,
      '',
      `${durationSeconds} s per scenario after ${warmupSeconds ? `a ${warmupSeconds} s warm-up under the same load (unmeasured; the race's on parts of its own)` : 'no warm-up'}, ` +
        `${connections} connections (placeOrder: ${raceCustomers}), autocannon on ` +
        'loopback in a separate process, no compression requested (but where a scenario says so). Data: ' +
        `${fmt(counts.parts)} parts, ${fmt(counts.users)} users, ${fmt(counts.orders)} orders, ` +
        `${fmt(counts.reviews)} reviews. "/ floor" is a GraphQL scenario's requests/s over the floor's. ` +
        'Errors: failed or non-2xx requests, plus 2xx GraphQL answers carrying errors. Anonymous public queries ' +
        'are answered from the in-process cache after the first (docs/decisions.md, "Caching and speed"), and so are ' +
        "the same asked with a token (public fields alone never look at the caller: the answer is the visitors'); " +
        '"afresh" scenarios ask with `Cache-Control: no-cache`, so every request runs the resolvers and the SQL. ' +
        '"server CPU / request": the server\'s CPU time over the requests answered (the load generator runs ' +
        'in a child process; the database in its own); "database, load generator": the same for the PostgreSQL ' +
        'server\'s processes (when it runs on this machine: "–" otherwise) and for the load generator. ' +
        (workers > 1
          ? `The shop ran as \`WORKERS=${workers}\` runs it (docker-compose.yml's \`auto\` on this machine: a primary and ` +
            `${workers} workers on one port, api/src/cluster.ts), its CPU and resident memory summed over them from ` +
            "/proc, its V8 heap over the workers by the shop's /metrics; the floor is one process, as before."
          : "The shop ran as one process, in the bench's own."),
      '',
      result,
      '',
      `placeOrder check: ${raceCheck}.`,
      '',
      memoryLine,
      '',
      `Checkout check: ${checkoutCheck}. The checkout row is measured by the bench itself (sequential rounds of ` +
        `${checkoutCustomers} concurrent checkouts, each cart refilled by SQL between rounds), not by autocannon.`,
      '',
      budget,
      '',
      'Machine:',
      '',
      machine(databaseVersion),
      '',
      `Reproduce: \`npm run bench${database.kind === 'pglite' ? ' -- --pglite' : ''}\` ` +
        '(options `--duration <s>`, `--warmup <s>`, `--connections <n>`; PostgreSQL server from `BENCH_DATABASE_URL`, else ' +
        '`TEST_DATABASE_URL`, else `postgres://postgres@127.0.0.1:5432/test`; the bench creates and drops a ' +
        `database of its own). Whole run: ${Math.round((Date.now() - started) / 1000)} s.`,
    ].join('\n');
    console.log(`\n${result}\n\n${raceCheck}\n${memoryLine}\n${budget}\n\n${machine(databaseVersion)}\n`);
    if (image) console.log(containerReport());
    if (only || replicas > 1 || image) console.log('bench: --only or --replicas: not written to docs/performance.md');
    else {
      await writeReport(catalog ? 'catalog' : database.kind, catalogSection || section);
      console.log('bench: written to docs/performance.md');
    }
  } finally {
    await new Promise<void>((resolve) => (floorServer ? floorServer.close(() => resolve()) : resolve()));
    await Promise.all(others.map(stopReplica));
    if (image) spawnSync('docker', ['rm', '-f', containerName], { stdio: 'ignore' });
    await app?.close({ graceMs: 1000 });
    await dropDatabase?.();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('bench failed:', error);
    process.exit(1);
  },
);
