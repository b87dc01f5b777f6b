import {
  centsToDollars,
  check,
  checkoutSchema,
  dollarsToCents,
  formatDollars,
  maxChargeCents,
  messages,
  nextBuyerBreak,
  type CompanyPrice,
  orderAmountSchema,
  buyerPrice,
  buyerUnitPriceCents,
} from '@partsyard/common';
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import { buyerPricesFor, companyPriceOf } from '../companies/companyPrices';
import type { OrderLimits } from '../config';
import type { Db, Tx } from '../db/database';
import { cartLines, cartMerges, parts, type OrderRow, type PartRow } from '../db/schema';
import { badInput, conflict, notFound } from '../errors';
import type { Client, RateLimiter } from '../rateLimits';
import {
  amountProblem,
  cartFullMessage,
  countCartLines,
  maxCartLines,
  upsertCartLines,
  withAccountHeld as withAccountHeldIn,
} from './cartLines';
import type { Actor } from './actor';
import { authorize } from './rights';
import {
  checkoutTooLargeMessage,
  emptyCartMessage,
  partGoneMessage,
  tooMuchHeldUnpaid,
  type OrdersService,
} from './ordersService';
import { invalidAmountNote, mergedAmount } from './cartMergeRule';
import { isId } from './paging';
import type { PartsService } from './partsService';

/**
 * The cart (issue 14): a signed-in customer's cart lives in `cart_lines` (one line per part, every device sees
 * it); a visitor's lives in the browser and is merged in at sign-in (`mergeCart`). Amounts follow the purchase
 * rules (minOrder, stock, whole numbers, packs, one card payment) with the spec's messages; checkout places
 * every line through the orders service's one order-writing path, all or nothing.
 */

export { cartFullMessage, maxCartLines };
export const mergeIdMessage = 'A merge id is a UUID the browser chooses when it starts the merge';
export const cartCheckedOutMessage = 'This cart was just checked out (another tab or device?): see My Orders';
export const priceChangedMessage = (seenCents: number, nowCents: number) =>
  `The price changed from ${formatDollars(centsToDollars(seenCents))} to ${formatDollars(centsToDollars(nowCents))} since you added it`;

/** A cart line as shown: the part now, the amount, the unit price now and when added, and what is wrong. */
export interface CartLineView {
  partId: string;
  part: PartRow;
  amount: number;
  unitPriceCents: number;
  /** The unit price is the caller's company price (lower than the list price at this amount). */
  companyPriced: boolean;
  /** The caller's company price of the part (null: none), for the next break by the same rule. */
  companyPrice: CompanyPrice | null;
  seenUnitPriceCents: number;
  lineTotalCents: number;
  /** Why the amount cannot be ordered now (stock fell, a rule), null when it can. */
  problem: string | null;
  /** Set when the unit price differs from the one seen when the line was added. */
  priceChange: string | null;
  addedAt: Date;
}

export interface CartView {
  lines: CartLineView[];
  totalCents: number;
  units: number;
  /**
   * Why the cart cannot be checked out as a whole though its lines may each be ordered (its total is more than
   * one card payment, or than one customer may hold unpaid), else null.
   */
  problem: string | null;
  /** True when the cart has lines, every one can be ordered as it stands, and the whole has no problem. */
  ready: boolean;
}

export type NextTierView = NonNullable<ReturnType<typeof nextBuyerBreak>>;

export interface CartMergeView {
  cart: CartView;
  notes: MergeNote[];
  /** True when this merge id was merged before: nothing was merged again, and the notes are that merge's. */
  repeated: boolean;
}

export interface CheckoutView {
  checkoutId: string;
  orders: OrderRow[];
  totalCents: number;
}

/** A visitor's line, as the browser kept it. */
export interface VisitorLine {
  partId: string;
  amount: number;
}

/** What a merge did with a visitor's line that did not go in whole. */
export interface MergeNote {
  partId: string;
  message: string;
}

/**
 * Why a cart whose lines can each be ordered cannot be checked out as a whole, else null: checkout's own refusals
 * of its total (one card payment; what one customer may hold unpaid, counting this checkout alone).
 */
function cartProblem(totalCents: number, limits: OrderLimits): string | null {
  if (totalCents > maxChargeCents) return checkoutTooLargeMessage;
  if (totalCents > limits.unpaidValuePerCustomerCents) {
    return tooMuchHeldUnpaid(0, totalCents, limits.unpaidValuePerCustomerCents);
  }
  return null;
}

export function createCartService(deps: {
  db: Db;
  parts: PartsService;
  orders: OrdersService;
  rateLimits: RateLimiter;
  limits: OrderLimits;
}) {
  const { db, parts: partsService, orders: ordersService, rateLimits, limits: orderLimits } = deps;

  async function cart(actor: Actor | null): Promise<CartView> {
    const { userId } = authorize('cart.cart', actor);
    const rows = await db
      .select({ line: cartLines, part: parts })
      .from(cartLines)
      .innerJoin(parts, eq(parts.id, cartLines.partId))
      .where(eq(cartLines.userId, userId))
      .orderBy(asc(cartLines.addedAt), asc(cartLines.partId));
    // Priced by the one rule (common/pricing.ts `buyerPrice`): the caller's company's price where it is lower.
    const buyer = rows.length
      ? await buyerPricesFor(
          db,
          userId,
          rows.map((r) => r.part.id),
        )
      : null;
    const lines = rows.map(({ line, part }): CartLineView => {
      const companyPrice = companyPriceOf(buyer, part.id);
      const { unitPriceCents: unit, companyPriced } = buyerPrice(part, line.amount, companyPrice);
      return {
        companyPriced,
        companyPrice,
        partId: part.id,
        part,
        amount: line.amount,
        unitPriceCents: unit,
        seenUnitPriceCents: line.seenUnitPriceCents,
        lineTotalCents: unit * line.amount,
        problem: amountProblem(part, line.amount),
        priceChange: unit === line.seenUnitPriceCents ? null : priceChangedMessage(line.seenUnitPriceCents, unit),
        addedAt: line.addedAt,
      };
    });
    const totalCents = lines.reduce((sum, l) => sum + l.lineTotalCents, 0);
    const problem = cartProblem(totalCents, orderLimits);
    return {
      lines,
      totalCents,
      units: lines.reduce((sum, l) => sum + l.amount, 0),
      problem,
      ready: lines.length > 0 && lines.every((l) => !l.problem) && problem === null,
    };
  }

  /** The part of a line, as it is now (NOT_FOUND for no such part; BAD_USER_INPUT when it is not sold). */
  async function partOfLine(partId: string): Promise<PartRow> {
    if (!isId(partId)) throw notFound('Part');
    const part = await partsService.getPart(partId);
    if (part.priceCents < 1) throw badInput({ partId: messages.partNotForSale });
    return part;
  }

  /** `amount` of `part`, checked: BAD_USER_INPUT with the purchase rules' message when it is not allowed. */
  function checkedAmount(part: PartRow, amount: unknown): number {
    const result = check(orderAmountSchema(part), { orderAmount: amount });
    if (!result.ok) throw badInput({ amount: result.errors.orderAmount ?? messages.orderAmountRequired });
    return result.value.orderAmount;
  }

  const withAccountHeld = <T>(userId: string, work: (tx: Tx) => Promise<T>) => withAccountHeldIn(db, userId, work);
  const countLines = countCartLines;
  const upsert = (tx: Tx, userId: string, part: PartRow, amount: number) =>
    upsertCartLines(tx, userId, [{ part, amount }]);

  return {
    cart,

    /**
     * Adds `amount` units of a part. A part already in the cart gets the sum, checked by the purchase rules as
     * one amount (so adding never builds a line that could not be ordered).
     */
    async addToCart(actor: Actor | null, partId: string, amount: unknown): Promise<CartView> {
      const { userId } = authorize('cart.addToCart', actor);
      const part = await partOfLine(partId);
      // The amount added is checked alone first, so its message is about what was typed.
      const added = checkedAmount(part, amount);
      await withAccountHeld(userId, async (tx) => {
        const [existing] = await tx
          .select({ amount: cartLines.amount })
          .from(cartLines)
          .where(and(eq(cartLines.userId, userId), eq(cartLines.partId, partId)));
        if (!existing && (await countLines(tx, userId)) >= maxCartLines) throw badInput({ partId: cartFullMessage });
        await upsert(tx, userId, part, checkedAmount(part, (existing?.amount ?? 0) + added));
      });
      return cart(actor);
    },

    /** Sets a line's amount (the cart's stepper), checked by the purchase rules; the price seen is renewed. */
    async setCartLineAmount(actor: Actor | null, partId: string, amount: unknown): Promise<CartView> {
      const { userId } = authorize('cart.setCartLineAmount', actor);
      const part = await partOfLine(partId);
      const wanted = checkedAmount(part, amount);
      const buyer = await buyerPricesFor(db, userId, [part.id]);
      // An update, never an insert: a line removed meanwhile stays removed (and the cart's size stays counted).
      const updated = await db
        .update(cartLines)
        .set({
          amount: wanted,
          seenUnitPriceCents: buyerUnitPriceCents(part, wanted, companyPriceOf(buyer, part.id)),
          updatedAt: sql`now()`,
        })
        .where(and(eq(cartLines.userId, userId), eq(cartLines.partId, partId)))
        .returning({ partId: cartLines.partId });
      if (!updated.length) throw notFound('Cart line');
      return cart(actor);
    },

    /** Takes a part out of the caller's cart; NOT_FOUND when it is not there. */
    async removeCartLine(actor: Actor | null, partId: string): Promise<CartView> {
      const { userId } = authorize('cart.removeCartLine', actor);
      const removed = isId(partId)
        ? await db
            .delete(cartLines)
            .where(and(eq(cartLines.userId, userId), eq(cartLines.partId, partId)))
            .returning({ partId: cartLines.partId })
        : [];
      if (!removed.length) throw notFound('Cart line');
      return cart(actor);
    },

    /**
     * Merges a visitor's cart (from the browser, at sign-in) into the server's, by the rule of `mergedAmount`:
     * amounts of the same part are summed, then capped; what could not go in whole is reported.
     *
     * `mergeId`, chosen by the browser when it starts the merge and sent again with every retry of it, makes the
     * merge count once: the first one is remembered (cart_merges) with its notes, in the same transaction as its
     * lines, and the same id again merges nothing and answers those notes. Without one (a client from before
     * issue 32) every call merges.
     */
    async mergeCart(
      actor: Actor | null,
      visitor: readonly VisitorLine[],
      mergeId?: string | null,
    ): Promise<CartMergeView> {
      const { userId } = authorize('cart.mergeCart', actor);
      if (mergeId != null && !isId(mergeId)) throw badInput({ mergeId: mergeIdMessage });
      if (visitor.length > maxCartLines) throw badInput({ lines: cartFullMessage });
      // Per part, in the visitor's order: the sum of its lines that can be amounts, and those that cannot.
      const wanted = new Map<string, { sum: number; invalid: number[] }>();
      let notes: MergeNote[] = [];
      for (const line of visitor) {
        if (!isId(line.partId)) {
          notes.push({ partId: line.partId, message: partGoneMessage });
          continue;
        }
        const entry = wanted.get(line.partId) ?? { sum: 0, invalid: [] };
        if (Number.isInteger(line.amount) && line.amount >= 1) entry.sum += line.amount;
        else entry.invalid.push(line.amount);
        wanted.set(line.partId, entry);
      }
      let repeated = false;
      if (wanted.size || mergeId) {
        const ids = [...wanted.keys()];
        const found = ids.length ? await db.select().from(parts).where(inArray(parts.id, ids)) : [];
        const byId = new Map(found.map((p) => [p.id, p]));
        await withAccountHeld(userId, async (tx) => {
          // Held, the account's merges run one at a time: a repeat sent at once waits for the first to commit.
          if (mergeId) {
            const [done] = await tx
              .select({ notes: cartMerges.notes })
              .from(cartMerges)
              .where(and(eq(cartMerges.userId, userId), eq(cartMerges.mergeId, mergeId)));
            if (done) {
              repeated = true;
              notes = done.notes;
              return;
            }
          }
          const existing = await tx.select().from(cartLines).where(eq(cartLines.userId, userId));
          const have = new Map(existing.map((l) => [l.partId, l.amount]));
          let count = existing.length;
          for (const [partId, { sum, invalid }] of wanted) {
            const part = byId.get(partId);
            if (!part) {
              notes.push({ partId, message: partGoneMessage });
              continue;
            }
            for (const amount of invalid) notes.push({ partId, message: invalidAmountNote(part, amount) });
            if (!sum) continue;
            if (!have.has(partId) && count >= maxCartLines) {
              notes.push({ partId, message: `${part.name}: ${cartFullMessage}` });
              continue;
            }
            const merged = mergedAmount(part, (have.get(partId) ?? 0) + sum);
            if (merged.note) notes.push({ partId, message: merged.note });
            if (merged.amount === null) continue;
            if (!have.has(partId)) count += 1;
            await upsert(tx, userId, part, merged.amount);
          }
          if (mergeId) {
            await tx.insert(cartMerges).values({ userId, mergeId, notes });
            await tx
              .delete(cartMerges)
              .where(and(eq(cartMerges.userId, userId), lt(cartMerges.mergedAt, sql`now() - interval '30 days'`)));
          }
        });
      }
      return { cart: await cart(actor), notes, repeated };
    },

    /**
     * Checks out the whole cart: every line becomes an order in one transaction (ordersService.placeCheckout),
     * all sharing one checkout id and paid with one payment; the cart is emptied once the orders are placed.
     * `expectedTotal` (dollars), when given, must be what the lines cost now, or nothing is placed.
     */
    async checkout(
      actor: Actor | null,
      input: { name?: unknown; phone?: unknown; address?: unknown; expectedTotal?: number | null },
      client?: Client,
    ): Promise<CheckoutView> {
      const caller = authorize('orders.checkout', actor);
      const contact = check(checkoutSchema, input);
      if (!contact.ok) throw badInput(contact.errors);
      const now = await cart(actor);
      if (!now.lines.length) throw badInput({ lines: emptyCartMessage });
      const attempt = await rateLimits.orderBy(caller.userId, client);
      try {
        const placed = await ordersService.placeCheckout(
          caller,
          { name: contact.value.name, phone: contact.value.phone, address: contact.value.address ?? '' },
          now.lines.map((l) => ({ partId: l.partId, orderAmount: l.amount })),
          {
            expectedTotalCents:
              typeof input.expectedTotal === 'number' && Number.isFinite(input.expectedTotal)
                ? dollarsToCents(input.expectedTotal)
                : undefined,
            // The lines placed leave the cart in the same transaction; when they are gone already, another
            // checkout of this cart (a second click, another device) got there first and this one is undone.
            also: async (tx, orders) => {
              const taken = await tx
                .delete(cartLines)
                .where(
                  and(
                    eq(cartLines.userId, caller.userId),
                    inArray(
                      cartLines.partId,
                      orders.map((o) => o.partId ?? ''),
                    ),
                  ),
                )
                .returning({ partId: cartLines.partId });
              if (taken.length !== orders.length) throw conflict(cartCheckedOutMessage);
            },
          },
        );
        return {
          checkoutId: placed[0].checkoutId ?? '',
          orders: placed,
          totalCents: placed.reduce((sum, o) => sum + o.totalCents, 0),
        };
      } catch (error) {
        await attempt.refused();
        throw error;
      }
    },
  };
}

export type CartService = ReturnType<typeof createCartService>;
