/**
 * The catalog's search box (issue 33), its rules written once for the web and the API (docs/catalog.md, "Search"):
 * any text is safe to type; what cannot be searched gets a message, never an error of the server.
 */

/** The longest search, in characters (after trimming). */
export const catalogSearchMaxLength = 200;
/** The most words a search may hold: each word is matched on its own (typo-tolerant), all of them must match. */
export const catalogSearchMaxWords = 10;

export const catalogSearchMessages = {
  tooLong: `Search with at most ${catalogSearchMaxLength} characters`,
  tooManyWords: `Search with at most ${catalogSearchMaxWords} words`,
  empty: 'Type a part number, a name or a few words to search for',
} as const;

/**
 * Control characters (NUL included, which PostgreSQL text cannot hold), format characters (zero-width spaces,
 * direction marks) and every kind of space: read as one space.
 */
const spacesAndControls = /[\s\p{Cc}\p{Cf}\p{Z}]+/gu;

/** Halves of a surrogate pair standing alone (JSON can carry them; UTF-8 cannot): mended as U+FFFD. */
const loneSurrogates = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export type CheckedSearch = { ok: true; text: string; words: string[] } | { ok: false; error: string };

/**
 * A search as the catalog reads it: lone surrogates mended, control characters and every kind of space read as
 * one space, trimmed; then at most `catalogSearchMaxLength` characters and `catalogSearchMaxWords` words. Empty
 * text is no search (`text: ''`). `words` are lower-cased (the catalog matches names and descriptions whatever
 * their case).
 */
export function checkCatalogSearch(input: unknown): CheckedSearch {
  if (input === null || input === undefined) return { ok: true, text: '', words: [] };
  if (typeof input !== 'string') return { ok: false, error: catalogSearchMessages.empty };
  // Measured before it is tidied: a 10 kB paste is refused, not cut down to something else.
  if (input.length > catalogSearchMaxLength * 4) return { ok: false, error: catalogSearchMessages.tooLong };
  const text = input.replace(loneSurrogates, '\ufffd').replace(spacesAndControls, ' ').trim();
  if (!text) return { ok: true, text: '', words: [] };
  if ([...text].length > catalogSearchMaxLength) return { ok: false, error: catalogSearchMessages.tooLong };
  const words = text.toLowerCase().split(' ');
  if (words.length > catalogSearchMaxWords) return { ok: false, error: catalogSearchMessages.tooManyWords };
  return { ok: true, text, words };
}

const countFormat = new Intl.NumberFormat('en-US');

/** A count as the catalog shows it: "42", or "1,000+" when it is a lower bound (counting stopped there). */
export const catalogCountText = (count: number, isLowerBound: boolean): string =>
  `${countFormat.format(count)}${isLowerBound ? '+' : ''}`;
