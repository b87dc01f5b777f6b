import { and, eq, getTableColumns, gte, lte, sql } from 'drizzle-orm';
import { lightStatementOnFirstUse, type DbOrTx } from '../db/database';
import { parts, type PartRow } from '../db/schema';

const partColumns = getTableColumns(parts);
const taken = sql.placeholder('amount');
/** Built once, a named statement: every order runs it. */
const takeStockStatement = lightStatementOnFirstUse<PartRow>(
  'parts_take_stock',
  (db) =>
    db
      .update(parts)
      .set({ available: sql`${parts.available} - ${taken}`, sold: sql`${parts.sold} + ${taken}` })
      .where(and(eq(parts.id, sql.placeholder('partId')), gte(parts.available, taken), lte(parts.minOrder, taken)))
      .returning(partColumns),
  partColumns,
);

/**
 * Takes `amount` off a part's stock in one statement, only if minOrder <= amount <= available: however
 * many orders race, stock never goes below zero. Answers the updated part, or null when it was refused.
 */
export async function takeStock(db: DbOrTx, partId: string, amount: number): Promise<PartRow | null> {
  const [part] = await takeStockStatement(db).execute({ partId, amount });
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
