import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { followOutput } from './runLog';

/**
 * Stopping a real server process while clients keep it busy: GraphQL and REST clients each sending one request
 * per connection (`Connection: close`), as the issue's operator did. Shared by api/test/lifecycle.test.ts (the
 * server as `npm start` and as the Dockerfile's command start it) and api/test/image.docker.ts (`docker stop`).
 *
 * What "accepted" means: every request is sent with `Expect: 100-continue`, and Node's HTTP server answers
 * `100 Continue` as soon as the server process has read the request's headers. A request that got it was
 * accepted by the server and must be answered; one that did not was refused before the process saw it (the
 * listening socket closed: ECONNREFUSED, or a connection still in the kernel's accept queue reset with it).
 */

export interface Outcome {
  kind: 'graphql' | 'graphql-public' | 'graphql-slow-body' | 'rest';
  /** The server process read the request (it answered 100 Continue). */
  accepted: boolean;
  acceptedAt?: number;
  status?: number;
  answeredAt?: number;
  error?: string;
}

export interface LoadReport {
  outcomes: Outcome[];
  answered: number;
  /** Accepted before the signal and answered after it: the drain at work. */
  answeredAfterSignal: number;
  /** 5xx answers. */
  serverErrors: Outcome[];
  /** Requests the server had accepted that got no answer (reset, cut, hung up). */
  acceptedButLost: Outcome[];
  /** Requests refused before the server read them (connection refused, or reset from the accept queue). */
  notAccepted: number;
  /** Answers after the signal that did not tell the client to close the connection. */
  keptAliveAfterSignal: number;
}

interface Target {
  host: string;
  port: number;
}

function send(
  target: Target,
  kind: Outcome['kind'],
  method: 'GET' | 'POST',
  path: string,
  options: { body?: string; token?: string; bodyDelayMs?: number; onAccepted?: () => void },
): Promise<Outcome & { connectionHeader?: string }> {
  return new Promise((resolve) => {
    const outcome: Outcome & { connectionHeader?: string } = { kind, accepted: false };
    const body = options.body ?? '';
    const req = request({
      host: target.host,
      port: target.port,
      method,
      path,
      agent: false,
      headers: {
        connection: 'close',
        expect: '100-continue',
        ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
    });
    req.setTimeout(20_000, () => req.destroy(new Error('no answer within 20 s')));
    req.on('continue', () => {
      outcome.accepted = true;
      outcome.acceptedAt = Date.now();
      options.onAccepted?.();
      if (options.bodyDelayMs) setTimeout(() => req.end(body), options.bodyDelayMs);
      else req.end(body);
    });
    req.on('response', (res) => {
      outcome.status = res.statusCode;
      outcome.connectionHeader = String(res.headers.connection ?? '');
      res.resume();
      res.on('end', () => {
        outcome.answeredAt = Date.now();
        resolve(outcome);
      });
      res.on('error', (error: NodeJS.ErrnoException) => {
        outcome.error = error.code ?? error.message;
        resolve(outcome);
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      outcome.error = error.code ?? error.message;
      resolve(outcome);
    });
    // Sends the request line and headers now; the body follows the server's 100 Continue.
    req.flushHeaders();
  });
}

export interface Load {
  /** Resolves once a slow-body request has been accepted: a request certainly in flight at the signal. */
  slowRequestInFlight: Promise<void>;
  /** Call at the moment the signal is sent. */
  signalled(): void;
  /** Waits until every client has seen the server refuse (or `deadlineMs` after the signal), then reports. */
  finish(deadlineMs?: number): Promise<LoadReport>;
}

/**
 * Starts the clients: `graphql` signed-in GraphQL clients (never answered from the public cache, so every one
 * runs Apollo and the database), `publicGraphql` anonymous ones, `rest` REST clients, and `slowBodies` clients
 * whose GraphQL body follows its headers after `slowBodyMs`. Each client sends one request after another until
 * the server refuses a connection; a client is bounded to 60 s in all.
 */
export function startLoad(
  base: string,
  options: {
    token: string;
    graphql?: number;
    publicGraphql?: number;
    rest?: number;
    slowBodies?: number;
    slowBodyMs?: number;
  },
): Load {
  const url = new URL(base);
  const target: Target = { host: url.hostname, port: Number(url.port) };
  const outcomes: (Outcome & { connectionHeader?: string })[] = [];
  let signalAt: number | undefined;
  let stopAt = Date.now() + 60_000;
  let markSlowAccepted!: () => void;
  const slowRequestInFlight = new Promise<void>((resolve) => (markSlowAccepted = resolve));

  const signedIn = JSON.stringify({ query: '{ me { id email } myOrders { total } }' });
  const anonymous = JSON.stringify({ query: '{ parts(limit: 5) { total items { id name } } }' });
  const client = async (next: () => Promise<Outcome & { connectionHeader?: string }>) => {
    while (Date.now() < stopAt) {
      const outcome = await next();
      outcomes.push(outcome);
      // Refused: the server no longer listens; this client is done.
      if (!outcome.accepted && outcome.error && signalAt !== undefined) return;
      if (!outcome.accepted && outcome.error) await new Promise((r) => setTimeout(r, 20));
    }
  };
  const clients: Promise<void>[] = [];
  for (let i = 0; i < (options.graphql ?? 6); i++)
    clients.push(client(() => send(target, 'graphql', 'POST', '/graphql', { body: signedIn, token: options.token })));
  for (let i = 0; i < (options.publicGraphql ?? 2); i++)
    clients.push(client(() => send(target, 'graphql-public', 'POST', '/graphql', { body: anonymous })));
  for (let i = 0; i < (options.rest ?? 6); i++)
    clients.push(client(() => send(target, 'rest', 'GET', '/api/parts', {})));
  for (let i = 0; i < (options.slowBodies ?? 2); i++)
    clients.push(
      client(() =>
        send(target, 'graphql-slow-body', 'POST', '/graphql', {
          body: signedIn,
          token: options.token,
          bodyDelayMs: options.slowBodyMs ?? 400,
          onAccepted: markSlowAccepted,
        }),
      ),
    );

  return {
    slowRequestInFlight,
    signalled() {
      signalAt = Date.now();
    },
    async finish(deadlineMs = 15_000) {
      stopAt = Math.min(stopAt, (signalAt ?? Date.now()) + deadlineMs);
      await Promise.all(clients);
      const after = (o: Outcome) => signalAt !== undefined && (o.answeredAt ?? 0) >= signalAt;
      return {
        outcomes,
        answered: outcomes.filter((o) => o.status !== undefined && !o.error).length,
        answeredAfterSignal: outcomes.filter(
          (o) => o.accepted && o.status !== undefined && (o.acceptedAt ?? 0) < (signalAt ?? 0) && after(o),
        ).length,
        serverErrors: outcomes.filter((o) => (o.status ?? 0) >= 500),
        acceptedButLost: outcomes.filter((o) => o.accepted && (o.status === undefined || o.error !== undefined)),
        notAccepted: outcomes.filter((o) => !o.accepted).length,
        keptAliveAfterSignal: outcomes.filter((o) => after(o) && o.connectionHeader !== 'close').length,
      };
    },
  };
}

/** A short summary for failure messages and logs. */
export function describeLoad(report: LoadReport): string {
  const byKind = new Map<string, number>();
  for (const o of report.outcomes) byKind.set(o.kind, (byKind.get(o.kind) ?? 0) + 1);
  const refusals = new Map<string, number>();
  for (const o of report.outcomes.filter((o) => !o.accepted))
    refusals.set(o.error ?? '?', (refusals.get(o.error ?? '?') ?? 0) + 1);
  return (
    `${report.outcomes.length} requests (${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}): ` +
    `${report.answered} answered, ${report.answeredAfterSignal} of them accepted before the signal and answered after it, ` +
    `${report.serverErrors.length} 5xx, ${report.acceptedButLost.length} accepted but not answered ` +
    `${JSON.stringify(report.acceptedButLost.slice(0, 5))}, ${report.notAccepted} refused before the server read them ` +
    `(${[...refusals].map(([code, n]) => `${code} ${n}`).join(', ')})`
  );
}

/** Signs up in an Auth emulator and exchanges the ID token for the shop's access token. */
export async function signUpAndIn(base: string, emulatorHost: string, email: string): Promise<string> {
  const signUp = await fetch(
    `http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'Secret#123', displayName: 'Stop Tester', returnSecureToken: true }),
    },
  );
  const { idToken } = (await signUp.json()) as { idToken?: string };
  if (!idToken) throw new Error(`the emulator at ${emulatorHost} did not sign ${email} up`);
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation($idToken: String!) { signIn(idToken: $idToken) { token } }',
      variables: { idToken },
    }),
  });
  const body = (await res.json()) as { data?: { signIn: { token: string } }; errors?: unknown };
  if (!body.data) throw new Error(`signIn failed: ${JSON.stringify(body.errors)}`);
  return body.data.signIn.token;
}

/** A process whose output is kept, with a way to wait for a line and for its exit. */
export interface Started {
  child: ChildProcess;
  output(): string;
  /** Lines of its JSON log whose msg is `msg`. */
  logLines(msg: string): number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

export function startProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; detached?: boolean },
): Started {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let output = '';
  // Its log lines join the run's, which the run's end scans for personal data and secrets.
  followOutput(child, (text) => (output += text));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return {
    child,
    output: () => output,
    logLines: (msg) =>
      output.split('\n').filter((line) => {
        try {
          return (JSON.parse(line) as { msg?: unknown }).msg === msg;
        } catch {
          return false;
        }
      }).length,
    exited,
  };
}

/** Waits until `url` answers 200, failing early if the process exits. */
export async function waitUntilReady(url: string, started: Started, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null || started.child.signalCode !== null)
      throw new Error(`the server exited before answering ${url}:\n${started.output().slice(-3000)}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${started.output().slice(-3000)}`);
}

/** Whether the process `pid` runs: a zombie (exited, not yet reaped by its new parent) counts as gone. */
export function alive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Polls `check` every 100 ms until it holds or `timeoutMs` has passed; answers whether it held. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}
