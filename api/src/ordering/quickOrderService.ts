import { buyerPricesFor } from '../companies/companyPrices';
import type { Db } from '../db/database';
import type { Actor } from '../services/actor';
import type { CartService, CartView } from '../services/cartService';
import { addToCartAtOnce, partNoLongerSoldMessage } from '../services/cartLines';
import { authorize } from '../services/rights';
import { pastOrderLines, type PastOrderLine } from './pastOrders';
import {
  checkedLineList,
  checkQuickOrderLines,
  problemsCsv,
  type QuickOrderCheckView,
  type QuickOrderLineInput,
  type QuickOrderLineOutcome,
  unlookedOutcome,
} from './quickOrderCheck';

/**
 * Ordering by part number (issue 34): quick order (check lines, then add them to the cart all or nothing) and
 * order again (a past order or checkout back into the cart, with the same checks). The check is quickOrderCheck.ts;
 * the cart's rules and its all-or-nothing write are services/cartLines.ts.
 */

/** What adding lines to the cart did: everything (`added`, the cart now), or nothing and each line's outcome. */
export interface CartFromLinesView {
  added: boolean;
  /** Every line's outcome: when nothing was added, the lines with a problem say why. */
  check: QuickOrderCheckView;
  /** The cart now (as it was, when nothing was added). */
  cart: CartView;
}

/** A line to check that is already known to have nothing behind it (a past order's part deleted since). */
const goneOutcome = (line: number, number: string, amount: number): QuickOrderLineOutcome =>
  unlookedOutcome({
    line,
    number,
    quantity: String(amount),
    amount,
    problem: { kind: 'part_gone', message: partNoLongerSoldMessage },
  });

/** A check's view with the outcomes of lines that could not be looked up put back at their places. */
function withGone(view: QuickOrderCheckView, gone: QuickOrderLineOutcome[]): QuickOrderCheckView {
  if (!gone.length) return view;
  const lines = [...view.lines, ...gone].sort((a, b) => a.line - b.line);
  return { ...view, lines, problemCount: view.problemCount + gone.length, ready: false };
}

/**
 * Lines for the check from parts the shop knows (a past order's, a list's): each by its SKU, numbered from 1 in
 * their order; those whose part is gone are outcomes already.
 */
export function linesOfParts(items: readonly { sku: string | null; name: string; amount: number }[]) {
  const inputs: QuickOrderLineInput[] = [];
  const gone: QuickOrderLineOutcome[] = [];
  items.forEach((item, i) => {
    if (item.sku === null) gone.push(goneOutcome(i + 1, item.name, item.amount));
    else inputs.push({ number: item.sku, quantity: item.amount, line: i + 1 });
  });
  return { inputs, gone };
}

export function createQuickOrderService(deps: { db: Db; cart: CartService }) {
  const { db, cart } = deps;

  /** The caller's company prices for the parts a check found (none for a visitor or a caller in no company). */
  const pricesOf = (actor: Actor | null) => (partIds: string[]) =>
    actor ? buyerPricesFor(db, actor.userId, partIds) : Promise.resolve(null);

  /**
   * Puts checked lines into the caller's cart, all or nothing: nothing when any line has a problem; else every
   * line's part (merged lines summed) is added under the cart's own rules in one transaction, and when any fails
   * there (stock taken meanwhile, the part already in the cart, the cart's size) nothing changes and those
   * lines say why.
   */
  async function intoCart(actor: Actor, view: QuickOrderCheckView): Promise<CartFromLinesView> {
    if (!view.ready) return { added: false, check: view, cart: await cart.cart(actor) };
    const firsts = view.lines.filter((l) => l.mergedInto === null && l.part && l.amount !== null);
    const problems = await addToCartAtOnce(
      db,
      actor.userId,
      firsts.map((l, key) => ({ key, partId: (l.part as { id: string }).id, amount: l.amount as number })),
    );
    if (!problems.length) return { added: true, check: view, cart: await cart.cart(actor) };
    const failed = new Map(problems.map((p) => [firsts[p.key], p]));
    const lines = view.lines.map((l) => {
      const problem = failed.get(l) ?? (l.mergedInto !== null ? failedFirst(l) : undefined);
      return problem ? { ...l, problem: { kind: problem.kind, message: problem.message } } : l;
    });
    function failedFirst(l: QuickOrderLineOutcome) {
      const first = firsts.find((f) => f.line === l.mergedInto && f.part?.id === l.part?.id);
      return first ? failed.get(first) : undefined;
    }
    const problemCount = lines.filter((l) => l.problem).length;
    return {
      added: false,
      check: {
        lines,
        totalCents: lines.reduce((sum, l) => sum + (l.problem ? 0 : (l.lineTotalCents ?? 0)), 0),
        problemCount,
        ready: false,
      },
      cart: await cart.cart(actor),
    };
  }

  /** A past order's lines, checked as quick-order lines (each by its part's SKU). */
  async function checkPast(caller: Actor, past: PastOrderLine[]): Promise<QuickOrderCheckView> {
    const { inputs, gone } = linesOfParts(past.map((p) => ({ sku: p.sku, name: p.partName, amount: p.amount })));
    const view = inputs.length
      ? await checkQuickOrderLines(db, inputs, pricesOf(caller))
      : { lines: [], totalCents: 0, problemCount: 0, ready: true };
    return withGone(view, gone);
  }

  return {
    /** Each line's outcome (anyone, visitors too: nothing is written). BAD_USER_INPUT for no lines or over 1,000. */
    async check(actor: Actor | null, lines: unknown): Promise<QuickOrderCheckView> {
      return checkQuickOrderLines(db, checkedLineList(lines), pricesOf(actor));
    },

    /** The check's lines with a problem, as CSV (the grid's download; integrators' too). */
    async problemsCsv(actor: Actor | null, lines: unknown): Promise<string> {
      return problemsCsv(await this.check(actor, lines));
    },

    /** Checks the lines and adds them all to the caller's cart, or none (see `intoCart`). */
    async addToCart(actor: Actor | null, lines: unknown): Promise<CartFromLinesView> {
      const caller = authorize('quickOrder.addToCart', actor);
      const view = await checkQuickOrderLines(db, checkedLineList(lines), pricesOf(caller));
      return intoCart(caller, view);
    },

    /**
     * Order again: the lines of a past order of the caller's, or of every order of one past checkout, back into the
     * cart in one step, all or nothing, with the same checks (a superseded part offers its replacement, a part now
     * gone says so). NOT_FOUND for no such order; FORBIDDEN for another customer's.
     */
    async orderAgain(
      actor: Actor | null,
      which: { orderId?: string | null; checkoutId?: string | null },
    ): Promise<CartFromLinesView> {
      const caller = authorize('quickOrder.orderAgain', actor);
      const past = await pastOrderLines(db, 'quickOrder.orderAgain', caller, which);
      return intoCart(caller, await checkPast(caller, past));
    },

    /** Used by saved lists: lines of known parts into the cart (see `intoCart`). */
    async partsIntoCart(
      caller: Actor,
      items: readonly { sku: string | null; name: string; amount: number }[],
    ): Promise<CartFromLinesView> {
      const { inputs, gone } = linesOfParts(items);
      const view = inputs.length
        ? await checkQuickOrderLines(db, inputs, pricesOf(caller))
        : { lines: [], totalCents: 0, problemCount: 0, ready: true };
      return intoCart(caller, withGone(view, gone));
    },
  };
}

export type QuickOrderService = ReturnType<typeof createQuickOrderService>;
