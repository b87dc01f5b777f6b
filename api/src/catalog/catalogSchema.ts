import { sql } from 'drizzle-orm';
import { check, index, pgTable, smallint, text, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * The catalog's own tables that stand without parts (docs/catalog.md): brands, the category tree, and the
 * vehicles (make > model > year + variant). The part's links to them (numbers, fitment) are in partLinksSchema.ts.
 */

/** A brand (of parts, and of the numbers they carry); its name is unique whatever its case. */
export const brands = pgTable(
  'brands',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
  },
  (t) => [
    uniqueIndex('brands_name_key').on(sql`lower(${t.name})`),
    uniqueIndex('brands_slug_key').on(t.slug),
    check('brands_name_check', sql`length(trim(${t.name})) > 0`),
  ],
);

/** The category tree (Brakes > Brake pads): a category without a parent is at the top. */
export const categories = pgTable(
  'categories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    parentId: uuid('parent_id').references((): AnyPgColumn => categories.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
  },
  (t) => [
    uniqueIndex('categories_slug_key').on(t.slug),
    index('categories_parent_idx').on(t.parentId),
    check('categories_name_check', sql`length(trim(${t.name})) > 0`),
    check('categories_not_own_parent_check', sql`${t.parentId} <> ${t.id}`),
  ],
);

export const makes = pgTable(
  'makes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
  },
  (t) => [uniqueIndex('makes_slug_key').on(t.slug)],
);

export const models = pgTable(
  'models',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    makeId: uuid('make_id')
      .notNull()
      .references(() => makes.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
  },
  (t) => [uniqueIndex('models_make_slug_key').on(t.makeId, t.slug)],
);

/**
 * A vehicle as the trade picks it: a model in a year, narrowed by a variant (submodel, engine or market; ''
 * for the base vehicle), so that a fitment never rests on a year range alone.
 */
export const vehicles = pgTable(
  'vehicles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    modelId: uuid('model_id')
      .notNull()
      .references(() => models.id, { onDelete: 'cascade' }),
    year: smallint('year').notNull(),
    variant: text('variant').notNull().default(''),
  },
  (t) => [
    uniqueIndex('vehicles_model_year_variant_key').on(t.modelId, t.year, t.variant),
    check('vehicles_year_check', sql`${t.year} between 1885 and 2100`),
  ],
);

export type BrandRow = typeof brands.$inferSelect;
export type CategoryRow = typeof categories.$inferSelect;
export type MakeRow = typeof makes.$inferSelect;
export type ModelRow = typeof models.$inferSelect;
export type VehicleRow = typeof vehicles.$inferSelect;
