import { Agent, request } from 'node:http';

/**
 * Traffic as a load balancer sends it to a replica it is about to drop (issue 32, point 8): `clients` loops each
 * sending GET `path` over kept-alive connections (a new one whenever the server closes one), and a health check
 * asking `/readyz` every `probeMs` on a connection of its own. Once the check has seen `/readyz` fail, the
 * clients go on for `reactionMs` (a balancer does not react at once), then stop.
 */

export interface BalancedOutcome {
  sentAt: number;
  status?: number;
  /** The answer's Connection header. */
  connection?: string;
  /** ECONNREFUSED, ECONNRESET, "socket hang up"...: a request the server never answered. */
  error?: string;
}

export interface BalancedReport {
  outcomes: BalancedOutcome[];
  /** When the health check first saw /readyz fail, and what it saw (a status, or an error). */
  notReadyAt: number | undefined;
  probeSaw: number | string | undefined;
  /** Requests that got no answer: refused or reset. */
  lost: BalancedOutcome[];
  /** Requests sent after the health check saw the replica not ready (during the balancer's reaction). */
  sentAfterNotReady: BalancedOutcome[];
}

function get(url: string, agent: Agent | false): Promise<BalancedOutcome> {
  const outcome: BalancedOutcome = { sentAt: Date.now() };
  return new Promise((resolve) => {
    const req = request(url, { agent }, (res) => {
      outcome.status = res.statusCode;
      outcome.connection = String(res.headers.connection ?? '');
      res.resume();
      res.on('end', () => resolve(outcome));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ ...outcome, error: error.code ?? error.message }));
    });
    req.setTimeout(15_000, () => req.destroy(new Error('no answer within 15 s')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ ...outcome, error: error.code ?? error.message }));
    req.end();
  });
}

export function startBalancedLoad(
  base: string,
  { clients = 4, path = '/api/parts', probeMs = 100, reactionMs = 300, maxMs = 60_000 } = {},
): { finish(): Promise<BalancedReport> } {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const outcomes: BalancedOutcome[] = [];
  let notReadyAt: number | undefined;
  let probeSaw: number | string | undefined;
  const until = Date.now() + maxMs;
  const sending = () => Date.now() < until && (notReadyAt === undefined || Date.now() < notReadyAt + reactionMs);

  const probe = async () => {
    while (notReadyAt === undefined && Date.now() < until) {
      const seen = await get(`${base}/readyz`, false);
      if (seen.status !== 200) {
        notReadyAt = Date.now();
        probeSaw = seen.status ?? seen.error;
      } else await new Promise((resolve) => setTimeout(resolve, probeMs));
    }
  };
  const client = async () => {
    while (sending()) outcomes.push(await get(`${base}${path}`, agent));
  };
  const running = Promise.all([probe(), ...Array.from({ length: clients }, client)]);

  return {
    async finish() {
      await running;
      agent.destroy();
      return {
        outcomes,
        notReadyAt,
        probeSaw,
        lost: outcomes.filter((o) => o.error !== undefined),
        sentAfterNotReady: outcomes.filter((o) => notReadyAt !== undefined && o.sentAt >= notReadyAt),
      };
    },
  };
}
