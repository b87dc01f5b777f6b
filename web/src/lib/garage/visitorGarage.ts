import { randomUuid } from '../randomUuid';

/**
 * A visitor's garage (signed out), kept in this browser's localStorage under `partsyard.garage`: the bikes
 * (a vehicle's id and its name, "2019 Honda CRF450R"), each once and at most `maxVisitorBikes`, and the current one.
 * At sign-in it is merged into the account's garage (GarageMerger, with `mergeId`) and emptied here, as the cart is.
 */
export interface GarageBike {
  id: string;
  name: string;
}

export interface VisitorGarage {
  bikes: GarageBike[];
  currentId: string | null;
}

/** As many bikes as an account's garage holds (the server's maxGarageBikes). */
export const maxVisitorBikes = 20;
export const visitorGarageFullMessage = `A garage holds at most ${maxVisitorBikes} bikes: remove one first`;

const key = 'partsyard.garage';
/** The id of this garage's merge into an account (mergeGarage's `mergeId`), once one was started. */
const mergeKey = 'partsyard.garageMergeId';
const empty: VisitorGarage = { bikes: [], currentId: null };
type Listener = () => void;
const listeners = new Set<Listener>();
let cached: VisitorGarage | null = null;

const isBike = (b: unknown): b is GarageBike =>
  typeof b === 'object' &&
  b !== null &&
  typeof (b as GarageBike).id === 'string' &&
  typeof (b as GarageBike).name === 'string';

function read(): VisitorGarage {
  if (cached) return cached;
  try {
    const parsed = JSON.parse(localStorage.getItem(key) ?? 'null') as Partial<VisitorGarage> | null;
    const bikes = Array.isArray(parsed?.bikes) ? parsed.bikes.filter(isBike).slice(0, maxVisitorBikes) : [];
    const currentId = bikes.some((b) => b.id === parsed?.currentId) ? (parsed?.currentId ?? null) : null;
    cached = bikes.length ? { bikes, currentId } : empty;
  } catch {
    // No storage (the build's pre-render, a browser that refuses it) or something unreadable in it: none.
    cached = empty;
  }
  return cached;
}

function write(next: VisitorGarage): void {
  cached = next.bikes.length ? next : empty;
  try {
    if (next.bikes.length) localStorage.setItem(key, JSON.stringify(next));
    else localStorage.removeItem(key);
    // Another garage, another merge: an id sent with the garage as it was must not stand for this one.
    localStorage.removeItem(mergeKey);
  } catch {
    // Kept for this page only.
  }
  listeners.forEach((listener) => listener());
}

// Another tab changed the garage: this one shows it too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== key) return;
    cached = null;
    listeners.forEach((listener) => listener());
  });
}

export const visitorGarage = {
  read,
  /** What the build's pre-render and the browser's hydration of it show: no bikes (the HTML knows no visitor). */
  serverSnapshot: (): VisitorGarage => empty,
  subscribe: (listener: Listener): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Adds a bike (one already there stays where it is), making it current when asked. Throws when full. */
  add: (bike: GarageBike, makeCurrent: boolean): void => {
    const now = read();
    const there = now.bikes.some((b) => b.id === bike.id);
    if (!there && now.bikes.length >= maxVisitorBikes) throw new Error(visitorGarageFullMessage);
    write({
      bikes: there ? now.bikes : [...now.bikes, bike],
      currentId: makeCurrent ? bike.id : now.currentId,
    });
  },
  remove: (id: string): void => {
    const now = read();
    write({ bikes: now.bikes.filter((b) => b.id !== id), currentId: now.currentId === id ? null : now.currentId });
  },
  /** Makes a bike of the garage current, or none (null). */
  setCurrent: (id: string | null): void => {
    const now = read();
    write({ ...now, currentId: id !== null && now.bikes.some((b) => b.id === id) ? id : null });
  },
  clear: (): void => write(empty),
  /**
   * The id of merging this garage, as it is, into the signed-in account: chosen when the first merge starts and kept
   * (so a reload keeps it) until the garage changes or is emptied; the server counts a merge sent again once.
   */
  mergeId: (): string => {
    const kept = localStorage.getItem(mergeKey);
    if (kept) return kept;
    const id = randomUuid();
    localStorage.setItem(mergeKey, id);
    return id;
  },
};
