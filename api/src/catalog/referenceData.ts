import { controlCharacters, unpairedSurrogate, type FieldErrors } from '@partsyard/common';
import { and, eq, ne, sql } from 'drizzle-orm';
import { rowsOf, sqlState, violatedConstraint, type Db, type DbOrTx } from '../db/database';
import { badInput, notFound } from '../errors';
import type { Actor } from '../services/actor';
import { isId } from '../services/paging';
import { authorize } from '../services/rights';
import {
  brands,
  categories,
  makes,
  models,
  vehicles,
  type BrandRow,
  type CategoryRow,
  type MakeRow,
  type ModelRow,
} from './catalogSchema';
import { toVehicleView, vehiclesJoined, type VehicleView } from './vehicleNames';

/** The longest name of a brand, category, make, model, and of a vehicle's variant. */
export const referenceNameMaxLength = 100;
/** How deep the category tree may go (a loop is refused long before; this bounds the walk up the tree). */
export const maxCategoryDepth = 20;

export const referenceMessages = {
  nameRequired: 'Enter a name',
  nameTooLong: `Must be ${referenceNameMaxLength} characters or fewer`,
  notText: 'Must be text',
  controlCharacters: 'Must not contain control characters',
  brandTaken: (name: string) => `A brand named ${name} exists already`,
  categoryTaken: (name: string, parent: string | null) =>
    parent ? `${parent} has a category named ${name} already` : `A top category named ${name} exists already`,
  makeTaken: (name: string) => `A make named ${name} exists already`,
  modelTaken: (name: string, make: string) => `${make} has a model named ${name} already`,
  vehicleTaken: (name: string) => `${name} exists already`,
  noSuchCategory: 'No category has this id',
  noSuchMake: 'No make has this id',
  noSuchModel: 'No model has this id',
  year: 'Must be a year from 1885 to 2100',
  categoryLoop: (category: string, parent: string) =>
    `${category} cannot go under ${parent}: ${parent} is inside ${category}, so the tree would go round in a circle`,
  categoryUnderItself: (category: string) => `${category} cannot go under itself`,
  tooDeep: `The category tree may be at most ${maxCategoryDepth} levels deep`,
} as const;

/** A name as sent: trimmed text of 1 to 100 characters, no control characters; a message per problem. */
function checkedName(value: unknown, field = 'name', errors: FieldErrors = {}, { optional = false } = {}): string {
  if (typeof value !== 'string') {
    errors[field] = referenceMessages.notText;
    return '';
  }
  const name = value.trim().replace(/\s+/g, ' ');
  if (!name && !optional) errors[field] = referenceMessages.nameRequired;
  else if (name.length > referenceNameMaxLength) errors[field] = referenceMessages.nameTooLong;
  else if (controlCharacters.test(name) || unpairedSurrogate.test(name))
    errors[field] = referenceMessages.controlCharacters;
  return name;
}

function nameOrRefuse(value: unknown, field = 'name'): string {
  const errors: FieldErrors = {};
  const name = checkedName(value, field, errors);
  if (Object.keys(errors).length) throw badInput(errors);
  return name;
}

/** Its name in addresses: ASCII letters and digits, lower case, words joined by hyphens (accents dropped). */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || 'item';
}

/**
 * A slug not yet taken: `base`, else `base-2`, `base-3`... (`taken` says whether one is). Slugs stay when a name
 * changes, so shared addresses keep working.
 */
async function freeSlug(base: string, taken: (slug: string) => Promise<boolean>): Promise<string> {
  for (let n = 1; n < 1000; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!(await taken(slug))) return slug;
  }
  return `${base}-${Date.now().toString(36)}`;
}

/** Runs `write`; a unique key the check before it could not see (a racing write) answers `refusal` too. */
async function uniquely<T>(write: () => Promise<T>, refusal: () => Error): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (sqlState(error) === '23505' && violatedConstraint(error) !== undefined) throw refusal();
    throw error;
  }
}

/**
 * The catalog's reference data as admins keep it (issue 33): brands and categories created and renamed, a
 * category moved in the tree (never under itself or its own descendants), makes, models and vehicles created.
 * Each refuses a name another row of its kind holds, naming it.
 */
export function createReferenceData(db: Db) {
  const brandNamed = async (tx: DbOrTx, name: string, except?: string) =>
    (
      await tx
        .select()
        .from(brands)
        .where(and(sql`lower(${brands.name}) = lower(${name})`, except ? ne(brands.id, except) : undefined))
    )[0];

  const category = async (tx: DbOrTx, id: unknown, field: string): Promise<CategoryRow> => {
    const row =
      typeof id === 'string' && isId(id) ? (await tx.select().from(categories).where(eq(categories.id, id)))[0] : null;
    if (!row) throw field === 'id' ? notFound('Category') : badInput({ [field]: referenceMessages.noSuchCategory });
    return row;
  };

  /** A sibling (same parent) of that name, whatever its case. */
  const siblingNamed = async (tx: DbOrTx, parentId: string | null, name: string, except?: string) =>
    (
      await tx
        .select()
        .from(categories)
        .where(
          and(
            parentId === null ? sql`${categories.parentId} is null` : eq(categories.parentId, parentId),
            sql`lower(${categories.name}) = lower(${name})`,
            except ? ne(categories.id, except) : undefined,
          ),
        )
    )[0];

  /** The ids from `id` up to the top of the tree, `id` first (at most maxCategoryDepth + 1). */
  const ancestry = async (tx: DbOrTx, id: string): Promise<string[]> => {
    const rows = await rowsOf<{ path: string[] }>(
      tx,
      sql`
      with recursive up (id, parent_id, depth, path) as (
        select id, parent_id, 0, array[id] from categories where id = ${id}::uuid
        union all
        select c.id, c.parent_id, u.depth + 1, u.path || c.id
          from up u join categories c on c.id = u.parent_id
          where u.depth <= ${maxCategoryDepth} and c.id <> all(u.path)
      )
      select path::text[] as path from up order by depth desc limit 1`,
    );
    return rows[0]?.path ?? [];
  };

  /** How many levels sit below `id` (0 for a leaf), bounded. */
  const heightBelow = async (tx: DbOrTx, id: string): Promise<number> => {
    const rows = await rowsOf<{ height: number }>(
      tx,
      sql`
      with recursive down (id, depth) as (
        select id, 0 from categories where id = ${id}::uuid
        union all
        select c.id, d.depth + 1 from down d join categories c on c.parent_id = d.id where d.depth <= ${maxCategoryDepth}
      )
      select max(depth)::int as height from down`,
    );
    return rows[0]?.height ?? 0;
  };

  const makeOf = async (tx: DbOrTx, id: unknown): Promise<MakeRow> => {
    const row = typeof id === 'string' && isId(id) ? (await tx.select().from(makes).where(eq(makes.id, id)))[0] : null;
    if (!row) throw badInput({ makeId: referenceMessages.noSuchMake });
    return row;
  };

  return {
    async createBrand(actor: Actor | null, input: { name: unknown }): Promise<BrandRow> {
      authorize('catalog.createBrand', actor);
      const name = nameOrRefuse(input.name);
      const taken = () => badInput({ name: referenceMessages.brandTaken(name) });
      return db.transaction(async (tx) => {
        const existing = await brandNamed(tx, name);
        if (existing) throw badInput({ name: referenceMessages.brandTaken(existing.name) });
        const slug = await freeSlug(slugOf(name), async (s) =>
          Boolean((await tx.select({ id: brands.id }).from(brands).where(eq(brands.slug, s))).length),
        );
        const [brand] = await uniquely(() => tx.insert(brands).values({ name, slug }).returning(), taken);
        return brand;
      });
    },

    async renameBrand(actor: Actor | null, id: string, input: { name: unknown }): Promise<BrandRow> {
      authorize('catalog.renameBrand', actor);
      if (!isId(id)) throw notFound('Brand');
      const name = nameOrRefuse(input.name);
      return db.transaction(async (tx) => {
        const existing = await brandNamed(tx, name, id);
        if (existing) throw badInput({ name: referenceMessages.brandTaken(existing.name) });
        const [brand] = await uniquely(
          () => tx.update(brands).set({ name }).where(eq(brands.id, id)).returning(),
          () => badInput({ name: referenceMessages.brandTaken(name) }),
        );
        if (!brand) throw notFound('Brand');
        return brand;
      });
    },

    async createCategory(actor: Actor | null, input: { name: unknown; parentId?: unknown }): Promise<CategoryRow> {
      authorize('catalog.createCategory', actor);
      const name = nameOrRefuse(input.name);
      return db.transaction(async (tx) => {
        await lockCategoryTree(tx);
        const parent = input.parentId == null ? null : await category(tx, input.parentId, 'parentId');
        if (parent && (await ancestry(tx, parent.id)).length > maxCategoryDepth) {
          throw badInput({ parentId: referenceMessages.tooDeep });
        }
        if (await siblingNamed(tx, parent?.id ?? null, name)) {
          throw badInput({ name: referenceMessages.categoryTaken(name, parent?.name ?? null) });
        }
        const base = slugOf(name);
        const slug = await freeSlug(parent ? `${parent.slug}-${base}` : base, async (s) =>
          Boolean((await tx.select({ id: categories.id }).from(categories).where(eq(categories.slug, s))).length),
        );
        // A name nobody has under this parent may still have its plain slug free: prefer it.
        const plainFree =
          parent && !(await tx.select({ id: categories.id }).from(categories).where(eq(categories.slug, base))).length;
        const [created] = await tx
          .insert(categories)
          .values({ name, parentId: parent?.id ?? null, slug: plainFree ? base : slug })
          .returning();
        return created;
      });
    },

    /**
     * Renames a category and/or moves it (`parentId`: another category, or null for the top). A move under itself
     * or under one of its own descendants is refused, naming both: the tree never loops.
     */
    async updateCategory(
      actor: Actor | null,
      id: string,
      input: { name?: unknown; parentId?: unknown },
    ): Promise<CategoryRow> {
      authorize('catalog.updateCategory', actor);
      return db.transaction(async (tx) => {
        await lockCategoryTree(tx);
        const current = await category(tx, id, 'id');
        const errors: FieldErrors = {};
        const name = input.name == null ? current.name : checkedName(input.name, 'name', errors);
        const moves = Object.prototype.hasOwnProperty.call(input, 'parentId') && input.parentId !== undefined;
        let parentId = current.parentId;
        if (moves) {
          if (input.parentId === null) parentId = null;
          else {
            const parent = await category(tx, input.parentId, 'parentId');
            if (parent.id === current.id) errors.parentId = referenceMessages.categoryUnderItself(current.name);
            else {
              const above = await ancestry(tx, parent.id);
              if (above.includes(current.id))
                errors.parentId = referenceMessages.categoryLoop(current.name, parent.name);
              else if (above.length + (await heightBelow(tx, current.id)) > maxCategoryDepth) {
                errors.parentId = referenceMessages.tooDeep;
              }
            }
            parentId = parent.id;
          }
        }
        if (Object.keys(errors).length) throw badInput(errors);
        if (await siblingNamed(tx, parentId, name, current.id)) {
          const parent = parentId ? await category(tx, parentId, 'parentId') : null;
          throw badInput({ name: referenceMessages.categoryTaken(name, parent?.name ?? null) });
        }
        const [updated] = await tx
          .update(categories)
          .set({ name, parentId })
          .where(eq(categories.id, current.id))
          .returning();
        return updated;
      });
    },

    async createMake(actor: Actor | null, input: { name: unknown }): Promise<MakeRow> {
      authorize('catalog.createMake', actor);
      const name = nameOrRefuse(input.name);
      return db.transaction(async (tx) => {
        const [existing] = await tx
          .select()
          .from(makes)
          .where(sql`lower(${makes.name}) = lower(${name})`);
        if (existing) throw badInput({ name: referenceMessages.makeTaken(existing.name) });
        const slug = await freeSlug(slugOf(name), async (s) =>
          Boolean((await tx.select({ id: makes.id }).from(makes).where(eq(makes.slug, s))).length),
        );
        const [make] = await uniquely(
          () => tx.insert(makes).values({ name, slug }).returning(),
          () => badInput({ name: referenceMessages.makeTaken(name) }),
        );
        return make;
      });
    },

    async createModel(actor: Actor | null, input: { makeId: unknown; name: unknown }): Promise<ModelRow> {
      authorize('catalog.createModel', actor);
      const name = nameOrRefuse(input.name);
      return db.transaction(async (tx) => {
        const make = await makeOf(tx, input.makeId);
        const [existing] = await tx
          .select()
          .from(models)
          .where(and(eq(models.makeId, make.id), sql`lower(${models.name}) = lower(${name})`));
        if (existing) throw badInput({ name: referenceMessages.modelTaken(existing.name, make.name) });
        const slug = await freeSlug(slugOf(name), async (s) =>
          Boolean(
            (
              await tx
                .select({ id: models.id })
                .from(models)
                .where(and(eq(models.makeId, make.id), eq(models.slug, s)))
            ).length,
          ),
        );
        const [model] = await uniquely(
          () => tx.insert(models).values({ makeId: make.id, name, slug }).returning(),
          () => badInput({ name: referenceMessages.modelTaken(name, make.name) }),
        );
        return model;
      });
    },

    async createVehicle(
      actor: Actor | null,
      input: { modelId: unknown; year: unknown; variant?: unknown },
    ): Promise<VehicleView> {
      authorize('catalog.createVehicle', actor);
      const errors: FieldErrors = {};
      const year = input.year;
      if (typeof year !== 'number' || !Number.isInteger(year) || year < 1885 || year > 2100) {
        errors.year = referenceMessages.year;
      }
      const variant = input.variant == null ? '' : checkedName(input.variant, 'variant', errors, { optional: true });
      if (typeof input.modelId !== 'string' || !isId(input.modelId)) errors.modelId = referenceMessages.noSuchModel;
      if (Object.keys(errors).length) throw badInput(errors);
      const modelId = input.modelId as string;
      return db.transaction(async (tx) => {
        const [model] = await tx.select().from(models).where(eq(models.id, modelId));
        if (!model) throw badInput({ modelId: referenceMessages.noSuchModel });
        const [existing] = await vehiclesJoined(tx).where(
          and(eq(vehicles.modelId, model.id), eq(vehicles.year, year as number), eq(vehicles.variant, variant)),
        );
        if (existing) throw badInput({ variant: referenceMessages.vehicleTaken(toVehicleView(existing).name) });
        const [created] = await uniquely(
          () =>
            tx
              .insert(vehicles)
              .values({ modelId: model.id, year: year as number, variant })
              .returning(),
          () => badInput({ variant: 'This vehicle exists already' }),
        );
        const [row] = await vehiclesJoined(tx).where(eq(vehicles.id, created.id));
        return toVehicleView(row);
      });
    },
  };
}

/** Changes of the category tree queue on one transaction lock: two moves that would make a loop together cannot both pass. */
async function lockCategoryTree(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('categories.parent_id'))`);
}
