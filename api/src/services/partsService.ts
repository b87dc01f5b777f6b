import { check, dollarsToCents, partSchema } from '@partsyard/common';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { orders, parts, type PartRow } from '../db/schema';
import { badInput, notFound } from '../errors';
import { requireAdmin, type Actor } from './actor';
import { isId, page } from './paging';

/** Image shown for a part added without one (shipped in the web's public files). */
export const defaultPartImage = '/images/parts/default.svg';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export function createPartsService(db: Db) {
  async function getPart(id: string): Promise<PartRow> {
    if (!isId(id)) throw notFound('Part');
    const [part] = await db.select().from(parts).where(eq(parts.id, id));
    if (!part) throw notFound('Part');
    return part;
  }

  return {
    getPart,

    /** Parts newest first, optionally searched by name (case-insensitive, anywhere in the name). */
    async listParts(args: { search?: string | null; offset?: number | null; limit?: number | null }) {
      const { offset, limit } = page(args.offset, args.limit, 100, 20);
      const search = args.search?.trim() ?? '';
      if (search.length > 200) throw badInput({ search: 'Must be 200 characters or fewer' });
      const where = search ? sql`lower(${parts.name}) like ${`%${escapeLike(search.toLowerCase())}%`}` : undefined;
      const [items, [{ total }]] = await Promise.all([
        db.select().from(parts).where(where).orderBy(desc(parts.createdAt), desc(parts.id)).offset(offset).limit(limit),
        db.select({ total: count() }).from(parts).where(where),
      ]);
      return { items, total, offset, limit };
    },

    /** Every part, newest first (the REST shim's GET /parts, bounded). */
    async allParts(limit = 1000): Promise<PartRow[]> {
      return db.select().from(parts).orderBy(desc(parts.createdAt), desc(parts.id)).limit(limit);
    },

    /** The most ordered parts, then the newest. */
    async popularParts(limit: number | null | undefined): Promise<PartRow[]> {
      const bounded = page(0, limit, 24, 6).limit;
      return db.select().from(parts).orderBy(desc(parts.sold), desc(parts.createdAt)).limit(bounded);
    },

    /** Loads many parts at once (for batched field resolution). */
    async partsByIds(ids: readonly string[]): Promise<PartRow[]> {
      const valid = ids.filter(isId);
      return valid.length ? db.select().from(parts).where(inArray(parts.id, valid)) : [];
    },

    async addPart(actor: Actor | null, input: unknown): Promise<PartRow> {
      requireAdmin(actor);
      const result = check(partSchema, input);
      if (!result.ok) throw badInput(result.errors);
      const { name, description, image, price, minOrder, available } = result.value;
      const [part] = await db
        .insert(parts)
        .values({
          name,
          description,
          image: image || defaultPartImage,
          priceCents: dollarsToCents(price),
          minOrder,
          available,
        })
        .returning();
      return part;
    },

    /**
     * Deletes a part. Its unpaid orders go with it (nothing was paid, and the stock goes too); paid orders
     * stay, keeping the part's name and image.
     */
    async deletePart(actor: Actor | null, id: string): Promise<string> {
      requireAdmin(actor);
      if (!isId(id)) throw notFound('Part');
      return db.transaction(async (tx) => {
        await tx.delete(orders).where(and(eq(orders.partId, id), eq(orders.status, 'unpaid')));
        const deleted = await tx.delete(parts).where(eq(parts.id, id)).returning({ id: parts.id });
        if (!deleted.length) throw notFound('Part');
        return id;
      });
    },
  };
}

export type PartsService = ReturnType<typeof createPartsService>;
