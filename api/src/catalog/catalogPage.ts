import type { DbOrTx } from '../db/database';
import { page } from '../services/paging';
import { checkFilter, type CatalogFilterInput } from './catalogFilter';
import {
  browsePage,
  catalogPageSizes,
  facetsOf,
  partSetOf,
  summarise,
  type BoundedCount,
  type CatalogFacetsView,
  type SetSummary,
  type VehicleWay,
} from './catalogQuery';
import { searchPage, searchSet, type CatalogItem } from './catalogSearch';
import { fitVerdicts, type Fits } from './fitVerdicts';
import type { VehicleView } from './vehicleNames';

/** A catalog item with, for the filter's vehicle, whether it fits (null without a vehicle). */
export interface CatalogItemView extends CatalogItem {
  universal: boolean;
  fit(): Promise<Fits | null>;
}

/**
 * One page of the catalog (GraphQL `CatalogPage`). Its items are read at once; the total and the facets only when
 * asked (`summary`, `facets`: the search box's quick results need neither), each once however often asked.
 */
export interface CatalogPageView {
  items: CatalogItemView[];
  offset: number;
  limit: number;
  /** The filter's vehicle: the list holds only what fits it (and universal parts). */
  vehicle: VehicleView | null;
  /** The search as read (tidied), or null when browsing. */
  search: string | null;
  summary(): Promise<SetSummary>;
  total(): Promise<BoundedCount>;
  facets(): Promise<CatalogFacetsView>;
}

const once = <T>(make: () => Promise<T>) => {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
};

/**
 * The catalog: the parts a filter lets in (a vehicle's, with universal ones; a category with those below it; a
 * brand; in stock; a search), a page of them (by name, or best match first for a search), their total and facets.
 * Bad page bounds are refused before anything is read; every id must name a row (checkFilter).
 */
export async function catalogPage(
  db: DbOrTx,
  input: CatalogFilterInput | null | undefined,
  args: { offset?: number | null; limit?: number | null },
): Promise<CatalogPageView> {
  const bounds = page(args.offset, args.limit, catalogPageSizes);
  const filter = await checkFilter(db, input);
  const searched = filter.search ? await searchSet(db, filter, filter.search) : null;
  const set = searched?.set ?? partSetOf(filter);
  // A search's indexes lead, each part asked whether it fits the vehicle; browsing reads the vehicle's parts,
  // unless they are over the bound (the busiest bikes): its page is then read by name, each part asked (on its
  // own when the vehicle fits more than the bound by fitment: catalogQuery.ts, VehicleWay).
  const known = searched?.summary;
  const summary = once(async () => known ?? summarise(db, set, searched ? 'probe' : 'fromVehicle'));
  let found: CatalogItem[];
  if (filter.search && searched) found = await searchPage(db, filter.search, searched, bounds);
  else {
    const { total, dense } = await summary();
    const way: VehicleWay = filter.vehicle && total.isLowerBound ? (dense ? 'probeEach' : 'probe') : 'fromVehicle';
    found = (await browsePage(db, set, bounds, way)).map((part) => ({
      part,
      match: null,
      reason: null,
      replaces: null,
    }));
  }

  const bike = filter.vehicle;
  const verdicts = once(async () =>
    bike
      ? fitVerdicts(
          db,
          bike,
          found.map((item) => item.part),
        )
      : null,
  );
  return {
    items: found.map((item) => ({
      ...item,
      universal: item.part.universal,
      fit: async () => (await verdicts())?.get(item.part.id) ?? null,
    })),
    ...bounds,
    vehicle: bike,
    search: filter.search?.text ?? null,
    summary,
    total: async () => (await summary()).total,
    facets: once(async () => facetsOf(db, set, await summary(), filter.category, filter.tree)),
  };
}
