import type { Location } from 'react-router-dom';

/** Where to go after login or signup: the page the guard sent us from, else / (spec §2). */
export function returnTo(state: unknown): string {
  const from = (state as { from?: Location } | null)?.from;
  if (!from?.pathname || from.pathname === '/login' || from.pathname === '/signup') return '/';
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

/** Whether the admin guard sent a signed-in non-admin here (their origin is a page they may not open). */
export function adminOnly(state: unknown): boolean {
  return (state as { adminOnly?: unknown } | null)?.adminOnly === true;
}
