import { eq } from 'drizzle-orm';
import { brands } from '../../src/catalog/catalogSchema';
import { partNumbers, type PartNumberKind } from '../../src/catalog/partLinksSchema';
import type { Db } from '../../src/db/database';
import { parts } from '../../src/db/schema';

/** A part written straight into the database, with its own SKU unless given one. */
export async function insertPart(db: Db, name: string, values: Partial<typeof parts.$inferInsert> = {}) {
  const [part] = await db
    .insert(parts)
    .values({
      name,
      description: `${name}, for the catalog tests`,
      priceCents: 1000,
      minOrder: 1,
      available: 10,
      ...values,
    })
    .returning();
  return part;
}

export async function addNumber(db: Db, partId: string, kind: PartNumberKind, raw: string, brandName?: string) {
  let brandId: string | null = null;
  if (brandName) {
    const slug = brandName.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    await db.insert(brands).values({ name: brandName, slug }).onConflictDoNothing();
    brandId = (await db.select().from(brands).where(eq(brands.slug, slug)))[0].id;
  }
  await db.insert(partNumbers).values({ partId, kind, raw, brandId });
}

/** A text unique to one test, so tests sharing a database never find each other's numbers. */
export const uniqueCode = () => Math.random().toString(36).slice(2, 8).toUpperCase();
