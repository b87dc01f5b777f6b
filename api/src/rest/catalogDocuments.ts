import type { Request } from 'express';
import type { CatalogFilterInput } from '../catalog/catalogFilter';
import type { CatalogPageView } from '../catalog/catalogPage';
import type { BoundedCount } from '../catalog/catalogQuery';
import type { VehicleView } from '../catalog/vehicleNames';
import { AppError, badInput } from '../errors';
import type { Services } from '../services';
import { isId } from '../services/paging';
import { catalogPartDocument } from './documents';
import { optionalInt, query } from './queryParams';

/** The REST parameters of the catalog, and the fields of the service's filter they stand for. */
const parameterOf: Record<string, string> = {
  vehicleId: 'vehicle',
  categoryId: 'category',
  brandId: 'brand',
  inStock: 'inStock',
  search: 'q',
};

/** The service's refusal, its fields named as the REST parameters (`vehicle` for `vehicleId`...). */
function asParameters(error: unknown): unknown {
  if (!(error instanceof AppError) || error.code !== 'BAD_USER_INPUT' || !error.fields) return error;
  const fields = Object.fromEntries(Object.entries(error.fields).map(([k, v]) => [parameterOf[k] ?? k, v]));
  return badInput(fields);
}

const booleanOf = (value: string | undefined): boolean | undefined => {
  if (value === undefined || value === '') return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw badInput({ inStock: 'Must be true or false' });
};

/**
 * The catalog for `GET /api/catalog` and `GET /api/search`: `vehicle` (an id), `category` and `brand` (an id or an
 * address name), `inStock`, `q`, `offset`, `limit` (default 20, at most 100).
 */
export async function catalogOf(
  req: Request,
  services: Services,
  { facets }: { facets: boolean },
): Promise<CatalogPageView> {
  try {
    const offset = optionalInt(query(req, 'offset'), 'offset');
    const limit = optionalInt(query(req, 'limit'), 'limit');
    const bySlug = async (
      given: string | undefined,
      field: 'categoryId' | 'brandId',
      find: (slug: string) => Promise<{ id: string } | null>,
      what: string,
    ) => {
      if (!given || isId(given)) return given;
      const found = await find(given);
      if (!found) throw badInput({ [field]: `No such ${what}` });
      return found.id;
    };
    const filter: CatalogFilterInput = {
      vehicleId: query(req, 'vehicle'),
      categoryId: await bySlug(query(req, 'category'), 'categoryId', services.catalog.categoryBySlug, 'category'),
      brandId: await bySlug(query(req, 'brand'), 'brandId', services.catalog.brandBySlug, 'brand'),
      inStock: booleanOf(query(req, 'inStock')),
      search: query(req, 'q'),
    };
    const page = await services.catalog.catalog(filter, { offset, limit });
    // Read here, so that a refusal of the counts is named as parameters too.
    await Promise.all([page.total(), facets ? page.facets() : null]);
    return page;
  } catch (error) {
    throw asParameters(error);
  }
}

const countDocument = (count: BoundedCount) => ({
  count: count.count,
  isLowerBound: count.isLowerBound,
  text: count.text,
});

const vehicleDocument = (v: VehicleView) => ({
  _id: v.id,
  name: v.name,
  make: { _id: v.make.id, name: v.make.name, slug: v.make.slug },
  model: { _id: v.model.id, name: v.model.name, slug: v.model.slug },
  year: v.year,
  variant: v.variant,
  variantSlug: v.variantSlug,
});

/** A catalog page in the shim's shapes (`_id`, prices in dollars); the search leaves the facets out. */
export async function catalogDocument(page: CatalogPageView, { facets }: { facets: boolean }) {
  const total = await page.total();
  const items = await Promise.all(
    page.items.map(async (item) => ({
      part: catalogPartDocument(item.part),
      universal: item.universal,
      fit: await item.fit(),
      match: item.match,
      reason: item.reason,
      replaces: item.replaces && catalogPartDocument(item.replaces),
    })),
  );
  const facetDocument = async () => {
    const found = await page.facets();
    return {
      categories: found.categories.map((f) => ({
        _id: f.category.id,
        name: f.category.name,
        slug: f.category.slug,
        ...countDocument(f),
      })),
      brands: found.brands.map((f) => ({
        _id: f.brand.id,
        name: f.brand.name,
        slug: f.brand.slug,
        ...countDocument(f),
      })),
      complete: found.complete,
      inStock: countDocument(found.inStock),
    };
  };
  return {
    items,
    total: total.count,
    totalIsLowerBound: total.isLowerBound,
    totalText: total.text,
    offset: page.offset,
    limit: page.limit,
    vehicle: page.vehicle && vehicleDocument(page.vehicle),
    limitedToVehicle: page.vehicle !== null,
    search: page.search,
    ...(facets ? { facets: await facetDocument() } : {}),
  };
}
