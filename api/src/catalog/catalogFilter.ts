import { checkCatalogSearch, normalisePartNumber, partNumberMaxLength } from '@partsyard/common';
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../db/database';
import { badInput } from '../errors';
import { isId } from '../services/paging';
import { brands, categories, vehicles, type BrandRow, type CategoryRow } from './catalogSchema';
import { catalogListCap } from './catalogLists';
import { toVehicleView, vehiclesJoined, type VehicleView } from './vehicleNames';

/** The catalog's filter as a caller gives it (GraphQL `CatalogFilter`; the REST shim's query parameters). */
export interface CatalogFilterInput {
  vehicleId?: string | null;
  categoryId?: string | null;
  brandId?: string | null;
  inStock?: boolean | null;
  search?: string | null;
}

/** A search, read: the text as typed (tidied), the words names and descriptions are matched by, and the number. */
export interface SearchText {
  text: string;
  /** Lower-case words of two characters or more that make trigrams (docs/catalog.md, "Search"), each once. */
  words: string[];
  /** Whether the text can be a part number (then the look-up by number runs first). */
  mayBeNumber: boolean;
}

/** The category tree, loaded once per request where a filter or a facet needs it. */
export interface CategoryTree {
  byId: Map<string, CategoryRow>;
  children(id: string | null): CategoryRow[];
  /** `id` and every category below it. */
  subtree(id: string): string[];
}

/** A checked filter: every id names a row, the search is read. */
export interface CatalogFilter {
  vehicle: VehicleView | null;
  category: CategoryRow | null;
  /** The chosen category and those below it; null for every category. */
  categoryIds: string[] | null;
  brand: BrandRow | null;
  inStock: boolean;
  search: SearchText | null;
  /** The tree, when it was needed (a category chosen); the facets load it otherwise. */
  tree: CategoryTree | null;
}

export async function loadCategoryTree(db: DbOrTx): Promise<CategoryTree> {
  const rows = await db.select().from(categories).orderBy(asc(categories.name)).limit(catalogListCap);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const byParent = new Map<string | null, CategoryRow[]>();
  for (const row of rows) {
    // A category whose parent is beyond the cap (or missing) stands at the top.
    const parent = row.parentId !== null && byId.has(row.parentId) ? row.parentId : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), row]);
  }
  const children = (id: string | null) => byParent.get(id) ?? [];
  const subtree = (id: string) => {
    const ids: string[] = [];
    const seen = new Set<string>();
    const walk = (at: string) => {
      if (seen.has(at)) return; // the tree cannot loop (a category is never its own parent), but stay safe
      seen.add(at);
      ids.push(at);
      for (const child of children(at)) walk(child.id);
    };
    walk(id);
    return ids;
  };
  return { byId, children, subtree };
}

/** ASCII letters and digits always make trigrams; other characters only where the database's locale says so. */
const asciiWord = /[a-z0-9]/;
const onlyAscii = /^[\x20-\x7e]*$/;

/** Reads the search text (BAD_USER_INPUT `search` for what cannot be searched). Null: no search. */
export async function readSearch(db: DbOrTx, input: unknown): Promise<SearchText | null> {
  const checked = checkCatalogSearch(input);
  if (!checked.ok) throw badInput({ search: checked.error });
  if (!checked.text) return null;
  const words = [...new Set(checked.words.filter((word) => [...word].length >= 2))];
  const sure = words.filter((word) => asciiWord.test(word));
  // A word without ASCII letters or digits makes trigrams only if the database's locale reads its characters as
  // letters (`ñandú`, `中文` on a UTF-8 locale; never `%%` or an emoji): one without any could not use the trigram
  // index, so it is asked first, and left out.
  const unsure = words.filter((word) => !asciiWord.test(word) && !onlyAscii.test(word));
  let kept = sure;
  if (unsure.length) {
    const rows = await rowsOf<{ w: string }>(
      db,
      sql`select w from (values ${sql.join(
        unsure.map((word) => sql`(${word}::text)`),
        sql`, `,
      )}) as v(w) where cardinality(show_trgm(w)) > 0 limit ${unsure.length}`,
    );
    const makesTrigrams = new Set(rows.map((row) => row.w));
    kept = words.filter((word) => sure.includes(word) || makesTrigrams.has(word));
  }
  const number = normalisePartNumber(checked.text);
  return {
    text: checked.text,
    words: kept,
    mayBeNumber: number.length > 0 && checked.text.length <= partNumberMaxLength,
  };
}

const unknown = (field: keyof CatalogFilterInput, what: string) => badInput({ [field]: `No such ${what}` });

/**
 * Checks a filter: an id that names no row (or is no id) is BAD_USER_INPUT on its field ("No such vehicle"), so a
 * shared address whose vehicle was since removed says so instead of listing everything.
 */
export async function checkFilter(db: DbOrTx, input: CatalogFilterInput | null | undefined): Promise<CatalogFilter> {
  const given = input ?? {};
  const idOf = (field: 'vehicleId' | 'categoryId' | 'brandId', what: string) => {
    const id = given[field];
    if (id === null || id === undefined || id === '') return null;
    if (typeof id !== 'string' || !isId(id)) throw unknown(field, what);
    return id;
  };
  const vehicleId = idOf('vehicleId', 'vehicle');
  const categoryId = idOf('categoryId', 'category');
  const brandId = idOf('brandId', 'brand');
  if (given.inStock !== null && given.inStock !== undefined && typeof given.inStock !== 'boolean') {
    throw badInput({ inStock: 'Must be true or false' });
  }
  const search = await readSearch(db, given.search);

  const [vehicle, tree, brand] = await Promise.all([
    vehicleId ? vehiclesJoined(db).where(eq(vehicles.id, vehicleId)) : null,
    categoryId ? loadCategoryTree(db) : null,
    brandId ? db.select().from(brands).where(eq(brands.id, brandId)) : null,
  ]);
  if (vehicle && !vehicle.length) throw unknown('vehicleId', 'vehicle');
  if (brand && !brand.length) throw unknown('brandId', 'brand');
  const category = categoryId && tree ? (tree.byId.get(categoryId) ?? null) : null;
  if (categoryId && !category) throw unknown('categoryId', 'category');
  return {
    vehicle: vehicle ? toVehicleView(vehicle[0]) : null,
    category,
    categoryIds: category && tree ? tree.subtree(category.id) : null,
    brand: brand?.[0] ?? null,
    inStock: given.inStock === true,
    search,
    tree,
  };
}

/** `in (...)` of uuids, each a parameter. */
export const idList = (ids: string[]): SQL =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
