/**
 * The product's access token, kept in localStorage under `accessToken` (spec §3, §9): the one place the web
 * reads, stores and renews it. Every request that needs it takes it from here (lib/apollo.ts).
 */
const key = 'accessToken';

/** How far the server's clock is ahead of ours, learnt from the last token it issued us. */
let serverClockAheadMs = 0;

export const getAccessToken = (): string | null => localStorage.getItem(key);
export const setAccessToken = (token: string): void => {
  localStorage.setItem(key, token);
  // The server's clock against ours, from a token it has just issued (a renewal is planned in our time).
  const { iat } = tokenClaims(token) ?? {};
  if (iat !== undefined) serverClockAheadMs = iat * 1000 - Date.now();
};
export const clearAccessToken = (): void => localStorage.removeItem(key);

/** What the web reads of an access token, without verifying it (the server verifies). */
export interface TokenClaims {
  /** The Firebase account it was issued for. */
  fid?: string;
  /** Issued at and expires at, in seconds (the server's clock). */
  iat?: number;
  exp?: number;
}

/** The claims of an access token; null when it is not readable. */
export function tokenClaims(token: string): TokenClaims | null {
  try {
    const payload = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))) as unknown;
    return payload && typeof payload === 'object' ? payload : null;
  } catch {
    return null;
  }
}

/** Share of a token's life after which it is renewed: 12 minutes of the default 15. */
const renewAfterShare = 0.8;

/**
 * When (our clock, ms) a token should be renewed: once 80 % of its life has passed. Null for a token without
 * its times (nothing to plan).
 */
export function renewalDue(token: string | null): number | null {
  const { iat, exp } = (token && tokenClaims(token)) || {};
  if (typeof iat !== 'number' || typeof exp !== 'number') return null;
  return (iat + (exp - iat) * renewAfterShare) * 1000 - serverClockAheadMs;
}

/**
 * How a renewal ended: a new token is stored; the account may no longer have one (deleted, disabled or signed
 * out at Firebase: the session ends); or it could not be asked now (offline, the shop or Firebase unreachable:
 * the session stays, and the next request or the next plan tries again).
 */
export type Renewal = 'renewed' | 'refused' | 'unavailable';

let renewer: (() => Promise<Renewal>) | null = null;
let renewing: Promise<Renewal> | null = null;

/** The auth provider says how to renew (a new Firebase ID token exchanged); answers the undo. */
export function setSessionRenewer(renew: () => Promise<Renewal>): () => void {
  renewer = renew;
  return () => {
    if (renewer === renew) renewer = null;
  };
}

/** Renews the access token, once however many requests ask at the same moment. */
export function renewSession(): Promise<Renewal> {
  const renew = renewer;
  if (!renew) return Promise.resolve('refused');
  renewing ??= renew()
    .catch((): Renewal => 'unavailable')
    .finally(() => {
      renewing = null;
    });
  return renewing;
}

type Listener = () => void;
const listeners = new Set<Listener>();

/** Called when the API refuses our session (401) and it cannot be renewed: the auth provider signs out. */
export function expireSession(): void {
  clearAccessToken();
  listeners.forEach((listener) => listener());
}

export function onSessionExpired(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
