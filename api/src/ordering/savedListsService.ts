import { buyerUnitPriceCents, controlCharacters, limits } from '@partsyard/common';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { resolveCurrentIds } from '../catalog/supersession';
import { buyerPricesFor, companyPriceOf } from '../companies/companyPrices';
import { violatedConstraint, type Db, type Tx } from '../db/database';
import { cartLines, parts, type PartRow } from '../db/schema';
import { badInput, conflict, notFound } from '../errors';
import type { Actor } from '../services/actor';
import { classifiedAmountProblem } from '../services/cartLines';
import { isId } from '../services/paging';
import { authorize, authorizeTarget, type SignedInOperation } from '../services/rights';
import { pastOrderLines } from './pastOrders';
import { checkedLineList, checkQuickOrderLines } from './quickOrderCheck';
import type { CartFromLinesView, QuickOrderService } from './quickOrderService';
import { savedListLines, savedLists, type SavedListRow } from './savedListsSchema';

/**
 * Saved lists (issue 34 point 3): a customer's named lists of parts with quantities, filled from a part, the cart,
 * quick-order lines or a past order, and put into the cart in one step with quick order's checks. Private: every
 * operation on a list is its owner's alone (rights.ts `owner`: another customer and an admin are refused alike).
 */

export const maxSavedLists = 50;
export const maxSavedListLines = 500;

export const savedListMessages = {
  nameRequired: 'Name the list',
  nameTooLong: 'A list name is at most 100 characters',
  nameControl: 'A list name cannot hold control characters',
  nameTaken: 'You have a list of this name already',
  tooManyLists: `You can keep at most ${maxSavedLists} lists: delete one first`,
  tooManyLines: `A list holds at most ${maxSavedListLines} parts`,
  notYours: 'This list is not yours',
  notInList: 'This part is not in the list',
  partOrLine: 'Name the line by its part (partId) or by itself (lineId), one of them',
  quantity: `The quantity must be a whole number from 1 to ${limits.maxQuantity}`,
  emptyList: 'This list is empty: add parts to it first',
  emptyCart: 'Your cart is empty',
  partGone: 'This part is no longer sold; left out',
  notIdentified: (message: string) => `${message}; left out`,
} as const;

/** A list's line as shown: the part now (null once gone; its replacement when replaced), and what it costs. */
export interface SavedListLineView {
  /** The line itself: how a line whose part was deleted is named (it has no part id). */
  id: string;
  partId: string | null;
  part: PartRow | null;
  /** The part's SKU and name when the line was written (what the list shows once the part is gone). */
  sku: string;
  partName: string;
  quantity: number;
  /** The part that replaces this one now (supersession), else null. */
  replacement: PartRow | null;
  unitPriceCents: number | null;
  lineTotalCents: number | null;
  /** Why this quantity cannot be ordered now (gone, replaced, stock, a rule), else null. */
  problem: string | null;
  addedAt: Date;
}

export interface SavedListView {
  id: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
  lines: SavedListLineView[];
  totalCents: number;
}

export interface SavedListSummaryView {
  id: string;
  name: string;
  lineCount: number;
  updatedAt: Date;
}

/** What adding lines to a list did: the list now, and the lines left out with why. */
export interface SavedListAdditionView {
  list: SavedListView;
  skipped: { line: number; message: string }[];
}

function checkedName(name: unknown): string {
  const given = typeof name === 'string' ? name.trim() : '';
  if (!given) throw badInput({ name: savedListMessages.nameRequired });
  if (given.length > 100) throw badInput({ name: savedListMessages.nameTooLong });
  if (controlCharacters.test(given) || /[\r\n\t]/.test(given)) throw badInput({ name: savedListMessages.nameControl });
  return given;
}

function checkedQuantity(quantity: unknown): number {
  if (!Number.isSafeInteger(quantity) || (quantity as number) < 1 || (quantity as number) > limits.maxQuantity)
    throw badInput({ quantity: savedListMessages.quantity });
  return quantity as number;
}

/** Whether a database error is the unique name of a customer's list. */
const isNameTaken = (error: unknown) => violatedConstraint(error) === 'saved_lists_user_name_key';

export function createSavedListsService(deps: { db: Db; quickOrder: QuickOrderService }) {
  const { db, quickOrder } = deps;

  /** The list, when the caller may act on it by `operation`: NOT_FOUND for no such list, FORBIDDEN for another's. */
  async function ownList(
    operation: SignedInOperation,
    actor: Actor | null,
    listId: unknown,
  ): Promise<{
    caller: Actor;
    list: SavedListRow;
  }> {
    const caller = authorize(operation, actor);
    if (typeof listId !== 'string' || !isId(listId)) throw notFound('Saved list');
    const [list] = await db.select().from(savedLists).where(eq(savedLists.id, listId));
    if (!list) throw notFound('Saved list');
    authorizeTarget(operation, caller, list.userId, savedListMessages.notYours);
    return { caller, list };
  }

  /** Runs `work` with the list's row held (its line changes one at a time, so its size is counted right). */
  function withListHeld<T>(listId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
    return db.transaction(async (tx) => {
      const [held] = await tx
        .select({ id: savedLists.id })
        .from(savedLists)
        .where(eq(savedLists.id, listId))
        .for('no key update');
      if (!held) throw notFound('Saved list');
      const result = await work(tx);
      await tx
        .update(savedLists)
        .set({ updatedAt: sql`now()` })
        .where(eq(savedLists.id, listId));
      return result;
    });
  }

  /**
   * Adds quantities of parts to a list in one statement: a part already there gets the sum (at most the quantity
   * bound). BAD_USER_INPUT when the list would hold more than its size.
   */
  async function addLines(tx: Tx, listId: string, items: readonly { part: PartRow; quantity: number }[]) {
    const summed = new Map<string, { part: PartRow; quantity: number }>();
    for (const { part, quantity } of items) {
      const entry = summed.get(part.id) ?? { part, quantity: 0 };
      entry.quantity = Math.min(entry.quantity + quantity, limits.maxQuantity);
      summed.set(part.id, entry);
    }
    if (!summed.size) return;
    const existing = await tx
      .select({ partId: savedListLines.partId })
      .from(savedListLines)
      .where(eq(savedListLines.listId, listId));
    const have = new Set(existing.map((l) => l.partId));
    const added = [...summed.keys()].filter((id) => !have.has(id)).length;
    if (existing.length + added > maxSavedListLines) throw badInput({ lines: savedListMessages.tooManyLines });
    await tx
      .insert(savedListLines)
      .values(
        [...summed.values()].map(({ part, quantity }, i) => ({
          listId,
          partId: part.id,
          sku: part.sku,
          partName: part.name,
          quantity,
          addedAt: sql`clock_timestamp() + ${i} * interval '1 microsecond'`,
        })),
      )
      .onConflictDoUpdate({
        target: [savedListLines.listId, savedListLines.partId],
        set: {
          quantity: sql`least(${savedListLines.quantity} + excluded.quantity, ${limits.maxQuantity})`,
          sku: sql`excluded.sku`,
          partName: sql`excluded.part_name`,
        },
      });
  }

  async function view(list: SavedListRow): Promise<SavedListView> {
    const rows = await db
      .select({ line: savedListLines, part: parts })
      .from(savedListLines)
      .leftJoin(parts, eq(parts.id, savedListLines.partId))
      .where(eq(savedListLines.listId, list.id))
      .orderBy(asc(savedListLines.addedAt), asc(savedListLines.id));
    const current = await resolveCurrentIds(
      db,
      rows.flatMap((r) => (r.part?.replacedById ? [r.part.id] : [])),
    );
    const replacementIds = [...new Set(current.values())];
    const replacements = replacementIds.length
      ? await db.select().from(parts).where(inArray(parts.id, replacementIds))
      : [];
    const byId = new Map(replacements.map((p) => [p.id, p]));
    // Priced for the list's owner by the one rule (their company's price where it is lower).
    const listed = rows.flatMap((r) => (r.part ? [r.part.id] : []));
    const buyer = listed.length && list.userId ? await buyerPricesFor(db, list.userId, listed) : null;
    const lines = rows.map(({ line, part }): SavedListLineView => {
      const replacementId = part ? current.get(part.id) : undefined;
      const replacement = replacementId && replacementId !== part?.id ? (byId.get(replacementId) ?? null) : null;
      const unit = part ? buyerUnitPriceCents(part, line.quantity, companyPriceOf(buyer, part.id)) : null;
      const problem = !part
        ? savedListMessages.partGone
        : replacement
          ? `Replaced by ${replacement.sku} (${replacement.name})`
          : (classifiedAmountProblem(part, line.quantity)?.message ?? null);
      return {
        id: line.id,
        partId: line.partId,
        part,
        sku: part?.sku ?? line.sku,
        partName: part?.name ?? line.partName,
        quantity: line.quantity,
        replacement,
        unitPriceCents: unit,
        lineTotalCents: unit === null ? null : unit * line.quantity,
        problem,
        addedAt: line.addedAt,
      };
    });
    return {
      id: list.id,
      name: list.name,
      createdAt: list.createdAt,
      updatedAt: list.updatedAt,
      lines,
      totalCents: lines.reduce((sum, l) => sum + (l.problem ? 0 : (l.lineTotalCents ?? 0)), 0),
    };
  }

  const reread = async (listId: string) => {
    const [list] = await db.select().from(savedLists).where(eq(savedLists.id, listId));
    if (!list) throw notFound('Saved list');
    return view(list);
  };

  return {
    /** The caller's lists, the latest changed first. */
    async myLists(actor: Actor | null): Promise<SavedListSummaryView[]> {
      const { userId } = authorize('lists.myLists', actor);
      return db
        .select({
          id: savedLists.id,
          name: savedLists.name,
          updatedAt: savedLists.updatedAt,
          lineCount: sql<number>`(select count(*)::int from saved_list_lines l where l.list_id = saved_lists.id)`,
        })
        .from(savedLists)
        .where(eq(savedLists.userId, userId))
        .orderBy(desc(savedLists.updatedAt), asc(savedLists.id))
        .limit(maxSavedLists);
    },

    /** One of the caller's lists with its lines, each priced now and saying what stands in its way. */
    async savedList(actor: Actor | null, listId: unknown): Promise<SavedListView> {
      const { list } = await ownList('lists.list', actor, listId);
      return view(list);
    },

    /** A new list of the caller's, empty. The name is unique among the caller's lists, whatever its case. */
    async createSavedList(actor: Actor | null, name: unknown): Promise<SavedListView> {
      const { userId } = authorize('lists.create', actor);
      const given = checkedName(name);
      const [{ n }] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(savedLists)
        .where(eq(savedLists.userId, userId));
      if (n >= maxSavedLists) throw badInput({ name: savedListMessages.tooManyLists });
      try {
        const [list] = await db.insert(savedLists).values({ userId, name: given }).returning();
        return view(list);
      } catch (error) {
        if (isNameTaken(error)) throw conflict(savedListMessages.nameTaken);
        throw error;
      }
    },

    async renameSavedList(actor: Actor | null, listId: unknown, name: unknown): Promise<SavedListView> {
      const { list } = await ownList('lists.rename', actor, listId);
      const given = checkedName(name);
      try {
        const [renamed] = await db
          .update(savedLists)
          .set({ name: given, updatedAt: sql`now()` })
          .where(eq(savedLists.id, list.id))
          .returning();
        if (!renamed) throw notFound('Saved list');
        return view(renamed);
      } catch (error) {
        if (isNameTaken(error)) throw conflict(savedListMessages.nameTaken);
        throw error;
      }
    },

    /** Deletes one of the caller's lists with its lines; answers its id. */
    async deleteSavedList(actor: Actor | null, listId: unknown): Promise<string> {
      const { list } = await ownList('lists.delete', actor, listId);
      const gone = await db.delete(savedLists).where(eq(savedLists.id, list.id)).returning({ id: savedLists.id });
      if (!gone.length) throw notFound('Saved list');
      return list.id;
    },

    /** Sets a part's quantity in a list (adding the part when it is not there: "add to list" on a part's page). */
    async setSavedListLine(
      actor: Actor | null,
      listId: unknown,
      partId: unknown,
      quantity: unknown,
    ): Promise<SavedListView> {
      const { list } = await ownList('lists.setLine', actor, listId);
      const wanted = checkedQuantity(quantity);
      if (typeof partId !== 'string' || !isId(partId)) throw notFound('Part');
      await withListHeld(list.id, async (tx) => {
        const [part] = await tx.select().from(parts).where(eq(parts.id, partId)).for('key share');
        if (!part) throw notFound('Part');
        const updated = await tx
          .update(savedListLines)
          .set({ quantity: wanted, sku: part.sku, partName: part.name })
          .where(and(eq(savedListLines.listId, list.id), eq(savedListLines.partId, partId)))
          .returning({ id: savedListLines.id });
        if (!updated.length) await addLines(tx, list.id, [{ part, quantity: wanted }]);
      });
      return reread(list.id);
    },

    /** Takes a part out of a list (NOT_FOUND when it is not there). */
    async removeSavedListLine(
      actor: Actor | null,
      listId: unknown,
      which: { partId?: unknown; lineId?: unknown },
    ): Promise<SavedListView> {
      const { list } = await ownList('lists.removeLine', actor, listId);
      const given = (value: unknown) => value !== undefined && value !== null;
      if (given(which.partId) === given(which.lineId)) throw badInput({ partId: savedListMessages.partOrLine });
      const id = given(which.partId) ? which.partId : which.lineId;
      if (typeof id !== 'string' || !isId(id)) throw notFound(given(which.partId) ? 'Part' : 'Line');
      const column = given(which.partId) ? savedListLines.partId : savedListLines.id;
      await withListHeld(list.id, async (tx) => {
        const removed = await tx
          .delete(savedListLines)
          .where(and(eq(savedListLines.listId, list.id), eq(column, id)))
          .returning({ id: savedListLines.id });
        if (!removed.length) throw badInput({ partId: savedListMessages.notInList });
      });
      return reread(list.id);
    },

    /** Adds every line of the caller's cart to a list (a part already in the list gets the sum). */
    async addCartToSavedList(actor: Actor | null, listId: unknown): Promise<SavedListAdditionView> {
      const { caller, list } = await ownList('lists.addFromCart', actor, listId);
      const rows = await db
        .select({ part: parts, amount: cartLines.amount })
        .from(cartLines)
        .innerJoin(parts, eq(parts.id, cartLines.partId))
        .where(eq(cartLines.userId, caller.userId))
        .orderBy(asc(cartLines.addedAt));
      if (!rows.length) throw badInput({ cart: savedListMessages.emptyCart });
      await withListHeld(list.id, (tx) =>
        addLines(
          tx,
          list.id,
          rows.map((r) => ({ part: r.part, quantity: r.amount })),
        ),
      );
      return { list: await reread(list.id), skipped: [] };
    },

    /**
     * Adds quick-order lines to a list: every line whose number names one part (its quantity read) goes in, summed
     * with what the list holds; the others (unknown, ambiguous, superseded numbers, bad quantities) are left out and
     * said so. Stock and the order rules do not matter to a list (they are checked when it goes into the cart).
     */
    async addQuickOrderToSavedList(
      actor: Actor | null,
      listId: unknown,
      lines: unknown,
    ): Promise<SavedListAdditionView> {
      const { list } = await ownList('lists.addFromQuickOrder', actor, listId);
      const checked = await checkQuickOrderLines(db, checkedLineList(lines));
      const usable = (l: (typeof checked.lines)[number]) =>
        l.part && !l.replacement && l.amount !== null && l.mergedInto === null && l.problem?.kind !== 'ambiguous';
      const skipped = checked.lines
        .filter((l) => !usable(l) && l.mergedInto === null)
        .map((l) => ({ line: l.line, message: savedListMessages.notIdentified(l.problem?.message ?? '') }));
      const items = checked.lines
        .filter(usable)
        .map((l) => ({ part: l.part as PartRow, quantity: Math.min(l.amount as number, limits.maxQuantity) }));
      if (items.length) await withListHeld(list.id, (tx) => addLines(tx, list.id, items));
      return { list: await reread(list.id), skipped };
    },

    /** Adds the lines of a past order (or of every order of a past checkout) of the caller's to a list. */
    async addOrderToSavedList(
      actor: Actor | null,
      listId: unknown,
      which: { orderId?: string | null; checkoutId?: string | null },
    ): Promise<SavedListAdditionView> {
      const { caller, list } = await ownList('lists.addFromOrder', actor, listId);
      const past = await pastOrderLines(db, 'lists.addFromOrder', caller, which);
      const ids = past.flatMap((p) => (p.partId ? [p.partId] : []));
      const found = ids.length ? await db.select().from(parts).where(inArray(parts.id, ids)) : [];
      const byId = new Map(found.map((p) => [p.id, p]));
      const skipped: SavedListAdditionView['skipped'] = [];
      const items: { part: PartRow; quantity: number }[] = [];
      past.forEach((p, i) => {
        const part = p.partId ? byId.get(p.partId) : undefined;
        if (part) items.push({ part, quantity: p.amount });
        else skipped.push({ line: i + 1, message: `${p.partName}: ${savedListMessages.partGone}` });
      });
      if (items.length) await withListHeld(list.id, (tx) => addLines(tx, list.id, items));
      return { list: await reread(list.id), skipped };
    },

    /** Puts a whole list into the caller's cart in one step, all or nothing, with quick order's checks. */
    async savedListToCart(actor: Actor | null, listId: unknown): Promise<CartFromLinesView> {
      const { caller, list } = await ownList('lists.toCart', actor, listId);
      const rows = await db
        .select({ line: savedListLines, sku: parts.sku })
        .from(savedListLines)
        .leftJoin(parts, eq(parts.id, savedListLines.partId))
        .where(eq(savedListLines.listId, list.id))
        .orderBy(asc(savedListLines.addedAt), asc(savedListLines.id));
      if (!rows.length) throw badInput({ listId: savedListMessages.emptyList });
      return quickOrder.partsIntoCart(
        caller,
        rows.map((r) => ({ sku: r.sku, name: r.line.partName, amount: r.line.quantity })),
      );
    },
  };
}

export type SavedListsService = ReturnType<typeof createSavedListsService>;
