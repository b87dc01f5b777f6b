import { getTableColumns, sql } from 'drizzle-orm';
import { lightStatement, rowsOf, type DbOrTx } from '../db/database';
import { escapeLike } from '../db/likePattern';
import { parts, type PartRow } from '../db/schema';
import type { Page } from '../services/paging';
import { idList, type CatalogFilter, type SearchText } from './catalogFilter';
import {
  catalogCountBound,
  holdsWord,
  inPartSet,
  partSetOf,
  summarise,
  type PartSet,
  type SetSummary,
} from './catalogQuery';
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
  /** The set's parts, when its first read held them all (within the bound): the page ranks them. */
  known?: string[] | null;
}

/**
 * Runs the number tiers (at most `numberHitLimit` hits, each part once) and keeps the hits the filter lets in: with
 * a vehicle, only those that fit it. Their parts and every part whose name and description hold the words make
 * the search's set: the words as written (`like`, whose index recheck is cheap), and only when those match no
 * part and no number matched whole, with typos (word similarity, which costs some ten times more a part: docs/catalog.md, "Search"), as
 * search engines turn typo tolerance on when the exact words find nothing. `summarise` of the set as written
 * decides, and is the search's summary when it stands.
 */
export async function searchSet(
  db: DbOrTx,
  filter: CatalogFilter,
  search: SearchText,
): Promise<SearchSet & { summary: SetSummary | null }> {
  const found = search.mayBeNumber ? await partsByNumber(db, search.text) : [];
  let numberHits = found;
  if (found.length) {
    const rows = await rowsOf<{ id: string }>(
      db,
      sql`select parts.id::text as id from parts where ${inPartSet('parts', partSetOf(filter), { way: 'probe' })}
        and parts.id in (${idList(found.map((hit) => hit.part.id))}) limit ${numberHitLimit}`,
    );
    const allowed = new Set(rows.map((row) => row.id));
    numberHits = found.filter((hit) => allowed.has(hit.part.id));
  }
  const numberIds = numberHits.map((hit) => hit.part.id);
  const asWritten = partSetOf(filter, { words: search.words, numberIds, typos: false });
  if (!search.words.length) return { set: asWritten, numberHits, summary: null };
  const summary = await summarise(db, asWritten, 'probe', true);
  // The number hits are in the set whatever their words: more parts than those means some words matched. A number
  // found whole is what was meant: no typos are looked for beside it.
  const exactNumber = numberHits.some((hit) => hit.match === 'exact');
  if (exactNumber || summary.total.isLowerBound || summary.total.count > numberIds.length) {
    return { set: asWritten, numberHits, summary, known: summary.ids };
  }
  return { set: partSetOf(filter, { words: search.words, numberIds, typos: true }), numberHits, summary: null };
}

const quoted = (text: string) => `"${text}"`;

/** Every column of a part, in the order Drizzle reads them (the rows of the text tier are mapped as its own). */
const partColumns = getTableColumns(parts);
const textTierFields = {
  part: partColumns,
  inName: sql<boolean>`in_name`,
  nameMatches: sql<boolean>`name_matches`,
};

/**
 * A page of a search: the number hits first (exact, then prefixes), then the parts whose name and description
 * match, best first: the whole text in the name, then the closest names, then the closest name and description.
 * The text tier ranks at most 2 x (`catalogCountBound` + 1) candidates, read by the trigram indexes: those with the
 * whole text in the name, and the others. A search matching more says "1,000+" and is narrowed by more words or a
 * filter. With a vehicle, each candidate is asked whether it fits (`probe`): the search's indexes lead.
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

  const typos = set.search?.typos ?? false;
  const textOnly: PartSet = { ...set, search: { words: search.words, numberIds: [], typos } };
  const numberIds = set.search?.numberIds ?? [];
  const phrase = `%${escapeLike(search.text.toLowerCase())}%`;
  // The whole text in the name (parts_name_trgm_idx) apart, so that the best matches are candidates however many
  // others match; a text of fewer than 3 characters has no trigram for that index to read, and is matched by its
  // words alone.
  const byWholeText = [...search.text].length >= 3;
  // A set within the bound was read whole by its summary: its parts are ranked by key, without reading the
  // matches (and asking each whether it fits the vehicle) again.
  const known = searched.known;
  const candidates = (alias: string, wholeText: 'in the name' | 'not in the name' | 'either') => {
    const c = sql.raw(alias);
    // Each known part looked up by its key (a lateral look-up: with a thousand keys the planner would rather read
    // parts whole).
    const source = known
      ? sql`unnest(${`{${known.join(',')}}`}::uuid[]) as k(id)
          cross join lateral (select * from parts ${c} where ${c}.id = k.id offset 0) ${c}`
      : sql`parts ${c}`;
    const inSet = known ? sql`true` : inPartSet(alias, textOnly, { way: 'probe' });
    const inName = sql`lower(${c}.name) like ${phrase}`;
    const which =
      wholeText === 'in the name'
        ? sql` and ${inName}`
        : wholeText === 'not in the name'
          ? sql` and not (${inName})`
          : sql``;
    return sql`(select ${c}.*, ${sql.raw(wholeText === 'in the name' ? 'true' : 'false')} as in_name from ${source}
      where ${inSet}${
        numberIds.length ? sql` and ${c}.id not in (${idList(numberIds)})` : sql``
      }${which} limit ${catalogCountBound + 1})`;
  };
  const branches = byWholeText
    ? [candidates('c1', 'in the name'), candidates('c2', 'not in the name')]
    : [candidates('c2', 'either')];
  const text = search.text.toLowerCase();
  const columns = sql.join(
    Object.values(partColumns).map((column) => sql.raw(`c."${column.name}"`)),
    sql`, `,
  );
  const nameMatches = sql.join(
    search.words.map((word) => holdsWord(sql.raw('lower(c.name)'), word, typos)),
    sql` and `,
  );
  // With typos, the closest first (word similarity, computed for the candidates alone); as written, the names
  // holding every word, then by name.
  const closest = typos
    ? sql`word_similarity(${text}, lower(c.name)) desc, word_similarity(${text}, lower(c.name || ' ' || c.description)) desc`
    : sql`name_matches desc`;
  const query = sql`select ${columns}, c.in_name, (${nameMatches}) as name_matches
    from (${sql.join(branches, sql` union all `)}) c
    order by c.in_name desc, ${closest}, c.name, c.id
    limit ${textLimit} offset ${textOffset}`;
  const rows = await lightStatement<{ part: PartRow; inName: boolean; nameMatches: boolean }>(
    undefined,
    { getSQL: () => query },
    textTierFields,
  )(db).execute();
  return [
    ...items,
    ...rows.map((row): CatalogItem => ({
      part: row.part,
      match: row.inName || row.nameMatches ? 'name' : 'description',
      reason: row.inName
        ? `Name contains ${quoted(search.text)}`
        : row.nameMatches
          ? `Name matches ${quoted(search.text)}`
          : `Description matches ${quoted(search.text)}`,
      replaces: null,
    })),
  ];
}
