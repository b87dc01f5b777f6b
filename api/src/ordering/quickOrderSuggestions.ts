import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../db/database';

/**
 * Quick order's suggestions for the numbers nobody carries (issue 34 points 1 and 6): the numbers that share the
 * longest start or the longest ending with it. A typo leaves one of the two whole for about half the number or more
 * (a character changed, dropped, added or two swapped at position k of n: the first k and the last n - k - 1 are
 * still right), and in a btree the numbers sharing the longest start with a text are its neighbours in order: so
 * each unknown number reads a few neighbours on each side of it in four btrees (our SKUs and the parts' numbers,
 * each as written and reversed: `parts_sku_key`, `part_numbers_normalised_idx`, `parts_sku_reversed_idx`,
 * `part_numbers_normalised_reversed_idx`), all the unknown numbers of a check in one statement. Each such read is
 * one index descent and a few rows, whatever the catalog's size; trigram similarity, measured before this, read
 * thousands of rows for each number (docs/performance.md, "Quick order's check").
 */

/** Suggestions per unknown number. */
export const suggestionsPerLine = 3;
/** Numbers read on each side of an unknown number in each of the four btrees. */
const neighboursPerSide = 3;
/** The fewest characters a suggestion shares with the number typed (at its start and end together). */
const minShared = 3;

export interface NearNumber {
  /** The number as the catalog writes it, and normalised. */
  raw: string;
  normalised: string;
  partId: string;
  /** Characters shared with the unknown number at its start and its end (at most the shorter's length). */
  shared: number;
}

/** The characters `a` and `b` share at their start and at their end, together at most the shorter's length. */
export function sharedEnds(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  let start = 0;
  while (start < shorter && a[start] === b[start]) start++;
  let end = 0;
  while (end < shorter && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  return Math.min(shorter, start + end);
}

/**
 * Whether `candidate` is near enough to the unknown `number` (both normalised) to suggest: they share at least half
 * of what was typed (and at least 3 characters) at the start and the end together.
 */
export function nearEnough(number: string, shared: number): boolean {
  return shared >= Math.max(minShared, Math.ceil(number.length / 2));
}

/**
 * The nearest numbers to each of `numbers` (normalised, none of them carried by any part), best first: the most
 * characters shared at the start and end, then the closest in length, then by the number. At most
 * `2 x 4 x neighboursPerSide` of each; the caller keeps the first `suggestionsPerLine` distinct parts.
 */
export async function nearestNumbers(db: DbOrTx, numbers: string[]): Promise<Map<string, NearNumber[]>> {
  const near = new Map<string, NearNumber[]>();
  if (!numbers.length) return near;
  const n = neighboursPerSide;
  // Each branch is one descent of one btree in order (LIMIT inside: a parameterised index scan per number).
  const rows = await rowsOf<{ number: string; part_id: string; raw: string; normalised: string }>(
    db,
    sql`
    select q.number, c.part_id::text as part_id, c.raw, c.normalised
      from unnest(${sql.param(numbers)}::text[]) as q(number)
      cross join lateral (
        (select p.id as part_id, p.sku as raw, p.sku_normalised as normalised from parts p
           where p.sku_normalised > q.number order by p.sku_normalised limit ${n})
        union all
        (select p.id, p.sku, p.sku_normalised from parts p
           where p.sku_normalised < q.number order by p.sku_normalised desc limit ${n})
        union all
        (select p.id, p.sku, p.sku_normalised from parts p
           where reverse(p.sku_normalised) > reverse(q.number) order by reverse(p.sku_normalised) limit ${n})
        union all
        (select p.id, p.sku, p.sku_normalised from parts p
           where reverse(p.sku_normalised) < reverse(q.number) order by reverse(p.sku_normalised) desc limit ${n})
        union all
        (select m.part_id, m.raw, m.normalised from part_numbers m
           where m.normalised > q.number order by m.normalised limit ${n})
        union all
        (select m.part_id, m.raw, m.normalised from part_numbers m
           where m.normalised < q.number order by m.normalised desc limit ${n})
        union all
        (select m.part_id, m.raw, m.normalised from part_numbers m
           where reverse(m.normalised) > reverse(q.number) order by reverse(m.normalised) limit ${n})
        union all
        (select m.part_id, m.raw, m.normalised from part_numbers m
           where reverse(m.normalised) < reverse(q.number) order by reverse(m.normalised) desc limit ${n})
      ) c`,
  );
  for (const row of rows) {
    const shared = sharedEnds(row.number, row.normalised);
    if (!nearEnough(row.number, shared)) continue;
    const list = near.get(row.number) ?? [];
    // The same number of the same part, reached from both ends: once.
    if (list.some((l) => l.partId === row.part_id && l.raw === row.raw)) continue;
    list.push({ raw: row.raw, normalised: row.normalised, partId: row.part_id, shared });
    near.set(row.number, list);
  }
  for (const [number, list] of near) {
    list.sort(
      (a, b) =>
        b.shared - a.shared ||
        Math.abs(a.normalised.length - number.length) - Math.abs(b.normalised.length - number.length) ||
        (a.raw < b.raw ? -1 : a.raw > b.raw ? 1 : 0),
    );
  }
  return near;
}
