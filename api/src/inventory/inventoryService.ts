import { checkStockAdjustment, maxQuantity, stockMessages } from '@partsyard/common';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { parts, users, type PartRow } from '../db/schema';
import { badInput, notFound } from '../errors';
import type { Actor } from '../services/actor';
import { isId, page, pageSizes, pageWithTotal } from '../services/paging';
import { authorize } from '../services/rights';
import { stockMovements, type StockMovementRow } from './inventorySchema';

/** A movement of the history with who made it (their name and email now; null once their account is gone). */
export type StockMovementView = StockMovementRow & { actor: { name: string; email: string | null } | null };

/**
 * A part's stock as admins keep it (issue 33 point 5): adjustments with a reason (received, counted, damaged,
 * returned, other), each recorded with who, when, why, and the stock before and after, in the same transaction
 * as the change; and the history of them, newest first. Orders take and give back stock themselves (services/
 * stock.ts); an adjustment holds the part's row as their stock update does, so the two queue for each other and
 * neither is lost, and the stock never goes below zero.
 */
export function createInventoryService(db: Db) {
  return {
    /**
     * Adjusts a part's stock: `delta` units added or taken off, or (reason `counted`) set to `countedTo`. Refused
     * (BAD_USER_INPUT, nothing written) when it would take the stock below zero or above the most a part holds,
     * saying what is in stock now. Answers the movement recorded and the part as it is after it.
     */
    async adjustStock(
      actor: Actor | null,
      partId: string,
      input: unknown,
    ): Promise<{ movement: StockMovementView; part: PartRow }> {
      const admin = authorize('inventory.adjustStock', actor);
      if (!isId(partId)) throw notFound('Part');
      const checked = checkStockAdjustment(input);
      if (!checked.ok) throw badInput(checked.errors);
      const { reason, delta, countedTo, note } = checked.value;
      const field = reason === 'counted' ? 'countedTo' : 'delta';
      return db.transaction(async (tx) => {
        // The row lock an order's stock update takes (FOR NO KEY UPDATE conflicts with it, not with the orders'
        // foreign keys to the part): whatever orders took before it is in `before`, and none takes stock between
        // this read and the update.
        const [held] = await tx
          .select({ available: parts.available })
          .from(parts)
          .where(eq(parts.id, partId))
          .for('no key update');
        if (!held) throw notFound('Part');
        const before = held.available;
        const after = countedTo ?? before + (delta ?? 0);
        if (after < 0) throw badInput({ [field]: stockMessages.belowZero(before) });
        if (after > maxQuantity) throw badInput({ [field]: stockMessages.aboveMax(before) });
        const [part] = await tx.update(parts).set({ available: after }).where(eq(parts.id, partId)).returning();
        const [movement] = await tx
          .insert(stockMovements)
          .values({
            partId,
            reason,
            delta: after - before,
            before,
            after,
            note,
            actorId: admin.userId,
            // The moment of the change, taken with the row held (not the transaction's start, which now() is):
            // the history's order is the order the changes were made in.
            createdAt: sql`clock_timestamp()`,
          })
          .returning();
        const [who] = await tx
          .select({ name: users.name, email: users.email })
          .from(users)
          .where(eq(users.id, admin.userId));
        return { movement: { ...movement, actor: who ?? null }, part };
      });
    },

    /** A part's stock history, newest first, paged (admin). NOT_FOUND for a part that does not exist. */
    async stockHistory(
      actor: Actor | null,
      partId: string,
      args: { offset?: number | null; limit?: number | null },
    ): Promise<{ items: StockMovementView[]; total: number; offset: number; limit: number }> {
      authorize('inventory.stockHistory', actor);
      const bounds = page(args.offset, args.limit, pageSizes.stockHistory);
      if (!isId(partId)) throw notFound('Part');
      const ofPart = eq(stockMovements.partId, partId);
      const found = await pageWithTotal(
        bounds,
        async () =>
          (
            await db
              .select({ movement: stockMovements, name: users.name, email: users.email })
              .from(stockMovements)
              .leftJoin(users, eq(users.id, stockMovements.actorId))
              .where(ofPart)
              .orderBy(desc(stockMovements.createdAt), desc(stockMovements.id))
              .limit(bounds.limit)
              .offset(bounds.offset)
          ).map(({ movement, name, email }) => ({
            ...movement,
            actor: name === null ? null : { name, email },
          })),
        async () => (await db.select({ n: count() }).from(stockMovements).where(and(ofPart)))[0]?.n ?? 0,
      );
      // An empty first page: a part without history, or no part at all.
      if (!found.items.length && bounds.offset === 0) {
        const [part] = await db.select({ id: parts.id }).from(parts).where(eq(parts.id, partId));
        if (!part) throw notFound('Part');
      }
      return { ...found, ...bounds };
    },
  };
}

export type InventoryService = ReturnType<typeof createInventoryService>;
