import { and, eq, gte, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/database';
import { parts, type PartRow } from '../db/schema';

/**
 * Takes `amount` off a part's stock in one statement, only if minOrder <= amount <= available: however
 * many orders race, stock never goes below zero. Answers the updated part, or null when it was refused.
 */
export async function takeStock(db: DbOrTx, partId: string, amount: number): Promise<PartRow | null> {
  const [part] = await db
    .update(parts)
    .set({ available: sql`${parts.available} - ${amount}`, sold: sql`${parts.sold} + ${amount}` })
    .where(and(eq(parts.id, partId), gte(parts.available, amount), lte(parts.minOrder, amount)))
    .returning();
  return part ?? null;
}

/** Gives the stock of a cancelled or deleted unpaid order back to its part (if the part still exists). */
export async function releaseStock(db: DbOrTx, partId: string | null, amount: number): Promise<void> {
  if (!partId) return;
  await db
    .update(parts)
    .set({ available: sql`${parts.available} + ${amount}`, sold: sql`greatest(${parts.sold} - ${amount}, 0)` })
    .where(eq(parts.id, partId));
}
