import { badInput } from '../errors';

export interface Page {
  offset: number;
  limit: number;
}

/**
 * Each list's page sizes, written once: what a caller gets without asking (`fallback`) and the most one page
 * may hold (`max`; the REST shim, whose lists are not paged, asks for that).
 */
export const pageSizes = {
  parts: { fallback: 20, max: 100 },
  popularParts: { fallback: 6, max: 24 },
  reviews: { fallback: 20, max: 100 },
  orders: { fallback: 50, max: 200 },
  users: { fallback: 50, max: 200 },
  contactMessages: { fallback: 50, max: 200 },
  stockHistory: { fallback: 20, max: 100 },
  companies: { fallback: 50, max: 200 },
  companyPrices: { fallback: 50, max: 200 },
  invoices: { fallback: 20, max: 100 },
} as const;

/** Bounds a page request: offset >= 0, 1 <= limit <= max. Bad values are refused, not silently fixed. */
export function page(
  offset: number | null | undefined,
  limit: number | null | undefined,
  { max, fallback }: { max: number; fallback: number },
): Page {
  const o = offset ?? 0;
  const l = limit ?? fallback;
  if (!Number.isSafeInteger(o) || o < 0) throw badInput({ offset: 'Must be a whole number of 0 or more' });
  if (!Number.isInteger(l) || l < 1 || l > max) throw badInput({ limit: `Must be a whole number from 1 to ${max}` });
  return { offset: o, limit: l };
}

/**
 * A page and the exact total it is part of. The page is read first: when it is not full, it is the last one
 * and the total is known without counting (offset + its rows); only a full page (or one past the end) asks
 * `count` too. Most lists (a customer's orders, a narrow search, any last page) are then one statement.
 */
export async function pageWithTotal<T>(
  { offset, limit }: Page,
  items: () => Promise<T[]>,
  count: () => Promise<number>,
): Promise<{ items: T[]; total: number }> {
  const rows = await items();
  const isLast = rows.length < limit && (rows.length > 0 || offset === 0);
  return { items: rows, total: isLast ? offset + rows.length : await count() };
}

/**
 * A page read with its list's total on every row (`listTotal`: a window count, a subquery, a kept count), each
 * row made an item by `item`. A page past the end has no row to carry it: `count` is asked then (an empty first
 * page is 0 without counting).
 */
export async function pageOfCountedRows<R extends { listTotal: number }, T>(
  bounds: Page,
  rows: R[],
  item: (row: R) => T,
  count: () => Promise<number>,
): Promise<{ items: T[]; total: number }> {
  if (!rows.length) return pageWithTotal(bounds, async () => [], count);
  return { items: rows.map(item), total: rows[0].listTotal };
}

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else cannot name a row, so it is reported as not found rather than as a query error. */
export const isId = (id: string): boolean => uuidShape.test(id);
