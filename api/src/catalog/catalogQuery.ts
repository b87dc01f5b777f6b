import { catalogCountText } from '@partsyard/common';
import { asc, inArray, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../db/database';
import { escapeLike } from '../db/likePattern';
import { parts, type PartRow } from '../db/schema';
import type { Page } from '../services/paging';
import { brands, type BrandRow, type CategoryRow } from './catalogSchema';
import { noKey } from './partLinksSchema';
import { idList, loadCategoryTree, type CatalogFilter, type CategoryTree } from './catalogFilter';

/**
 * The catalog's list (issue 33, docs/catalog.md "Browsing and facets"): which parts a filter lets in, a page of
 * them by name, and counts that never read more than `catalogCountBound` + 1 parts each.
 */

/** Totals and facet counts are exact up to this many parts; above it they read "1,000+". */
export const catalogCountBound = 1000;
/** The most values a facet lists (categories: those of the level below the chosen one; brands: the most common). */
export const facetValueLimit = 100;
/** Page sizes of the catalog. */
export const catalogPageSizes = { fallback: 20, max: 100 } as const;

/** Which parts are in a list: the filter's parts, and for a search the parts it matched. */
export interface PartSet {
  vehicleId: string | null;
  categoryIds: string[] | null;
  brandId: string | null;
  inStock: boolean;
  /** A search: its words (each must match name or description) or the parts its number found. Null: browsing. */
  search: { words: string[]; numberIds: string[]; typos: boolean } | null;
}

export const partSetOf = (filter: CatalogFilter, search: PartSet['search'] = null): PartSet => ({
  vehicleId: filter.vehicle?.id ?? null,
  categoryIds: filter.categoryIds,
  brandId: filter.brand?.id ?? null,
  inStock: filter.inStock,
  search,
});

/** The text a search matches a part by (the expression of the trigram index parts_search_trgm_idx). */
export const searchDocument = (alias: string) => sql.raw(`lower(${alias}.name || ' ' || ${alias}.description)`);

/**
 * Whether `text` (lower case, `alias.name` or the search document) holds `word`: as written (`like '%word%'`,
 * escaped), or with typos (`%>`: word similarity at least the session's threshold). Both read the trigram index.
 * `like` reads it only by the trigrams inside the word (three letters or digits in a row: `%ab%` or `%a-b%` have
 * none, and would read the whole index), so a word without three in a row is matched by similarity always, whose
 * trigrams are padded at the word's start ("m8" finds "M8 bolt").
 */
export function holdsWord(text: SQL, word: string, typos: boolean): SQL {
  return typos || !/[a-z0-9]{3}/.test(word) ? sql`${text} %> ${word}` : sql`${text} like ${`%${escapeLike(word)}%`}`;
}

/**
 * How the vehicle's parts are read (docs/catalog.md, "Measured plans"):
 * - `fromVehicle`: from the vehicle's fitments (fitments_vehicle_category_idx) and the universal parts
 *   (parts_universal_idx), each part then looked up: the work grows with the vehicle's parts, whatever else;
 * - `probe`: the parts are read another way (by name, category, brand, the search's trigram index), each asked
 *   whether it is universal or has a fitment row for the vehicle: the work grows with the parts read until the
 *   page or count is full, which is few when the vehicle's parts are many (the busiest bike) or another condition
 *   is narrow (a search). PostgreSQL may answer "a fitment row?" by hashing all the vehicle's fitments first
 *   (48,612 rows for the busiest bike at 200,000 parts: 23 ms for a page of 20);
 * - `probeEach`: the same, each part asked on its own by an index look-up, which the planner cannot hash (1.5 ms
 *   for that page): for a page read by name while the vehicle fits more than the bound by fitment (`SetSummary.
 *   dense`), so that most parts read are its own. A vehicle with few fitments is still hashed: over the bound only
 *   by the universal parts, its page may read hundreds of parts by name before 20 fit (583 ms asked each).
 * The planner cannot turn one into the other, so the code chooses (catalogPage.ts).
 */
export type VehicleWay = 'fromVehicle' | 'probe' | 'probeEach';

/**
 * The condition a part (the table or alias `alias`, a name of this code, never input) meets to be in `set`:
 * - listed: a replaced part is left out once it has no stock (docs/catalog.md, "Replaced parts"), though its
 *   numbers still find its replacement;
 * - with a vehicle: a fitment row for it, or universal (read as `way` says);
 * - the category and those below it, the brand, in stock;
 * - a search: every word in name or description (parts_search_trgm_idx), as written or, for a search whose words
 *   as written match nothing, typo-tolerant (`holdsWord`); or one of the parts its number found.
 */
export function inPartSet(
  alias: string,
  set: PartSet,
  { categoryIds = set.categoryIds, way = 'fromVehicle' }: { categoryIds?: string[] | null; way?: VehicleWay } = {},
): SQL {
  const p = sql.raw(alias);
  const conditions: SQL[] = [sql`(${p}.replaced_by_id is null or ${p}.available > 0)`];
  const inCategories = (column: SQL) => (categoryIds ? sql` and ${column} in (${idList(categoryIds)})` : sql``);
  if (set.vehicleId && way === 'fromVehicle') {
    conditions.push(sql`${p}.id in (
      select fit.part_id from fitments fit where fit.vehicle_id = ${set.vehicleId}::uuid${inCategories(sql.raw('fit.category_id'))}
      union all
      select univ.id from parts univ where univ.universal${inCategories(sql.raw('univ.category_id'))})`);
  } else {
    if (set.vehicleId && way === 'probeEach') {
      conditions.push(sql`(${p}.universal or coalesce((select true from fitments fit
        where fit.vehicle_id = ${set.vehicleId}::uuid and fit.part_id = ${p}.id limit 1), false))`);
    } else if (set.vehicleId) {
      conditions.push(sql`(${p}.universal or exists (select 1 from fitments fit
        where fit.vehicle_id = ${set.vehicleId}::uuid and fit.part_id = ${p}.id))`);
    }
    if (categoryIds) conditions.push(sql`${p}.category_id in (${idList(categoryIds)})`);
  }
  if (set.brandId) conditions.push(sql`${p}.brand_id = ${set.brandId}::uuid`);
  if (set.inStock) conditions.push(sql`${p}.available > 0`);
  if (set.search) {
    const { words, numberIds, typos } = set.search;
    const matched: SQL[] = [];
    if (words.length) {
      matched.push(
        sql`(${sql.join(
          words.map((word) => holdsWord(searchDocument(alias), word, typos)),
          sql` and `,
        )})`,
      );
    }
    if (numberIds.length) matched.push(sql`${p}.id in (${idList(numberIds)})`);
    conditions.push(matched.length ? sql`(${sql.join(matched, sql` or `)})` : sql`false`);
  }
  return sql.join(conditions, sql` and `);
}

/**
 * The parts of a vehicle's set when browsing (no search), for counting up to `limit`: its fitments read in the
 * order of fitments_pkey (or by fitments_vehicle_category_idx with a category), each part once and looked up by
 * its key with the set's other conditions, then its universal parts. It streams: a bound stops it after that many
 * parts, where `fromVehicle` reads all the vehicle's fitments first (26 ms for the busiest bike's first 1,001
 * parts at 200,000 parts; 5-8 ms this way). Columns: id, category_id, brand_id, available, and `fitted` (read by
 * a fitment, not as universal).
 */
function vehicleParts(set: PartSet & { vehicleId: string }, limit: number): SQL {
  const others = inPartSet('p', { ...set, vehicleId: null, search: null });
  const inCategories = set.categoryIds ? sql` and fit.category_id in (${idList(set.categoryIds)})` : sql``;
  return sql`(select p.id, p.category_id, p.brand_id, p.available, true as fitted
      from (select distinct fit.part_id from fitments fit where fit.vehicle_id = ${set.vehicleId}::uuid${inCategories}) f
      cross join lateral (select p.id, p.category_id, p.brand_id, p.available from parts p
                          where p.id = f.part_id and not p.universal and ${others} offset 0) p
      limit ${limit})
    union all
    (select p.id, p.category_id, p.brand_id, p.available, false from parts p where p.universal and ${others}
     limit ${limit})`;
}

/** At most `limit` parts of the set (`way` for a search's vehicle): the rows `summarise` and the counts read. */
function partsOf(set: PartSet, way: VehicleWay, limit: number): SQL {
  return set.vehicleId && !set.search
    ? sql`select * from (${vehicleParts({ ...set, vehicleId: set.vehicleId }, limit)}) v limit ${limit}`
    : sql`select parts.id, parts.category_id, parts.brand_id, parts.available, false as fitted from parts
          where ${inPartSet('parts', set, { way })} limit ${limit}`;
}

/** A page of the set by name (browsing). */
export function browsePage(db: DbOrTx, set: PartSet, bounds: Page, way: VehicleWay): Promise<PartRow[]> {
  return db
    .select()
    .from(parts)
    .where(inPartSet('parts', set, { way }))
    .orderBy(asc(parts.name), asc(parts.id))
    .limit(bounds.limit)
    .offset(bounds.offset);
}

/** A count as the catalog answers it. */
export interface BoundedCount {
  count: number;
  /** True when counting stopped at the bound: there are more. */
  isLowerBound: boolean;
  /** "42", "1,000+". */
  text: string;
}

const bounded = (read: number, exact = read <= catalogCountBound): BoundedCount => {
  const count = Math.min(read, catalogCountBound);
  const isLowerBound = !exact || read > catalogCountBound;
  return { count, isLowerBound, text: catalogCountText(count, isLowerBound) };
};

/** The total and the first read of the facets: the set's first `catalogCountBound` + 1 parts, counted by value. */
export interface SetSummary {
  total: BoundedCount;
  /** A vehicle's set (browsing) whose first read was all fitted parts: the vehicle fits more than the bound. */
  dense: boolean;
  inStock: number;
  byCategory: Map<string | null, number>;
  byBrand: Map<string | null, number>;
  /**
   * With `withIds`, the set's parts when it is within the bound (read whole), else null: a search ranks these
   * instead of reading its matches again (catalogSearch.ts, `searchPage`).
   */
  ids: string[] | null;
}

const pairs = (json: string) => new Map(JSON.parse(json ?? '[]') as [string | null, number][]);

export async function summarise(db: DbOrTx, set: PartSet, way: VehicleWay, withIds = false): Promise<SetSummary> {
  const [row] = await rowsOf<{
    total: number;
    fitted: number;
    in_stock: number;
    categories: string;
    brands: string;
    ids: string | null;
  }>(
    db,
    sql`with m as (
      select s.id, s.category_id, s.brand_id, s.available > 0 as in_stock, s.fitted
      from (${partsOf(set, way, catalogCountBound + 1)}) s)
    select count(*)::int as total, (count(*) filter (where fitted))::int as fitted,
      ${
        withIds
          ? sql`case when count(*) <= ${catalogCountBound} then coalesce((select json_agg(id) from m), '[]')::text end`
          : sql`null`
      } as ids,
      (count(*) filter (where in_stock))::int as in_stock,
      coalesce((select json_agg(json_build_array(category_id, n))::text
        from (select category_id, count(*)::int as n from m group by category_id) c), '[]') as categories,
      coalesce((select json_agg(json_build_array(brand_id, n))::text
        from (select brand_id, count(*)::int as n from m group by brand_id) b), '[]') as brands
    from m limit ${1}`,
  );
  return {
    total: bounded(row.total),
    dense: row.fitted > catalogCountBound,
    inStock: row.in_stock,
    byCategory: pairs(row.categories),
    byBrand: pairs(row.brands),
    ids: row.ids === null ? null : (JSON.parse(row.ids) as string[]),
  };
}

export interface CategoryFacetView extends BoundedCount {
  category: CategoryRow;
}
export interface BrandFacetView extends BoundedCount {
  brand: BrandRow;
}
export interface CatalogFacetsView {
  /** The categories one level below the chosen one (the top ones when none is), each counting all below it. */
  categories: CategoryFacetView[];
  /** The brands of the parts, the most common first. */
  brands: BrandFacetView[];
  /**
   * False when the set is over the bound and some counts are those of its first 1,001 parts read (lower bounds,
   * and a value may be missing): the brands always then, and for a search every facet.
   */
  complete: boolean;
  inStock: BoundedCount;
}

/**
 * The facets of a set: categories, brands and stock, each count exact up to the bound. A set within the bound
 * is counted whole by `summarise` (one statement). Over it, when browsing, each category and the stock are counted
 * again on their own up to the bound (one statement of bounded subqueries, each read by an index of its own: at
 * most `facetValueLimit` + 1 times 1,001 parts), and the brands stay those of the first read. A vehicle's
 * categories (with no brand or stock chosen) are read from the precomputed counts instead (`catalog_counts`: the
 * vehicle's rows and the universal parts', summed over each facet's subtree): exact, whatever their size. A search
 * over the bound is not counted again (each count would read the trigram index anew): its facets are those of the
 * first read, each a lower bound.
 */
export async function facetsOf(
  db: DbOrTx,
  set: PartSet,
  summary: SetSummary,
  chosen: CategoryRow | null,
  knownTree: CategoryTree | null,
): Promise<CatalogFacetsView> {
  const tree = knownTree ?? (await loadCategoryTree(db));
  const facetCategories = tree.children(chosen?.id ?? null).slice(0, facetValueLimit);
  const exact = !summary.total.isLowerBound;
  const fromFirstRead = exact || set.search !== null;

  let categoryCounts = new Map<string, number>();
  let inStock = set.inStock ? summary.total : bounded(summary.inStock, exact);
  if (fromFirstRead) {
    // Each part's category counts for the facet category above it.
    const facetOf = new Map<string, string>();
    for (const facet of facetCategories) for (const id of tree.subtree(facet.id)) facetOf.set(id, facet.id);
    for (const [categoryId, n] of summary.byCategory) {
      const facet = categoryId ? facetOf.get(categoryId) : undefined;
      if (facet) categoryCounts.set(facet, (categoryCounts.get(facet) ?? 0) + n);
    }
  } else {
    const countOf = (counted: PartSet) =>
      sql`(select count(*)::int from (${partsOf(counted, 'fromVehicle', catalogCountBound + 1)}) s)`;
    // A vehicle's categories, nothing else chosen (but a category): its precomputed counts (one statement).
    const precounted = set.vehicleId !== null && set.brandId === null && !set.inStock && facetCategories.length > 0;
    const subtreeIds = precounted ? facetCategories.flatMap((facet) => tree.subtree(facet.id)) : [];
    const counted = precounted
      ? [
          sql`(select category_id as id, sum(parts)::int as n from catalog_counts
               where vehicle_id in (${set.vehicleId}::uuid, ${noKey}::uuid) and category_id in (${idList(subtreeIds)})
               group by category_id)`,
        ]
      : facetCategories.map(
          (facet) =>
            sql`(select ${facet.id}::uuid as id, ${countOf({ ...set, categoryIds: tree.subtree(facet.id) })} as n)`,
        );
    const branches = [
      ...(set.inStock ? [] : [sql`(select null::uuid as id, ${countOf({ ...set, inStock: true })} as n)`]),
      ...counted,
    ];
    const most = (set.inStock ? 0 : 1) + (precounted ? subtreeIds.length : facetCategories.length);
    const rows = branches.length
      ? await rowsOf<{ id: string | null; n: number }>(db, sql`${sql.join(branches, sql` union all `)} limit ${most}`)
      : [];
    const byCategory = new Map(rows.filter((r) => r.id !== null).map((r) => [r.id as string, r.n]));
    categoryCounts = precounted
      ? new Map(
          facetCategories.map((facet) => [
            facet.id,
            tree.subtree(facet.id).reduce((sum, id) => sum + (byCategory.get(id) ?? 0), 0),
          ]),
        )
      : byCategory;
    if (!set.inStock) inStock = bounded(rows.find((r) => r.id === null)?.n ?? 0);
  }
  // Counted from the first read of a set over the bound: each is a lower bound.
  const facetCount = (n: number) => (fromFirstRead ? bounded(n, exact) : bounded(n));

  const categories = facetCategories
    .filter((category) => (categoryCounts.get(category.id) ?? 0) > 0)
    .map((category) => ({ category, ...facetCount(categoryCounts.get(category.id) ?? 0) }));

  const brandCounts = [...summary.byBrand].filter((entry): entry is [string, number] => entry[0] !== null);
  const brandRows = brandCounts.length
    ? await db
        .select()
        .from(brands)
        .where(
          inArray(
            brands.id,
            brandCounts.map(([id]) => id),
          ),
        )
        .limit(brandCounts.length)
    : [];
  const brandById = new Map(brandRows.map((brand) => [brand.id, brand]));
  const brandFacets = brandCounts
    .filter(([id]) => brandById.has(id))
    .map(([id, n]) => ({ brand: brandById.get(id) as BrandRow, ...bounded(n, exact) }))
    .sort((a, b) => b.count - a.count || a.brand.name.localeCompare(b.brand.name))
    .slice(0, facetValueLimit);

  return { categories, brands: brandFacets, complete: exact, inStock };
}
