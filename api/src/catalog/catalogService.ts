import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { escapeLike } from '../db/likePattern';
import { parts, type PartRow } from '../db/schema';
import { badInput, notFound } from '../errors';
import type { Actor } from '../services/actor';
import { isId, page, pageWithTotal } from '../services/paging';
import { authorize } from '../services/rights';
import { brands, categories, makes, models, vehicles, type VehicleRow } from './catalogSchema';
import { catalogListCap } from './catalogLists';
import { partsByNumber } from './numberLookup';
import { createPartEditing } from './partEditing';
import { createReferenceData } from './referenceData';
import { fitments, partNumbers, type FitmentRow } from './partLinksSchema';
import { resolveCurrent, setReplacement } from './supersession';
import { fitVerdicts, type Fits } from './fitVerdicts';
import { toVehicleView, vehiclesJoined, type VehicleView } from './vehicleNames';
import type { CatalogFilterInput } from './catalogFilter';
import { catalogPage } from './catalogPage';

/**
 * Text that may be an address name (a slug): up to 200 characters without control characters. Anything else names
 * nothing, and is not asked of the database (which cannot hold a NUL in text).
 */
const isSlug = (text: unknown): text is string =>
  typeof text === 'string' && text.length > 0 && text.length <= 200 && !/\p{Cc}/u.test(text);

/** Page sizes of a part's fitment list (the bikes it fits). */
export const fitmentPageSizes = { fallback: 20, max: 100 } as const;
export { catalogListCap };

/** A fitment row with its vehicle named. */
export type FitmentView = FitmentRow & { vehicle: VehicleView };

const bySearchText = (search: string | null | undefined) => {
  const text = (search ?? '').trim().toLowerCase();
  if (text.length > 100) throw badInput({ search: 'Search at most 100 characters' });
  if (!text) return undefined;
  const words = sql`lower(${makes.name} || ' ' || ${models.name} || ' ' || ${vehicles.year} || ' ' || ${vehicles.variant})`;
  return sql`${words} like ${`%${escapeLike(text)}%`}`;
};

/**
 * The catalog (issue 33): brands, categories, vehicles, a part's numbers and fitment, look-up by number, and
 * supersession. Every read is public (services/rights.ts); the tables are in this folder.
 */
export function createCatalogService(db: Db) {
  async function vehicle(id: string): Promise<VehicleView> {
    if (!isId(id)) throw notFound('Vehicle');
    const [row] = await vehiclesJoined(db).where(eq(vehicles.id, id));
    if (!row) throw notFound('Vehicle');
    return toVehicleView(row);
  }

  return {
    brands: () => db.select().from(brands).orderBy(asc(brands.name)).limit(catalogListCap),
    categories: () => db.select().from(categories).orderBy(asc(categories.name)).limit(catalogListCap),
    makes: () => db.select().from(makes).orderBy(asc(makes.name)).limit(catalogListCap),
    models: (makeId: string) =>
      isId(makeId)
        ? db.select().from(models).where(eq(models.makeId, makeId)).orderBy(asc(models.name)).limit(catalogListCap)
        : Promise.resolve([]),
    /** The vehicles of a model, newest year first, optionally of one year. */
    async vehicles(modelId: string, year?: number | null): Promise<VehicleView[]> {
      if (!isId(modelId)) return [];
      if (year != null && !(Number.isInteger(year) && year >= 1885 && year <= 2100)) {
        throw badInput({ year: 'Must be a year from 1885 to 2100' });
      }
      const rows = await vehiclesJoined(db)
        .where(and(eq(vehicles.modelId, modelId), year == null ? undefined : eq(vehicles.year, year)))
        .orderBy(desc(vehicles.year), asc(vehicles.variant))
        .limit(catalogListCap);
      return rows.map(toVehicleView);
    },
    vehicle,

    brand: async (id: string | null) =>
      id ? ((await db.select().from(brands).where(eq(brands.id, id)))[0] ?? null) : null,
    make: async (id: string) => {
      const [make] = await db.select().from(makes).where(eq(makes.id, id));
      if (!make) throw notFound('Make');
      return make;
    },
    category: async (id: string | null) =>
      id ? ((await db.select().from(categories).where(eq(categories.id, id)))[0] ?? null) : null,
    childCategories: (id: string) =>
      db.select().from(categories).where(eq(categories.parentId, id)).orderBy(asc(categories.name)),
    part: async (id: string | null): Promise<PartRow | null> =>
      id ? ((await db.select().from(parts).where(eq(parts.id, id)))[0] ?? null) : null,

    /** A part's numbers (besides its SKU), by kind and number. */
    numbers: (partId: string) =>
      db
        .select()
        .from(partNumbers)
        .where(eq(partNumbers.partId, partId))
        .orderBy(asc(partNumbers.kind), asc(partNumbers.normalised)),

    /** Whether a part fits a vehicle, in words: universal parts fit any; a fitment's note is said. */
    async fits(part: PartRow, vehicleId: string): Promise<Fits> {
      const bike = await vehicle(vehicleId);
      return (await fitVerdicts(db, bike, [part])).get(part.id) as Fits;
    },

    /** The vehicles a part fits, paged, optionally searched by make, model, year or variant. */
    async fitment(partId: string, args: { offset?: number | null; limit?: number | null; search?: string | null }) {
      const bounds = page(args.offset, args.limit, fitmentPageSizes);
      const where = and(eq(fitments.partId, partId), bySearchText(args.search));
      const found = await pageWithTotal(
        bounds,
        async () =>
          (
            await db
              .select({ fitment: fitments, vehicle: vehicles, model: models, make: makes })
              .from(fitments)
              .innerJoin(vehicles, eq(vehicles.id, fitments.vehicleId))
              .innerJoin(models, eq(models.id, vehicles.modelId))
              .innerJoin(makes, eq(makes.id, models.makeId))
              .where(where)
              .orderBy(asc(makes.name), asc(models.name), desc(vehicles.year), asc(vehicles.variant))
              .offset(bounds.offset)
              .limit(bounds.limit)
          ).map((row) => ({ ...row.fitment, vehicle: toVehicleView(row as { vehicle: VehicleRow } & typeof row) })),
        async () => {
          const [counted] = await db
            .select({ n: count() })
            .from(fitments)
            .innerJoin(vehicles, eq(vehicles.id, fitments.vehicleId))
            .innerJoin(models, eq(models.id, vehicles.modelId))
            .innerJoin(makes, eq(makes.id, models.makeId))
            .where(where);
          return counted?.n ?? 0;
        },
      );
      return { ...found, ...bounds };
    },

    /** The catalog: a page of parts for a filter, with its total and facets when asked (catalogPage.ts). */
    catalog: (filter: CatalogFilterInput | null | undefined, args: { offset?: number | null; limit?: number | null }) =>
      catalogPage(db, filter, args),

    /** The address names of the categories (by name in addresses), at most `limit`: their pages, for the sitemap. */
    categoriesForSitemap: async (limit: number): Promise<{ slug: string }[]> =>
      db.select({ slug: categories.slug }).from(categories).orderBy(asc(categories.slug)).limit(limit),
    /** A category by its address name, or null. */
    categoryBySlug: async (slug: string) =>
      isSlug(slug) ? ((await db.select().from(categories).where(eq(categories.slug, slug)))[0] ?? null) : null,
    /** A brand by its address name, or null. */
    brandBySlug: async (slug: string) =>
      isSlug(slug) ? ((await db.select().from(brands).where(eq(brands.slug, slug)))[0] ?? null) : null,
    /** A vehicle by id, or null. */
    vehicleOrNull: async (id: string) => {
      if (!isId(id)) return null;
      const [row] = await vehiclesJoined(db).where(eq(vehicles.id, id));
      return row ? toVehicleView(row) : null;
    },
    /** A vehicle by its address: make, model, year and variant ('' or none for the base vehicle); or null. */
    async vehicleBySlugs(args: { make: string; model: string; year: number; variant?: string | null }) {
      if (!(Number.isInteger(args.year) && args.year >= 1885 && args.year <= 2100)) {
        throw badInput({ year: 'Must be a year from 1885 to 2100' });
      }
      const variant = args.variant ?? '';
      if (!isSlug(args.make) || !isSlug(args.model) || (variant !== '' && !isSlug(variant))) return null;
      const rows = await vehiclesJoined(db)
        .where(and(eq(makes.slug, args.make), eq(models.slug, args.model), eq(vehicles.year, args.year)))
        .orderBy(asc(vehicles.variant))
        .limit(catalogListCap);
      return rows.map(toVehicleView).find((v) => v.variantSlug === variant) ?? null;
    },

    /** Parts by number: exact, then prefix, each with why it matched (catalog/numberLookup.ts). */
    partsByNumber: (number: unknown) => partsByNumber(db, number),
    resolveCurrent: (partId: string) => resolveCurrent(db, partId),
    /** Says which part replaces a part (admin); a loop is refused with the parts named. */
    async setReplacement(actor: Actor | null, partId: string, replacedById: string | null) {
      authorize('catalog.setReplacement', actor);
      await setReplacement(db, partId, replacedById);
    },
    /** Editing a part: every field but its stock (partEditing.ts). */
    ...createPartEditing(db),
    /** Brands, categories, makes, models and vehicles as admins keep them (referenceData.ts). */
    ...createReferenceData(db),
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
