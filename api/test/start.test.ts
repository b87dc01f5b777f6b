import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePorts } from './support/ports';
import { followOutput } from './support/runLog';

/** `npm start` as a newcomer runs it: the launcher, the Auth emulator, PGlite on disk, the demo seed. */

const root = path.resolve(__dirname, '..', '..');

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('npm start (embedded defaults)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'partsyard-start-'));
  let ports: { app: number; auth: number; hub: number; logging: number; smtp: number; inbox: number };
  let launcher: ChildProcess | undefined;
  let output = '';

  const start = async () => {
    launcher = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
      cwd: root,
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        FIREBASE_AUTH_EMULATOR_HOST: '',
        DATABASE_URL: '',
        PORT: String(ports.app),
        DATA_DIR: dataDir,
        AUTH_EMULATOR_PORT: String(ports.auth),
        AUTH_EMULATOR_HUB_PORT: String(ports.hub),
        AUTH_EMULATOR_LOGGING_PORT: String(ports.logging),
        MAILDEV_SMTP_PORT: String(ports.smtp),
        MAILDEV_WEB_PORT: String(ports.inbox),
        SMTP_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Its log lines (the API's among them) join the run's, which the run's end scans for personal data.
    followOutput(launcher, (text) => (output += text));
    await waitFor(() => answers(`http://127.0.0.1:${ports.app}/readyz`), 120_000, `the shop to start:\n${output}`);
  };

  const stop = async () => {
    const child = launcher as ChildProcess;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
  };

  const signIn = async (email: string, password: string) => {
    const res = await fetch(
      `http://127.0.0.1:${ports.auth}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password, returnSecureToken: true }),
      },
    );
    const { idToken } = (await res.json()) as { idToken?: string };
    if (!idToken) return null;
    const exchange = await fetch(`http://127.0.0.1:${ports.app}/api/user/${email}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
      body: JSON.stringify({}),
    });
    return ((await exchange.json()) as { token: string }).token;
  };

  beforeAll(async () => {
    const [app, auth, hub, logging, smtp, inbox] = await freePorts(6);
    ports = { app, auth, hub, logging, smtp, inbox };
  });

  afterAll(async () => {
    if (launcher && launcher.exitCode === null) await stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('seeds demo content and accounts, stops every process on Ctrl-C, and keeps data on the next start', async () => {
    await start();
    const parts = (await (await fetch(`http://127.0.0.1:${ports.app}/api/parts`)).json()) as { _id: string }[];
    const reviews = (await (await fetch(`http://127.0.0.1:${ports.app}/api/reviews`)).json()) as unknown[];
    expect(parts.length).toBeGreaterThanOrEqual(12);
    expect(reviews.length).toBeGreaterThanOrEqual(6);

    const adminToken = await signIn('admin@partsyard.test', 'Admin#2026');
    const customerToken = await signIn('customer@partsyard.test', 'Customer#2026');
    expect(adminToken).toBeTruthy();
    const admin = await fetch(`http://127.0.0.1:${ports.app}/api/admin/admin@partsyard.test`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(await admin.json()).toEqual({ admin: true });

    const order = await fetch(`http://127.0.0.1:${ports.app}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${customerToken}` },
      body: JSON.stringify({ partId: parts[0]._id, name: 'Demo', phone: '01712345678', orderAmount: 50, address: '' }),
    });
    expect(order.status).toBe(200);
    const { insertedId } = (await order.json()) as { insertedId: string };

    // The order's email arrives in the local mail catcher, at the addresses printed: the inbox page answers a
    // browser (MailDev's page and its script), and the JSON list answers anything.
    const printed = /arrive in the inbox at (http:\/\/\S+) \(open it in a browser; as JSON: (http:\/\/\S+)\)/.exec(
      output,
    );
    expect(printed?.slice(1)).toEqual([
      `http://localhost:${ports.inbox}/`,
      `http://localhost:${ports.inbox}/api/email`,
    ]);
    const [page, list] = (printed?.slice(1) ?? []).map((url) => url.replace('//localhost:', '//127.0.0.1:'));
    const browsing = await fetch(page, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(browsing.status).toBe(200);
    const html = await browsing.text();
    expect(html).toContain('<title>MailDev</title>');
    const script = /<script[^>]+src="\.?\/?([^"]+\.js)"/.exec(html)?.[1] ?? '';
    expect((await fetch(new URL(script, page))).status).toBe(200);
    const subjects = async () =>
      ((await (await fetch(list)).json()) as { subject: string; to: { address: string }[] }[])
        .filter((m) => m.to.some((t) => t.address === 'customer@partsyard.test'))
        .map((m) => m.subject);
    await waitFor(async () => (await subjects()).some((s) => s.includes('pay by')), 15_000, 'the order email');

    await stop();
    expect(await answers(`http://127.0.0.1:${ports.app}/healthz`)).toBe(false);
    expect(await answers(`http://127.0.0.1:${ports.auth}/`)).toBe(false);
    expect(await answers(`http://127.0.0.1:${ports.inbox}/api/healthz`)).toBe(false);

    await start();
    const again = await signIn('customer@partsyard.test', 'Customer#2026');
    const kept = await fetch(`http://127.0.0.1:${ports.app}/api/order/${insertedId}`, {
      headers: { authorization: `Bearer ${again}` },
    });
    expect(kept.status).toBe(200);
    const partsAfter = (await (await fetch(`http://127.0.0.1:${ports.app}/api/parts`)).json()) as unknown[];
    expect(partsAfter).toHaveLength(parts.length);
    await stop();
  }, 300_000);
});
