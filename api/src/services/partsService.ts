import {
  check,
  checkPackSize,
  checkPriceTiers,
  dollarsToCents,
  partSchema,
  searchSchema,
  type PriceTier,
  type PriceTierInput,
} from '@partsyard/common';
import { and, desc, eq, getTableColumns, gt, isNull, sql, type SQL } from 'drizzle-orm';
import { prepareLight, type Db } from '../db/database';
import { escapeLike } from '../db/likePattern';
import { orders, parts, type PartRow } from '../db/schema';
import { badInput, notFound } from '../errors';
import type { Actor } from './actor';
import { holdsStock } from './expiry';
import { authorize } from './rights';
import { isId, page, pageOfCountedRows, pageSizes } from './paging';

/** Image shown for a part added without one (shipped in the web's public files). */
export const defaultPartImage = '/images/parts/default.svg';

/**
 * The quantity breaks and pack size of a part's input, checked (common/pricing.ts) against its price and minimum
 * order; BAD_USER_INPUT otherwise. Adding a part, setting its pricing and editing it (catalog/partEditing.ts) all
 * come here.
 */
export function checkPartPricing(
  input: unknown,
  priceCents: number,
  minOrder: number,
): { priceTiers: PriceTier[]; packSize: number } {
  const given = (input ?? {}) as { priceTiers?: unknown; packSize?: unknown };
  const tiers = checkPriceTiers(
    Array.isArray(given.priceTiers) ? (given.priceTiers as PriceTierInput[]) : given.priceTiers == null ? [] : null,
    { priceCents, minOrder },
  );
  const pack = checkPackSize(given.packSize);
  const errors = { ...(tiers.ok ? {} : tiers.errors), ...(pack.ok ? {} : { packSize: pack.error }) };
  if (!tiers.ok || !pack.ok) throw badInput(errors);
  return { priceTiers: tiers.value, packSize: pack.value };
}

/** Every column of a part, as `db.select()` reads them: the fields of the parts' light statements. */
const partColumns = getTableColumns(parts);

export function createPartsService(db: Db) {
  // The hot reads are prepared once (named statements on a PostgreSQL server; docs/decisions.md), their rows
  // mapped by a mapper made for them (prepareLight).
  const newestFirst = [desc(parts.createdAt), desc(parts.id)];
  const light = (name: string, select: { getSQL(): SQL }) => prepareLight<PartRow>(db, name, select, partColumns);
  const byId = light(
    'parts_by_id',
    db
      .select(partColumns)
      .from(parts)
      .where(eq(parts.id, sql.placeholder('id'))),
  );
  const newestPage = light(
    'parts_newest_page',
    db
      .select(partColumns)
      .from(parts)
      .orderBy(...newestFirst)
      .offset(sql.placeholder('offset'))
      .limit(sql.placeholder('limit')),
  );
  /**
   * A page of the catalog, newest first, with how many parts the list holds in the same statement: a subquery
   * PostgreSQL runs once beside the page's own plan (the page still stops at its last row on the newest-first
   * index). One round trip instead of two. A page past the end has no row to carry the total: counted apart.
   */
  const counted = { total: sql<number>`count(*)::int` };
  const countOf = (where?: SQL) => db.select(counted).from(parts).where(where);
  const pageWithCount = (name: string | undefined, where?: SQL) => {
    const fields = { part: partColumns, listTotal: sql<number>`(${countOf(where).getSQL()})` };
    return {
      page: prepareLight<{ part: PartRow; listTotal: number }>(
        db,
        name && `${name}_page`,
        db
          .select(fields)
          .from(parts)
          .where(where)
          .orderBy(...newestFirst)
          .offset(sql.placeholder('offset'))
          .limit(sql.placeholder('limit')),
        fields,
      ),
      count: prepareLight<{ total: number }>(db, name && `${name}_count`, countOf(where), counted),
    };
  };
  const catalog = {
    newest: pageWithCount('parts_catalog'),
    // Not named: the best plan depends on the text (a rare one: the trigram index; a common one: the
    // newest-first index), which a named statement's generic plan would not see; an unnamed one is planned for
    // its values each time.
    searched: pageWithCount(undefined, sql`lower(${parts.name}) like ${sql.placeholder('pattern')}`),
  };
  const mostSold = light(
    'parts_popular',
    db
      .select(partColumns)
      .from(parts)
      .where(gt(parts.sold, 0))
      .orderBy(desc(parts.sold), desc(parts.createdAt))
      .limit(sql.placeholder('limit')),
  );

  async function getPart(id: string): Promise<PartRow> {
    if (!isId(id)) throw notFound('Part');
    const [part] = await byId.execute({ id });
    if (!part) throw notFound('Part');
    return part;
  }

  return {
    getPart,

    /** Parts newest first, optionally searched by name (case-insensitive, anywhere in the name). */
    async listParts(args: { search?: string | null; offset?: number | null; limit?: number | null }) {
      const { offset, limit } = page(args.offset, args.limit, pageSizes.parts);
      const checked = check(searchSchema, { search: args.search });
      if (!checked.ok) throw badInput(checked.errors);
      const search = checked.value.search ?? '';
      const list = search ? catalog.searched : catalog.newest;
      const values = search ? { pattern: `%${escapeLike(search.toLowerCase())}%` } : {};
      const found = await pageOfCountedRows(
        { offset, limit },
        await list.page.execute({ ...values, offset, limit }),
        (row) => row.part,
        async () => (await list.count.execute(values))[0].total,
      );
      return { ...found, offset, limit };
    },

    /**
     * The best sellers: the parts with the most units sold (orders not cancelled), most first; a part that
     * never sold is no best seller. Only while nothing has sold at all (a new shop) the newest parts stand in.
     */
    async popularParts(limit: number | null | undefined): Promise<PartRow[]> {
      const bounded = page(0, limit, pageSizes.popularParts).limit;
      const sold = await mostSold.execute({ limit: bounded });
      return sold.length > 0 ? sold : newestPage.execute({ offset: 0, limit: bounded });
    },

    /** Ids of the parts (newest first) and when each was added, for the sitemap. */
    async partsForSitemap(limit: number): Promise<{ id: string; createdAt: Date }[]> {
      return db
        .select({ id: parts.id, createdAt: parts.createdAt })
        .from(parts)
        .orderBy(...newestFirst)
        .limit(limit);
    },

    async addPart(actor: Actor | null, input: unknown): Promise<PartRow> {
      authorize('parts.addPart', actor);
      const result = check(partSchema, input);
      if (!result.ok) throw badInput(result.errors);
      const { name, description, image, price, minOrder, available } = result.value;
      const pricing = checkPartPricing(input, dollarsToCents(price), minOrder);
      const [part] = await db
        .insert(parts)
        .values({
          name,
          description,
          image: image || defaultPartImage,
          priceCents: dollarsToCents(price),
          minOrder,
          available,
          priceTiers: pricing.priceTiers,
          packSize: pricing.packSize,
        })
        .returning();
      return part;
    },

    /** Sets a part's quantity breaks and pack size (admin), checked against its price and minimum order. */
    async setPartPricing(actor: Actor | null, id: string, input: { priceTiers?: unknown; packSize?: unknown }) {
      authorize('parts.setPartPricing', actor);
      const part = await getPart(id);
      const pricing = checkPartPricing(input, part.priceCents, part.minOrder);
      const [updated] = await db
        .update(parts)
        .set({ priceTiers: pricing.priceTiers, packSize: pricing.packSize })
        .where(eq(parts.id, part.id))
        .returning();
      if (!updated) throw notFound('Part');
      return updated;
    },

    /**
     * Deletes a part. Its unpaid orders go with it (nothing was paid, and the stock goes too); paid orders
     * stay, keeping the part's name and image.
     */
    async deletePart(actor: Actor | null, id: string): Promise<string> {
      authorize('parts.deletePart', actor);
      if (!isId(id)) throw notFound('Part');
      return db.transaction(async (tx) => {
        // Its unpaid orders are locked in id order (as deleting a user locks theirs), waiting for a payment or
        // a cancel in progress on one of them, then deleted; one paid meanwhile stays.
        const unpaid = and(eq(orders.partId, id), holdsStock); // unpaid, or awaiting approval
        await tx.select({ id: orders.id }).from(orders).where(unpaid).orderBy(orders.id).for('update');
        await tx.delete(orders).where(unpaid);
        // The part's delete waits for orders being placed on it (they hold its row) and then detaches them
        // (part_id set null); an order placed later finds no part. The detached unpaid ones go too: an unpaid
        // order is never left without its part.
        const deleted = await tx.delete(parts).where(eq(parts.id, id)).returning({ id: parts.id });
        if (!deleted.length) throw notFound('Part');
        await tx.delete(orders).where(and(isNull(orders.partId), holdsStock));
        return id;
      });
    },
  };
}

export type PartsService = ReturnType<typeof createPartsService>;
