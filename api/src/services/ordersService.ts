import { randomUUID } from 'node:crypto';
import {
  centsToDollars,
  check,
  formatDollars,
  maxChargeCents,
  messages,
  orderAmountSchema,
  purchaseSchema,
  buyerPrice,
} from '@partsyard/common';
import { and, count, desc, eq, getTableColumns, gt, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import type { OrderLimits } from '../config';
import { lightStatement, prepareLight, sqlState, type Db, type Tx } from '../db/database';
import {
  gatewayIntents,
  orderCounts,
  orders,
  parts as partsTable,
  users,
  type OrderRow,
  type PartRow,
} from '../db/schema';
import { accountGone, AppError, badInput, conflict, notFound } from '../errors';
import { emitEvent } from '../logger';
import type { Client, RateLimiter } from '../rateLimits';
import { buyerPricesFor, companyPriceOf } from '../companies/companyPrices';
import { holdAccount } from './accountLock';
import { accountNamedBy } from './accountByEmail';
import {
  actorColumns,
  claimedAccount,
  isClaim,
  wellFormed,
  type AccountClaim,
  type Actor,
  type ReadActor,
} from './actor';
import {
  approvalMessages,
  cancelAwaitingIn,
  cancelRefusal,
  placedStatus,
  requestApproval,
} from '../companies/companyApprovals';
import { orderPlacedEmail, shippedEmail } from './emails';
import { expireDueOrders, expireOrderIfDue, holdsStock, intentKeys, partHasDueOrders } from './expiry';
import { enqueueEmail } from './outbox';
import { isId, page, pageOfCountedRows, pageSizes, type Page } from './paging';
import { authorize, authorizeTarget, type SignedInOperation } from './rights';
import type { PartsService } from './partsService';
import { releaseStock, takeStock } from './stock';

export type OrderStatus = OrderRow['status'];
export const orderStatuses: readonly OrderStatus[] = [
  'unpaid',
  'paid',
  'shipped',
  'expired',
  'awaiting_approval',
  'declined',
];

/** Paid or shipped: a verified payment is recorded. */
export const isPaid = (status: OrderStatus) => status === 'paid' || status === 'shipped';

/** The refusal of a customer's order past UNPAID_ORDERS_PER_CUSTOMER. */
export const tooManyUnpaidOrders = (held: number) =>
  `You have ${held} unpaid ${held === 1 ? 'order' : 'orders'}, the most one customer may hold: pay or cancel one of them before placing another`;

/**
 * The refusal of an order or checkout that would take a customer's unpaid orders past UNPAID_VALUE_PER_CUSTOMER
 * (issue 32): what they hold unpaid already, what this one costs, and what to do.
 */
export function tooMuchHeldUnpaid(heldCents: number, orderCents: number, limitCents: number): string {
  const dollars = (cents: number) => formatDollars(centsToDollars(cents));
  return heldCents > 0
    ? `Your unpaid orders already come to ${dollars(heldCents)}, and one customer may hold at most ${dollars(limitCents)} unpaid: pay or cancel them before ordering ${dollars(orderCents)} more`
    : `One customer may hold at most ${dollars(limitCents)} unpaid, and this costs ${dollars(orderCents)}: order less now, pay for it, then order the rest`;
}

/** What a customer may delete: an unpaid order (its stock comes back), or one expired or declined (it did). */
const deletable: OrderStatus[] = ['unpaid', 'expired', 'declined'];

/** Why a paid order cannot be paid again (409). */
export const alreadyPaidMessage = 'This order is already paid';

/** Why an expired order cannot be paid (createPaymentIntent, payWithTestCard, confirmPayment: 409). */
export const orderExpiredMessage =
  'This order expired before it was paid and its items went back on sale: place a new order';

/** Why an order that is not unpaid cannot be paid (409). */
export function notPayableMessage(status: OrderStatus): string {
  if (status === 'expired') return orderExpiredMessage;
  if (status === 'awaiting_approval') return approvalMessages.awaitingNotPayable;
  if (status === 'declined') return approvalMessages.declinedNotPayable;
  return alreadyPaidMessage;
}

/** What a checkout may add to the one order-writing transaction. */
export interface CheckoutOptions {
  /** The total the customer saw, in cents: nothing is placed when the lines cost otherwise now. */
  expectedTotalCents?: number;
  /** More work in the same transaction, once the orders are written (the cart's lines leave it). */
  also?: (tx: Tx, placed: OrderRow[]) => Promise<void>;
}

/** A checkout of an empty cart. */
export const emptyCartMessage = 'Your cart is empty: add parts before checking out';
/** A cart line whose part was deleted. */
export const partGoneMessage = 'This part is no longer sold: remove it from your cart';
/**
 * A line whose stock racing orders took while the checkout was being written, though it looks orderable again
 * when checked afterwards (an order of the part was cancelled or expired in between): the stock, not the part, is
 * what failed.
 */
export const stockTakenMessage = (available: number) =>
  `Other orders took this part's stock while you checked out (${messages.orderAmountAboveAvailable(available).toLowerCase()} now): check out again`;
/** The total the customer saw is not what the lines cost now (a price or a quantity break changed). */
export const totalChangedMessage = (cents: number) =>
  `Prices changed since you looked: the total is now ${formatDollars(centsToDollars(cents))}. Check your cart and check out again`;
/** A checkout whose sum no single card payment can carry. */
export const checkoutTooLargeMessage = messages.checkoutTooLarge;

/** A checkout refused because of some lines: nothing was ordered, and each failing line says why. */
function checkoutRefused(problems: Record<string, string>) {
  const n = Object.keys(problems).length;
  const error = badInput(problems);
  return new AppError(
    'BAD_USER_INPUT',
    `Nothing was ordered: ${n} ${n === 1 ? 'line' : 'lines'} of your cart cannot be ordered as ${n === 1 ? 'it stands' : 'they stand'}. ${Object.values(problems).join('; ')}`,
    error.fields,
  );
}

/** Thrown inside writeOrders' transaction to roll every line back when one could not be taken. */
class ShortOfStock extends Error {
  constructor(readonly partIds: string[]) {
    super('short of stock');
  }
}

/** The pricing of parts changed between their read and their stock update: the orders are written again. */
class PricingChanged extends Error {
  constructor(readonly parts: PartRow[]) {
    super('pricing changed');
  }
}

/** Whether a part prices every amount as `read` did (base price, quantity breaks, pack size). */
const samePricing = (now: PartRow, read: PartRow | undefined) =>
  read !== undefined &&
  now.priceCents === read.priceCents &&
  now.packSize === read.packSize &&
  JSON.stringify(now.priceTiers) === JSON.stringify(read.priceTiers);

/**
 * Whether the line of `taken` (the part as its stock update answered it, that line's amount already off its stock)
 * may still be ordered by the purchase rules: read before the transaction, the part may have had another pack
 * size or price.
 */
function stillOrderable(taken: PartRow, lines: readonly { partId: string; orderAmount: number }[]): boolean {
  const line = lines.find((l) => l.partId === taken.id);
  if (!line || taken.priceCents < 1) return false;
  const before = { ...taken, available: taken.available + line.orderAmount };
  return check(orderAmountSchema(before), { orderAmount: line.orderAmount }).ok;
}

/** A part's price changed again and again while the order was being written (three times). */
export const priceChangedMessage = 'The price of this part is changing right now: try again in a moment';

export function createOrdersService(deps: {
  db: Db;
  parts: PartsService;
  rateLimits: RateLimiter;
  limits: OrderLimits;
  readActor: ReadActor;
}) {
  const { db, parts, rateLimits, limits, readActor } = deps;

  /** An order, if the operation's right lets the caller act on it (their own; any, where admins may). */
  async function orderFor(
    operation: SignedInOperation,
    actor: Actor | null,
    id: string,
    refusal = 'This order is not yours',
  ): Promise<OrderRow> {
    const caller = authorize(operation, actor);
    if (!isId(id)) throw notFound('Order');
    const [order] = await db.select().from(orders).where(eq(orders.id, id));
    if (!order) throw notFound('Order');
    authorizeTarget(operation, caller, order.userId, refusal);
    return order;
  }

  /** An order the caller may see: their own, or any for an admin. */
  const getOrder = (actor: Actor | null, id: string): Promise<OrderRow> => orderFor('orders.getOrder', actor, id);

  /**
   * A page of orders, newest first, with the list's total on each row (`listTotal`): one round trip (issue 15).
   * Prepared once (named statements on a PostgreSQL server).
   */
  const pageOf = (total: SQL, where?: SQL) => {
    const fields = { order: orders, listTotal: sql<number>`${total}`.mapWith(Number) };
    const select = db
      .select(fields)
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .offset(sql.placeholder('offset'))
      .limit(sql.placeholder('limit'));
    return { select, fields };
  };
  /**
   * The same page read with its caller, for a caller only claimed by its token (`AccountClaim`): the token's
   * account (`claimedAccount`, no row once deleted) joined to the page, one round trip instead of two (issue 15).
   * The account's row comes back whether the page is empty or not; the right is then decided on it by the
   * service (`authorize`), and the page is answered only if the caller holds it.
   */
  const pageWithCallerOf = (total: SQL, where?: SQL) => {
    const columns = getTableColumns(orders);
    const rows = db
      .select({ ...columns, listTotal: sql<number>`${total}`.as('list_total') })
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .offset(sql.placeholder('offset'))
      .limit(sql.placeholder('limit'))
      .as('page');
    const order = Object.fromEntries(Object.keys(columns).map((key) => [key, rows[key as keyof typeof columns]]));
    const fields = {
      caller: actorColumns,
      order: order as { [K in keyof typeof columns]: (typeof rows)[K] },
      listTotal: sql<number | null>`${rows.listTotal}`.mapWith(Number),
    };
    const select = db
      .select(fields)
      .from(users)
      .leftJoin(rows, sql`true`)
      .where(claimedAccount);
    return { select, fields };
  };
  /**
   * A list's page, alone and with its caller: prepared once (named statements on a PostgreSQL server), their rows
   * mapped by a mapper made for them (`prepareLight`).
   */
  const preparedPage = (name: string, total: SQL, where?: SQL) => {
    const alone = pageOf(total, where);
    const withCaller = pageWithCallerOf(total, where);
    return {
      page: prepareLight<{ order: OrderRow; listTotal: number }>(db, `${name}_page`, alone.select, alone.fields),
      withCaller: prepareLight<{ caller: Actor; order: OrderRow | null; listTotal: number | null }>(
        db,
        `${name}_page_with_caller`,
        withCaller.select,
        withCaller.fields,
      ),
    };
  };
  /**
   * All Orders' totals come from `order_counts`, kept by triggers in the transaction of every write to orders
   * (migration 0010): exact, and a sum of at most 64 rows instead of a count of every order. A customer's own
   * orders are few: counted with the page (a window over the rows the page is taken from).
   */
  const keptCount = (where?: SQL) =>
    db
      .select({ total: sql<number>`coalesce(sum(${orderCounts.orders}), 0)::int` })
      .from(orderCounts)
      .where(where);
  const keptTotal = (where?: SQL) => sql`(${keptCount(where).getSQL()})`;
  const ofUser = eq(orders.userId, sql.placeholder('userId'));
  const lists = {
    ofUser: {
      ...preparedPage('orders_of_user', sql`count(*) over ()`, ofUser),
      count: db.select({ total: count() }).from(orders).where(ofUser).prepare('orders_of_user_count'),
    },
    ofStatus: {
      ...preparedPage(
        'orders_of_status',
        keptTotal(eq(orderCounts.status, sql.placeholder('status'))),
        eq(orders.status, sql.placeholder('status')),
      ),
      count: keptCount(eq(orderCounts.status, sql.placeholder('status'))).prepare('order_counts_of_status'),
    },
    all: { ...preparedPage('orders_all', keptTotal()), count: keptCount().prepare('order_counts_all') },
  };
  async function listFrom(list: (typeof lists)['all'], params: Record<string, unknown>, bounds: Page) {
    return pageOfRows(list, params, bounds, await list.page.execute({ ...params, ...bounds }));
  }
  /** A page from its rows, each carrying the list's total; a page past the end has none: counted apart. */
  function pageOfRows(
    list: (typeof lists)['all'],
    params: Record<string, unknown>,
    bounds: Page,
    rows: { order: OrderRow; listTotal: number }[],
  ) {
    // Each row's order as it was mapped: copying it without the total (an object rest) cost up to a tenth of a
    // signed-in list's CPU once the server had answered other queries (issue 15).
    return pageOfCountedRows(
      bounds,
      rows,
      (row) => row.order,
      async () => (await list.count.execute(params))[0].total,
    );
  }

  /**
   * A page of a list for `operation`'s caller: read before (an Actor), or only claimed by its token, and then read
   * in the same statement as the page (`withCaller`). Either way `authorize` decides on the account as it is, and
   * in the same order: a caller without the right is refused before their input is looked at (`choose` says which
   * list and page the input asks for, and refuses bad input), and a deleted account is told so.
   */
  async function listFor(
    operation: SignedInOperation,
    caller: Actor | AccountClaim | null,
    choose: (userId: string) => { list: (typeof lists)['all']; params: Record<string, unknown>; bounds: Page },
  ) {
    if (caller === null || !isClaim(caller)) {
      const { userId } = authorize(operation, caller);
      const { list, params, bounds } = choose(userId);
      return listFrom(list, params, bounds);
    }
    let chosen: ReturnType<typeof choose>;
    try {
      chosen = choose(caller.userId);
    } catch (error) {
      const actor = await readActor(caller);
      if (!actor) throw accountGone();
      authorize(operation, actor);
      throw error;
    }
    const { list, params, bounds } = chosen;
    if (!wellFormed(caller)) throw accountGone();
    const rows = await list.withCaller.execute({
      ...params,
      callerId: caller.userId,
      callerUid: caller.firebaseUid,
      offset: bounds.offset,
      limit: bounds.limit,
    });
    if (!rows.length) throw accountGone();
    authorize(operation, rows[0].caller);
    // An empty page comes back as the caller's row alone (the page's columns null).
    const found = rows[0].order === null ? [] : (rows as { order: OrderRow; listTotal: number }[]);
    return pageOfRows(list, params, bounds, found);
  }

  /** The cap's count: an order placed alone counts one, and so does a whole checkout (however many lines). */
  const unpaidHeld = sql<number>`count(distinct coalesce(${orders.checkoutId}, ${orders.id}))::int`;
  /** What they cost together: the stock they keep off sale, bounded by UNPAID_VALUE_PER_CUSTOMER. */
  const unpaidHeldCents = sql<number>`coalesce(sum(${orders.totalCents}), 0)::bigint`.mapWith(Number);
  const heldFields = { held: unpaidHeld, heldCents: unpaidHeldCents };
  /** A customer's unpaid orders, counted and summed for the caps (built once, run in the order's transaction). */
  const unpaidHeldStatement = lightStatement<{ held: number; heldCents: number }>(
    'orders_unpaid_held',
    db
      .select(heldFields)
      .from(orders)
      .where(
        and(
          eq(orders.userId, sql.placeholder('userId')),
          holdsStock, // awaiting a company's approval holds stock as unpaid does, and counts the same
          gt(orders.expiresAt, sql`now()`),
        ),
      ),
    heldFields,
  );

  /**
   * THE one place orders are written (placeOrder and checkout both come here; so does anything that must happen
   * when an order is placed, in the same transaction): the account held, the caps on unpaid orders (how many, and
   * what they cost together: UNPAID_VALUE_PER_CUSTOMER), the server's unit price for each amount (quantity breaks, common/pricing.ts), the orders written, reserved until now() +
   * UNPAID_ORDER_EXPIRY, with their email, and last every line's amount taken off its part's stock (parts in id
   * order, so racing checkouts wait for each other but never deadlock). All or nothing: when any line cannot be
   * taken the transaction is rolled back and the answer lists the lines that failed (their part ids).
   *
   * The stock is taken last so that a part many customers order at once is locked only from its update to the
   * commit, one round trip, not across the writes before it (issue 15). The prices are therefore worked out from
   * `known`, the parts as read before the transaction; the stock update answers the part as it is now, and if
   * its pricing changed meanwhile the transaction is rolled back and written again at the new prices.
   */
  async function writeOrders(
    caller: Actor,
    contact: { name: string; phone: string; address: string },
    lines: readonly { partId: string; orderAmount: number }[],
    known: ReadonlyMap<string, PartRow>,
    options: CheckoutOptions & { checkoutId?: string } = {},
  ): Promise<{ placed: OrderRow[] } | { short: string[] } | { refused: string[] }> {
    const sorted = [...lines].sort((a, b) => (a.partId < b.partId ? -1 : a.partId > b.partId ? 1 : 0));
    let priced = known;
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await writeOrdersOnce(caller, contact, sorted, priced, options);
        // Counted (metrics), not logged: an order is its own record.
        for (let i = 0; i < result.placed.length; i++) emitEvent('order_placed');
        return result;
      } catch (error) {
        if (error instanceof ShortOfStock) return { short: error.partIds };
        if (!(error instanceof PricingChanged)) throw error;
        // New pricing may change what may be ordered, not only its price (a pack size the amount is no whole
        // number of, a price one card payment no longer carries for it): such lines are refused, not re-priced.
        const refused = error.parts.filter((part) => !stillOrderable(part, sorted)).map((part) => part.id);
        if (refused.length) return { refused };
        if (attempt >= 3) throw conflict(priceChangedMessage);
        priced = new Map([...priced, ...error.parts.map((part) => [part.id, part] as const)]);
      }
    }
  }

  async function writeOrdersOnce(
    caller: Actor,
    contact: { name: string; phone: string; address: string },
    sorted: readonly { partId: string; orderAmount: number }[],
    priced: ReadonlyMap<string, PartRow>,
    options: CheckoutOptions & { checkoutId?: string },
  ): Promise<{ placed: OrderRow[] }> {
    return db.transaction(async (tx) => {
      // The account first (held against the customer's other orders, so the cap below counts with none of
      // theirs in flight: two at once cannot both slip past it).
      if (!(await holdAccount(tx, caller.userId, 'no key update'))) throw accountGone();
      const [{ held, heldCents }] = await unpaidHeldStatement(tx).execute({ userId: caller.userId });
      if (held >= limits.unpaidPerCustomer) throw conflict(tooManyUnpaidOrders(held));
      // Company prices (issue 35 point 3): the caller's company's list as it is now, in this transaction, prices
      // every line by the one rule (common/pricing.ts `buyerPrice`: the lower of the list's and the company's).
      const buyer = await buyerPricesFor(
        tx,
        caller.userId,
        sorted.map((l) => l.partId),
      );
      const rows: (PgInsertValue<typeof orders> & { totalCents: number })[] = [];
      const gone: string[] = [];
      for (const line of sorted) {
        const part = priced.get(line.partId);
        if (!part) {
          gone.push(line.partId);
          continue;
        }
        const { unitPriceCents: unit, companyPriced } = buyerPrice(
          part,
          line.orderAmount,
          companyPriceOf(buyer, part.id),
        );
        rows.push({
          userId: caller.userId,
          email: caller.email ?? '',
          name: contact.name,
          phone: contact.phone,
          address: contact.address,
          partId: part.id,
          partName: part.name,
          partImage: part.image,
          orderAmount: line.orderAmount,
          unitPriceCents: unit,
          totalCents: unit * line.orderAmount,
          companyPriced,
          checkoutId: options.checkoutId ?? null,
          expiresAt: sql`now() + make_interval(secs => ${limits.unpaidExpiryMs / 1000})`,
        });
      }
      if (gone.length) throw new ShortOfStock(gone);
      const total = rows.reduce((sum, row) => sum + row.totalCents, 0);
      if (options.expectedTotalCents !== undefined && total !== options.expectedTotalCents) {
        throw conflict(totalChangedMessage(total));
      }
      if (options.checkoutId && total > maxChargeCents) throw conflict(checkoutTooLargeMessage);
      // Counted with the account held, like the cap above: two orders at once cannot both fit under it.
      if (heldCents + total > limits.unpaidValuePerCustomerCents) {
        throw conflict(tooMuchHeldUnpaid(heldCents, total, limits.unpaidValuePerCustomerCents));
      }
      // Above a company buyer's limit per order: placed awaiting a company admin's approval (issue 35), holding
      // its stock as unpaid orders do.
      const status = await placedStatus(tx, caller.userId, total);
      // A part deleted since it was read fails the orders' foreign key: short, as a part gone is.
      const placed = await tx
        .insert(orders)
        .values(rows.map((row) => ({ ...row, status })))
        .returning()
        .catch((error: unknown) => {
          if (sqlState(error) === '23503') throw new ShortOfStock(sorted.map((l) => l.partId));
          throw error;
        });
      // The email tells the pay-by time; it exists only if the orders do (same transaction).
      if (status === 'awaiting_approval') await requestApproval(tx, placed);
      else await enqueueEmail(tx, orderPlacedEmail(placed, options.checkoutId));
      await options.also?.(tx, placed);
      const short: string[] = [];
      const changed: PartRow[] = [];
      for (const line of sorted) {
        const taken = await takeStock(tx, line.partId, line.orderAmount);
        if (!taken) short.push(line.partId);
        else if (!samePricing(taken, priced.get(line.partId))) changed.push(taken);
      }
      if (short.length) throw new ShortOfStock(short);
      if (changed.length) throw new PricingChanged(changed);
      return { placed };
    });
  }

  /**
   * The part to order, and whether unpaid orders of it are due but not swept yet (their stock can come back
   * first): one round trip, so that asking for a sold-out part again and again costs two statements with the
   * caller's (issue 15).
   */
  const partToOrderFields = {
    part: partsTable,
    hasDueOrders: partHasDueOrders(partsTable.id),
  };
  const partToOrderStatement = prepareLight<{ part: PartRow; hasDueOrders: boolean }>(
    db,
    'part_to_order',
    db
      .select(partToOrderFields)
      .from(partsTable)
      .where(eq(partsTable.id, sql.placeholder('id'))),
    partToOrderFields,
  );
  async function partToOrder(id: string) {
    if (!isId(id)) throw notFound('Part');
    const [found] = await partToOrderStatement.execute({ id });
    if (!found) throw notFound('Part');
    return found;
  }
  /**
   * The same read with its caller, for a caller only claimed by its token (`AccountClaim`): the token's account
   * (`claimedAccount`, no row once deleted) with the part to order left-joined, one round trip instead of two
   * (issue 15): a refused order (sold out, bad input) then costs one statement. No row: the account is gone.
   */
  const partToOrderWithCallerFields = { caller: actorColumns, ...partToOrderFields };
  const partToOrderWithCaller = prepareLight<{ caller: Actor; part: PartRow | null; hasDueOrders: boolean }>(
    db,
    'part_to_order_with_caller',
    db
      .select(partToOrderWithCallerFields)
      .from(users)
      .leftJoin(partsTable, eq(partsTable.id, sql.placeholder('id')))
      .where(claimedAccount),
    partToOrderWithCallerFields,
  );
  /**
   * The caller a token claims and the part it would order (null when there is no such part), read together; a
   * part id that cannot name a part reads the caller alone.
   */
  async function callerWithPartToOrder(claim: AccountClaim, id: string) {
    if (!wellFormed(claim)) throw accountGone();
    if (!isId(id)) {
      const actor = await readActor(claim);
      if (!actor) throw accountGone();
      return { actor, found: null };
    }
    const [row] = await partToOrderWithCaller.execute({ id, callerId: claim.userId, callerUid: claim.firebaseUid });
    if (!row) throw accountGone();
    const { caller: actor, part, hasDueOrders } = row;
    return { actor, found: part ? { part, hasDueOrders } : null };
  }

  /**
   * One order (the purchase page): the purchase rules, then writeOrders. Short of stock, orders of the part
   * that are due but not yet swept give theirs back first, and it is tried once more.
   */
  async function place(
    caller: Actor,
    input: { partId: string } & Record<string, unknown>,
    found: Awaited<ReturnType<typeof partToOrder>>,
  ): Promise<OrderRow> {
    let part = found.part;
    // A part priced 0 (added before prices had to be positive) cannot be paid for, so it is not sold.
    if (part.priceCents < 1) throw badInput({ partId: messages.partNotForSale });
    let result = check(purchaseSchema(part), input);
    const expireDueOfPart = () => expireDueOrders(db, eq(orders.partId, part.id));
    if (!result.ok && result.errors.orderAmount && found.hasDueOrders && (await expireDueOfPart())) {
      part = await parts.getPart(part.id);
      result = check(purchaseSchema(part), input);
    }
    if (!result.ok) throw badInput(result.errors);
    const { name, phone, orderAmount, address } = result.value;
    const contact = { name, phone, address: address ?? '' };
    const lines = [{ partId: part.id, orderAmount }];
    const known = new Map([[part.id, part]]);
    let outcome = await writeOrders(caller, contact, lines, known);
    if ('short' in outcome && (await expireDueOfPart())) outcome = await writeOrders(caller, contact, lines, known);
    if ('placed' in outcome) return outcome.placed[0];
    // Other orders got there first, or the part's rules changed meanwhile: tell the customer what holds now.
    const now = await parts.getPart(part.id);
    const recheck = check(purchaseSchema(now), input);
    if (!recheck.ok) throw badInput(recheck.errors);
    if ('refused' in outcome) throw conflict(priceChangedMessage); // changed, and changed back since
    throw badInput({ orderAmount: messages.orderAmountAboveAvailable(now.available) });
  }

  /**
   * Why each line cannot be ordered as it stands (keyed `lines.<partId>`, the message naming the part); empty
   * when every line can be taken now. The lines of `raced` (their stock was short while the orders were being
   * written) that look fine now say that racing orders took the stock.
   */
  async function lineProblems(lines: readonly { partId: string; orderAmount: number }[], raced: string[] = []) {
    const problems: Record<string, string> = {};
    const found = await db
      .select()
      .from(partsTable)
      .where(
        inArray(
          partsTable.id,
          lines.map((l) => l.partId),
        ),
      );
    const byId = new Map(found.map((p) => [p.id, p]));
    for (const line of lines) {
      const part = byId.get(line.partId);
      if (!part) {
        problems[`lines.${line.partId}`] = partGoneMessage;
        continue;
      }
      if (part.priceCents < 1) {
        problems[`lines.${line.partId}`] = `${part.name}: ${messages.partNotForSale}`;
        continue;
      }
      const result = check(orderAmountSchema(part), { orderAmount: line.orderAmount });
      if (!result.ok) problems[`lines.${line.partId}`] = `${part.name}: ${result.errors.orderAmount}`;
      else if (raced.includes(line.partId)) {
        problems[`lines.${line.partId}`] = `${part.name}: ${stockTakenMessage(part.available)}`;
      }
    }
    return { problems, parts: byId };
  }

  /**
   * Places every line as an order in one transaction, all sharing a new checkout id: all or nothing. When a
   * line cannot be taken (the rules, or racing orders took the stock) nothing is taken and BAD_USER_INPUT names
   * each failing line (`lines.<partId>`: "<part name>: <message>"). Answers the orders, oldest line first.
   */
  async function placeCheckout(
    caller: Actor,
    contact: { name: string; phone: string; address: string },
    lines: readonly { partId: string; orderAmount: number }[],
    options: CheckoutOptions = {},
  ): Promise<OrderRow[]> {
    if (!lines.length) throw badInput({ lines: emptyCartMessage });
    const dueOf = (ids: string[]) => expireDueOrders(db, inArray(orders.partId, ids));
    let checked = await lineProblems(lines);
    if (Object.keys(checked.problems).length && (await dueOf(lines.map((l) => l.partId)))) {
      checked = await lineProblems(lines);
    }
    if (Object.keys(checked.problems).length) throw checkoutRefused(checked.problems);
    const checkoutId = randomUUID();
    let outcome = await writeOrders(caller, contact, lines, checked.parts, { ...options, checkoutId });
    if ('short' in outcome && (await dueOf(outcome.short))) {
      outcome = await writeOrders(caller, contact, lines, checked.parts, { ...options, checkoutId });
    }
    if ('placed' in outcome) {
      const position = new Map(lines.map((l, i) => [l.partId, i]));
      return outcome.placed.sort((a, b) => (position.get(a.partId ?? '') ?? 0) - (position.get(b.partId ?? '') ?? 0));
    }
    // Racing orders took stock first, or a part's rules changed meanwhile: each failing line says what holds now
    // (what is left, a pack size, a deleted part that it is gone).
    const { problems } = await lineProblems(lines, 'short' in outcome ? outcome.short : []);
    if (!Object.keys(problems).length) throw conflict(priceChangedMessage); // changed, and changed back since
    throw checkoutRefused(problems);
  }

  return {
    getOrder,
    orderFor,
    placeCheckout,

    /**
     * The checkout an order (already shown to its caller) was placed in: all its orders, oldest line first,
     * and their sum, which one payment pays. Null for an order placed alone.
     */
    async checkoutOf(order: OrderRow): Promise<{ checkoutId: string; orders: OrderRow[]; totalCents: number } | null> {
      if (!order.checkoutId) return null;
      const group = await db
        .select()
        .from(orders)
        .where(and(eq(orders.checkoutId, order.checkoutId), eq(orders.userId, order.userId ?? sql`null`)))
        .orderBy(orders.createdAt, orders.id);
      return {
        checkoutId: order.checkoutId,
        orders: group,
        totalCents: group.reduce((sum, o) => sum + o.totalCents, 0),
      };
    },

    /** The sweep: expires the due unpaid orders (any replica, any time); answers how many. */
    expireDueOrders: () => expireDueOrders(db),

    /**
     * An order about to be paid: refused with 409 once it has expired (expired here if it is due and the sweep
     * has not come yet), or if it is paid already.
     */
    async requirePayable(order: OrderRow): Promise<void> {
      // Due but not swept yet: expired now (the database's clock decides, not this process's).
      if (order.status === 'unpaid' && (await expireOrderIfDue(db, order.id))) throw conflict(orderExpiredMessage);
      if (order.status !== 'unpaid') throw conflict(notPayableMessage(order.status));
    },

    /**
     * Places an order for the signed-in user: the spec's purchase rules, the server's price, and the amount
     * taken off the stock in the same transaction as the order is written.
     */
    async placeOrder(
      actor: Actor | AccountClaim | null,
      input: { partId: string } & Record<string, unknown>,
      client?: Client,
    ): Promise<OrderRow> {
      const partId = String(input.partId ?? '');
      // Only claimed by its token: the caller is read with the part; read before, the part is read once it may order.
      const read = actor !== null && isClaim(actor) ? await callerWithPartToOrder(actor, partId) : null;
      const caller = authorize('orders.placeOrder', read ? read.actor : (actor as Actor | null));
      // The REST shim's order document names an email: it must be the caller's (orders are theirs, by id).
      if (typeof input.email === 'string' && input.email.trim().toLowerCase() !== caller.email) {
        throw badInput({ email: 'Orders are placed with your own email' });
      }
      // Counted now, given back if the order is refused: only accepted orders use up the rate limits.
      const attempt = await rateLimits.orderBy(caller.userId, client);
      try {
        if (read && !read.found) throw notFound('Part');
        return await place(caller, input, read?.found ?? (await partToOrder(partId)));
      } catch (error) {
        await attempt.refused();
        throw error;
      }
    },

    /** The caller's orders, newest first. */
    async myOrders(caller: Actor | AccountClaim | null, args: { offset?: number | null; limit?: number | null }) {
      return listFor('orders.myOrders', caller, (userId) => ({
        list: lists.ofUser,
        params: { userId },
        bounds: page(args.offset, args.limit, pageSizes.orders),
      }));
    },

    /**
     * The orders of the account that holds `email` now: that user themselves, or an admin (the REST shim's
     * /orders/filter). Read by the account's id: orders are never found by the email stored on them.
     */
    async ordersByEmail(actor: Actor | null, email: string): Promise<OrderRow[]> {
      const userId = await accountNamedBy(db, 'orders.ordersByEmail', actor, email);
      if (!userId) return [];
      return db
        .select()
        .from(orders)
        .where(eq(orders.userId, userId))
        .orderBy(desc(orders.createdAt), desc(orders.id))
        .limit(1000);
    },

    /** All orders, newest first, optionally of one status (admin; the REST shim passes the query's text). */
    async allOrders(
      caller: Actor | AccountClaim | null,
      args: { status?: string | null; offset?: number | null; limit?: number | null },
    ) {
      return listFor('orders.allOrders', caller, () => {
        const status = args.status?.trim().toLowerCase() || null;
        if (status !== null && !orderStatuses.includes(status as OrderStatus)) {
          throw badInput({ status: `Must be one of ${orderStatuses.join(', ')}` });
        }
        const bounds = page(args.offset, args.limit, pageSizes.orders);
        return status ? { list: lists.ofStatus, params: { status }, bounds } : { list: lists.all, params: {}, bounds };
      });
    },

    /**
     * Cancels (deletes) an unpaid order and gives its stock back: the owner's, or any for an admin. An expired
     * order may be deleted too (its stock went back when it expired). A paid order cannot be cancelled.
     */
    async cancelOrder(actor: Actor | null, id: string): Promise<string> {
      const order = await orderFor('orders.cancelOrder', actor, id);
      // Awaiting a company's approval: the whole checkout goes, once, unless a decision or the expiry came first.
      if (order.status === 'awaiting_approval') {
        return db.transaction(async (tx) => {
          if ((await cancelAwaitingIn(tx, order)).length) return id;
          const [now] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, id));
          if (!now) throw notFound('Order'); // cancelled by a request that got there first
          throw conflict(cancelRefusal(now.status));
        });
      }
      if (!deletable.includes(order.status)) throw conflict('A paid order cannot be cancelled');
      return db.transaction(async (tx) => {
        // The status check in the statement settles a race with a payment or the expiry, which lock the same
        // row: the delete waits for them and then finds the order paid or expired, or they wait for the delete
        // and then find no order. The stock comes back at most once: here only if it was still unpaid.
        const [deleted] = await tx
          .delete(orders)
          .where(and(eq(orders.id, id), inArray(orders.status, deletable)))
          .returning();
        if (!deleted) {
          const [now] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, id));
          if (!now) throw notFound('Order'); // cancelled by a request that got there first
          throw conflict('A paid order cannot be cancelled');
        }
        if (deleted.status === 'unpaid') await releaseStock(tx, deleted.partId, deleted.orderAmount);
        // An intent made for it is asked about now: refunded if it was charged, else cancelled at the gateway.
        await tx
          .update(gatewayIntents)
          .set({ nextCheckAt: sql`now()` })
          .where(and(inArray(gatewayIntents.orderId, intentKeys([deleted], [id])), eq(gatewayIntents.status, 'open')));
        return id;
      });
    },

    /**
     * Marks a paid order shipped (admin). Shipping again changes nothing: `changed` says whether this call
     * shipped it (of two at once, one).
     */
    async markShipped(actor: Actor | null, id: string): Promise<{ order: OrderRow; changed: boolean }> {
      const order = await orderFor('orders.markShipped', actor, id);
      if (order.status === 'shipped') return { order, changed: false };
      if (order.status !== 'paid') throw conflict('Only paid orders can be shipped');
      if (refundedInFull(order)) throw conflict(refundedNotShipped);
      // The order of a customer since deleted kept their details only to be delivered: now they go.
      const keptUnlessDetached = (column: typeof orders.name | typeof orders.phone | typeof orders.address) =>
        sql<string>`case when ${orders.userId} is null then '' else ${column} end`;
      const shipped = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(orders)
          .set({
            status: 'shipped',
            shippedAt: new Date(),
            name: keptUnlessDetached(orders.name),
            phone: keptUnlessDetached(orders.phone),
            address: keptUnlessDetached(orders.address),
          })
          // A refund recorded meanwhile (the Stripe webhook) wins: the order is not shipped.
          .where(and(eq(orders.id, id), eq(orders.status, 'paid'), lt(orders.refundedCents, orders.totalCents)))
          .returning();
        // A deleted customer's order (detached, details cleared) has no one to tell.
        if (row?.userId) await enqueueEmail(tx, shippedEmail(row));
        return row;
      });
      if (shipped) return { order: shipped, changed: true };
      const now = await getOrder(actor, id);
      if (now.status === 'paid' && refundedInFull(now)) throw conflict(refundedNotShipped);
      return { order: now, changed: false };
    },
  };
}

/** A paid order whose whole payment came back (a refund made at Stripe, issue 32) is not shipped. */
const refundedInFull = (order: OrderRow) => order.refundedCents >= order.totalCents;
const refundedNotShipped = 'This order was refunded in full, so it is not shipped';

export type OrdersService = ReturnType<typeof createOrdersService>;
