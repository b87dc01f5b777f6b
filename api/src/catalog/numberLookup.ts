import { normalisePartNumber, partNumberKindNames, partNumberMaxLength } from '@partsyard/common';
import { inArray, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/database';
import { escapeLike } from '../db/likePattern';
import { parts, type PartRow } from '../db/schema';
import { badInput } from '../errors';
import type { PartNumberKind } from './partLinksSchema';
import { resolveCurrentIds } from './supersession';

/** How a number matched: all of it (after normalising), or as the start of a longer number. */
export type NumberMatch = 'exact' | 'prefix';

export interface NumberHit {
  part: PartRow;
  match: NumberMatch;
  /** Why it is here, in the shopper's words: "OEM number 22201-166-000", "Our SKU PY-000001; replaced by ...". */
  reason: string;
  /** The part whose number matched, when it is replaced by `part` (the current one); null otherwise. */
  replaces: PartRow | null;
}

/** The most hits one look-up answers (exact ones first). */
export const numberHitLimit = 20;

/** Control characters (no part number holds one; PostgreSQL text cannot hold NUL). */
const hasControlCharacter = (text: string) =>
  [...text].some((c) => (c.charCodeAt(0) < 0x20 && c !== '\t') || c === '\u007f');

/**
 * The number asked for, checked: BAD_USER_INPUT with a message for empty text, text longer than any number,
 * control characters, or only separators. Returns it normalised.
 */
export function checkedNumber(text: unknown): string {
  const given = typeof text === 'string' ? text.trim() : '';
  const refuse = (message: string) => badInput({ number: message });
  if (!given) throw refuse('Enter a part number');
  if (given.length > partNumberMaxLength) {
    throw refuse(`A part number is at most ${partNumberMaxLength} characters`);
  }
  if (hasControlCharacter(given)) throw refuse('A part number cannot hold control characters');
  const normalised = normalisePartNumber(given);
  if (!normalised) throw refuse('Enter a part number with letters or digits, not only separators');
  return normalised;
}

interface MatchRow extends Record<string, unknown> {
  part_id: string;
  kind: PartNumberKind | 'sku';
  raw: string;
  brand: string | null;
  exact: boolean;
}

/**
 * Parts by number (issue 33, the first two tiers of the search): exact normalised matches of our SKU and of every
 * number a part carries, then numbers that start with it; a replaced part's number finds its current part. At
 * most `numberHitLimit` hits, each part once, with why it matched. Both tiers read the btree of a `COLLATE "C"`
 * column (an equality, or a LIKE prefix whose `%` and `_` are escaped); the statement is unnamed, so each is planned
 * for its own pattern.
 */
export async function partsByNumber(db: Db, text: unknown): Promise<NumberHit[]> {
  const number = checkedNumber(text);
  const prefix = `${escapeLike(number)}%`;
  const tier = (exactOnly: boolean) => {
    const skuMatch = exactOnly ? sql`p.sku_normalised = ${number}` : sql`p.sku_normalised like ${prefix}`;
    const numberMatch = exactOnly ? sql`n.normalised = ${number}` : sql`n.normalised like ${prefix}`;
    return sql`
      (select p.id::text as part_id, 'sku' as kind, p.sku as raw, null as brand,
              p.sku_normalised = ${number} as exact
         from parts p where ${skuMatch} order by p.sku_normalised limit ${numberHitLimit})
      union all
      (select n.part_id::text, n.kind, n.raw, b.name, n.normalised = ${number}
         from part_numbers n left join brands b on b.id = n.brand_id
         where ${numberMatch} order by n.normalised limit ${numberHitLimit})`;
  };
  const exact = await rowsOf<MatchRow>(db, tier(true));
  // Prefix matches only while the exact ones leave room (an exact match is also a prefix match: kept once).
  const prefixed = exact.length < numberHitLimit ? await rowsOf<MatchRow>(db, tier(false)) : [];
  const matches = [...exact, ...prefixed.filter((row) => !row.exact)];
  return describeHits(db, matches);
}

const numberWords = (row: MatchRow) =>
  row.kind === 'sku'
    ? `Our SKU ${row.raw}`
    : `${row.brand ? `${row.brand} ` : ''}${partNumberKindNames[row.kind]} ${row.raw}`;

/** The matches as hits: each on its current part, each part once (its first, best match), at most the limit. */
async function describeHits(db: Db, matches: MatchRow[]): Promise<NumberHit[]> {
  if (!matches.length) return [];
  const current = await resolveCurrentIds(
    db,
    matches.map((m) => m.part_id),
  );
  const ids = [...new Set([...current.keys(), ...current.values()])];
  const rows = await db.select().from(parts).where(inArray(parts.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const hits: NumberHit[] = [];
  const seen = new Set<string>();
  for (const match of matches) {
    const matched = byId.get(match.part_id);
    const part = byId.get(current.get(match.part_id) ?? match.part_id);
    if (!matched || !part || seen.has(part.id)) continue;
    seen.add(part.id);
    const replaced = part.id !== matched.id;
    const words = numberWords(match) + (match.exact ? '' : ' (starts with what you typed)');
    hits.push({
      part,
      match: match.exact ? 'exact' : 'prefix',
      reason: replaced
        ? `${words}, of ${matched.sku} (${matched.name}): replaced by ${part.sku} (${part.name})`
        : words,
      replaces: replaced ? matched : null,
    });
    if (hits.length === numberHitLimit) break;
  }
  return hits;
}
