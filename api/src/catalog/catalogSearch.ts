import { desc, asc, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/database';
import { escapeLike } from '../db/likePattern';
import { parts, type PartRow } from '../db/schema';
import type { Page } from '../services/paging';
import { idList, type CatalogFilter, type SearchText } from './catalogFilter';
import { catalogCountBound, inPartSet, partSetOf, searchDocument, type PartSet } from './catalogQuery';
import { numberHitLimit, partsByNumber, type NumberHit } from './numberLookup';

/**
 * The catalog's one search box (issue 33, docs/catalog.md "Search"): a part number first (exact, then prefixes:
 * numberLookup.ts), then names and descriptions, typo-tolerant; each hit says why it is there.
 */

/** How a hit matched, best first. */
export type SearchMatch = 'exactNumber' | 'numberPrefix' | 'name' | 'description';

/** A part in the catalog's list: why it is there when searched. */
export interface CatalogItem {
  part: PartRow;
  /** Null when browsing. */
  match: SearchMatch | null;
  /** "OEM number 22201-166-000", "Name contains "brake pads""; null when browsing. */
  reason: string | null;
  /** The replaced part whose number matched, when `part` is the one replacing it. */
  replaces: PartRow | null;
}

/** A search over the filter's parts, read: its set (for totals and facets) and the number hits in it. */
export interface SearchSet {
  set: PartSet;
  numberHits: NumberHit[];
}

/**
 * Runs the number tiers (at most `numberHitLimit` hits, each part once) and keeps the hits the filter lets in: with
 * a vehicle, only those that fit it. Their parts and every part whose name and description match the words make
 * the search's set.
 */
export async function searchSet(db: DbOrTx, filter: CatalogFilter, search: SearchText): Promise<SearchSet> {
  const found = search.mayBeNumber ? await partsByNumber(db, search.text) : [];
  let numberHits = found;
  if (found.length) {
    const { rows } = (await db.execute(
      sql`select parts.id::text as id from parts where ${inPartSet('parts', partSetOf(filter))}
        and parts.id in (${idList(found.map((hit) => hit.part.id))}) limit ${numberHitLimit}`,
    )) as unknown as { rows: { id: string }[] };
    const allowed = new Set(rows.map((row) => row.id));
    numberHits = found.filter((hit) => allowed.has(hit.part.id));
  }
  const set = partSetOf(filter, { words: search.words, numberIds: numberHits.map((hit) => hit.part.id) });
  return { set, numberHits };
}

const quoted = (text: string) => `"${text}"`;

/**
 * A page of a search: the number hits first (exact, then prefixes), then the parts whose name and description
 * match, best first: the whole text in the name, then the closest names, then the closest name and description.
 * The text tier ranks at most 2 x `catalogCountBound` + 2 candidates (those with the whole text in the name, and the
 * others): a search matching more says "1,000+" and is narrowed by more words or a filter.
 */
export async function searchPage(db: DbOrTx, search: SearchText, searched: SearchSet, bounds: Page) {
  const { numberHits, set } = searched;
  const numbered: CatalogItem[] = numberHits.map((hit) => ({
    part: hit.part,
    match: hit.match === 'exact' ? 'exactNumber' : 'numberPrefix',
    reason: hit.reason,
    replaces: hit.replaces,
  }));
  const items = numbered.slice(bounds.offset, bounds.offset + bounds.limit);
  const textLimit = bounds.limit - items.length;
  if (textLimit === 0 || !search.words.length) return items;
  const textOffset = Math.max(0, bounds.offset - numbered.length);

  const textOnly: PartSet = { ...set, search: { words: search.words, numberIds: [] } };
  const notNumbered = (alias: string): SQL =>
    set.search?.numberIds.length ? sql` and ${sql.raw(alias)}.id not in (${idList(set.search.numberIds)})` : sql``;
  const text = search.text.toLowerCase();
  const phrase = `%${escapeLike(text)}%`;
  const candidateLimit = catalogCountBound + 1;
  // The whole text in the name (parts_name_trgm_idx), so that the best matches are candidates however many
  // others match; a text of fewer than 3 characters has no trigram for that index to read.
  const wholeText =
    [...text].length >= 3
      ? sql`(select c1.id from parts c1 where ${inPartSet('c1', textOnly)}${notNumbered('c1')}
          and lower(c1.name) like ${phrase} limit ${candidateLimit}) union `
      : sql``;
  const candidates = sql`${wholeText}(select c2.id from parts c2 where ${inPartSet('c2', textOnly)}${notNumbered('c2')}
    limit ${candidateLimit})`;
  const inName = sql<boolean>`lower(${parts.name}) like ${phrase}`;
  const nameMatches = sql<boolean>`(${sql.join(
    search.words.map((word) => sql`lower(${parts.name}) %> ${word}`),
    sql` and `,
  )})`;
  const rows = await db
    .select({ part: parts, inName, nameMatches })
    .from(parts)
    .where(sql`${parts.id} in (${candidates})`)
    .orderBy(
      desc(inName),
      desc(sql`word_similarity(${text}, lower(${parts.name}))`),
      desc(sql`word_similarity(${text}, ${searchDocument('parts')})`),
      asc(parts.name),
      asc(parts.id),
    )
    .limit(textLimit)
    .offset(textOffset);
  return [
    ...items,
    ...rows.map(
      (row): CatalogItem => ({
        part: row.part,
        match: row.inName || row.nameMatches ? 'name' : 'description',
        reason: row.inName
          ? `Name contains ${quoted(search.text)}`
          : row.nameMatches
            ? `Name matches ${quoted(search.text)}`
            : `Description matches ${quoted(search.text)}`,
        replaces: null,
      }),
    ),
  ];
}
