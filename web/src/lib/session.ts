/** The product's access token, kept in localStorage under `accessToken` (spec §3, §9). */
const key = 'accessToken';

export const getAccessToken = (): string | null => localStorage.getItem(key);
export const setAccessToken = (token: string): void => localStorage.setItem(key, token);
export const clearAccessToken = (): void => localStorage.removeItem(key);

type Listener = () => void;
const listeners = new Set<Listener>();

/** Called when the API refuses our token on protected data (401/403): the auth provider signs out. */
export function expireSession(): void {
  clearAccessToken();
  listeners.forEach((listener) => listener());
}

export function onSessionExpired(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
