import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../config';

/**
 * The Content-Security-Policy of every answer (it matters on the pages: the shop, its pre-rendered home page and
 * the GraphQL playground). Scripts come from this origin only: the pages carry no inline script (the start-up
 * loader is a file, web/src/boot.js). The two exceptions are the providers that must serve their own script:
 * Stripe.js in Stripe mode (card data never touches our pages), and Google's sign-in helper with real Firebase.
 * Pictures may come from https addresses (profile photos, part images) and data: URLs; the rules in common/
 * keep other kinds of addresses out of the data. Styles allow inline `style` attributes (React's, and the
 * pre-rendered page's); no script can be injected through them.
 */
/** The host name the page was opened with, if it is a plain one (the Host header is the client's to set). */
const hostName = (req: Request) => (/^[a-z0-9.-]{1,253}$/i.test(req.hostname ?? '') ? req.hostname : 'localhost');

export function contentSecurityPolicy(config: Pick<Config, 'firebase' | 'stripe'>) {
  const { emulatorHost, authDomain } = config.firebase;
  const stripe = config.stripe !== null;
  const script = ["'self'"];
  const connect = ["'self'"];
  const frame: string[] = [];
  if (stripe) {
    script.push('https://js.stripe.com');
    connect.push('https://api.stripe.com');
    frame.push('https://js.stripe.com', 'https://hooks.stripe.com');
  }
  if (!emulatorHost) {
    script.push('https://apis.google.com');
    connect.push('https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com');
    frame.push(`https://${authDomain}`);
  }
  const fixed = [
    "default-src 'self'",
    "base-uri 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "img-src 'self' https: data:",
    "font-src 'self' data:",
    "style-src 'self' 'unsafe-inline'",
    "worker-src 'self' blob:",
    `script-src ${script.join(' ')}`,
  ].join('; ');

  // The web reaches a loopback emulator under the host name the page was opened with (lib/firebase.ts).
  const [emulatorName, emulatorPort] = emulatorHost?.split(':') ?? [];
  const loopback = ['127.0.0.1', 'localhost'].includes(emulatorName ?? '');
  /** The policy of a page opened under `pageHost` (which matters only with a loopback emulator). */
  const policyOf = (pageHost: string) => {
    const emulator = !emulatorHost
      ? []
      : loopback
        ? [...new Set(['127.0.0.1', 'localhost', pageHost])].map((host) => `http://${host}:${emulatorPort}`)
        : [`http://${emulatorHost}`];
    const frames = [...frame, ...emulator];
    return `${fixed}; connect-src ${[...connect, ...emulator].join(' ')}; frame-src ${frames.length ? frames.join(' ') : "'none'"}`;
  };
  // Every answer carries the policy: it is made once, or once per host name where a loopback emulator makes it
  // depend on it (at most `maxHosts` kept: the Host header is the client's), not anew for each request (issue 15).
  const fixedPolicy = loopback ? null : policyOf('localhost');
  const byHost = new Map<string, string>();
  const maxHosts = 64;
  const policyFor = (req: Request) => {
    if (fixedPolicy !== null) return fixedPolicy;
    const host = hostName(req);
    let policy = byHost.get(host);
    if (policy === undefined) {
      if (byHost.size >= maxHosts) byHost.clear();
      policy = policyOf(host);
      byHost.set(host, policy);
    }
    return policy;
  };

  return (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Content-Security-Policy', policyFor(req));
    next();
  };
}
