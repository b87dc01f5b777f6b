import { randomUuid } from '../randomUuid';
import type { PartFieldsFragment } from '../../generated/graphql';

/**
 * A visitor's cart (signed out), kept in this browser's localStorage under `partsyard.cart`: one line per part,
 * with the part as it was when added (shown until the page asks the server again) and the unit price seen.
 * At sign-in it is merged into the server's cart (CartMerger, with `mergeId`) and emptied here.
 */
export interface VisitorLine {
  partId: string;
  amount: number;
  /** The unit price in dollars when added (its quantity break applied). */
  seenUnitPrice: number;
  part: PartFieldsFragment;
}

const key = 'partsyard.cart';
/** The id of this cart's merge into an account (mergeCart's `mergeId`), once one was started. */
const mergeKey = 'partsyard.cartMergeId';
type Listener = () => void;
const listeners = new Set<Listener>();
let cached: VisitorLine[] | null = null;

function read(): VisitorLine[] {
  if (cached) return cached;
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    cached = Array.isArray(parsed)
      ? parsed.filter(
          (l): l is VisitorLine =>
            typeof l === 'object' &&
            l !== null &&
            typeof (l as VisitorLine).partId === 'string' &&
            Number.isInteger((l as VisitorLine).amount) &&
            typeof (l as VisitorLine).part === 'object',
        )
      : [];
  } catch {
    cached = [];
  }
  return cached;
}

function write(lines: VisitorLine[]): void {
  cached = lines;
  if (lines.length) localStorage.setItem(key, JSON.stringify(lines));
  else localStorage.removeItem(key);
  // Another cart, another merge: an id sent with the cart as it was must not stand for this one.
  localStorage.removeItem(mergeKey);
  listeners.forEach((listener) => listener());
}

// Another tab changed the cart: this one shows it too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== key) return;
    cached = null;
    listeners.forEach((listener) => listener());
  });
}

export const visitorCart = {
  lines: read,
  subscribe: (listener: Listener): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  set: (line: VisitorLine): void => {
    const others = read().filter((l) => l.partId !== line.partId);
    const at = read().findIndex((l) => l.partId === line.partId);
    const next = [...others];
    next.splice(at < 0 ? next.length : at, 0, line);
    write(next);
  },
  remove: (partId: string): void => write(read().filter((l) => l.partId !== partId)),
  clear: (): void => write([]),
  /**
   * The id of merging this cart, as it is, into the signed-in account: chosen when the first merge starts and
   * kept (in localStorage, so a reload keeps it) until the cart changes or is emptied. A merge sent again with it
   * (the page reloaded while the answer was on its way) is recognised by the server and counts once.
   */
  mergeId: (): string => {
    const kept = localStorage.getItem(mergeKey);
    if (kept) return kept;
    const id = randomUuid();
    localStorage.setItem(mergeKey, id);
    return id;
  },
};
