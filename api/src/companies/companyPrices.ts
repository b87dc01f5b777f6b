import {
  checkPercentOff,
  checkPriceTiers,
  companyPriceMessages,
  dollarsToCents,
  maxChargeCents,
  type CompanyPrice,
  type PriceTier,
  type PriceTierInput,
  type Priced,
} from '@partsyard/common';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Db, Tx } from '../db/database';
import { parts, type PartRow } from '../db/schema';
import { badInput, notFound } from '../errors';
import type { Actor } from '../services/actor';
import { isId, page, pageSizes, pageWithTotal, type Page } from '../services/paging';
import { authorize, authorizeCompany, type SignedInOperation } from '../services/rights';
import { companies, companyMembers } from './companiesSchema';
import { companyPartPrices, companyPriceLists } from './companyPricesSchema';

/**
 * Company prices (issue 35 point 3; docs/companies.md): a shop admin gives a company a price list (a percentage
 * off and/or fixed unit prices per part with their own breaks); every line a member buys is priced by
 * common/src/pricing.ts's `buyerPrice` (the lower of the list price and the company's at that quantity).
 *
 * Public answers never carry a company's prices: the catalog stays one answer for everyone, and a member's client
 * asks `myPrices(partIds)` beside it. That answer is kept in memory per price list (the whole list, at most
 * `companyPriceLimits.partsPerCompany` rows) under its `version`, which every change moves; each call reads the
 * caller's membership and the list's version in one statement, so a change (on any replica) is seen at once.
 */

export const companyPriceLimits = {
  /** The most parts one company may have fixed prices for. */
  partsPerCompany: 5000,
  /** The most parts one `myPrices` call may ask about (a page of the catalog is at most 100). */
  myPricesIds: 200,
  /** Price lists kept in memory at once (the least recently asked go first). */
  listsKept: 200,
} as const;

export const companyPriceListMessages = {
  ...companyPriceMessages,
  tooManyParts: `A company may have fixed prices for at most ${companyPriceLimits.partsPerCompany} parts: remove some first`,
  tooManyIds: `Ask about at most ${companyPriceLimits.myPricesIds} parts at once`,
  partIds: 'Part ids are a list of ids',
  noPartPrice: 'This company has no fixed price for this part',
} as const;

/** A member's company prices, for some parts (or the whole list when kept). */
export interface BuyerPrices {
  companyId: string;
  version: number;
  percentOffBasisPoints: number | null;
  /** Fixed prices by part id. */
  fixed: ReadonlyMap<string, Priced>;
}

/** What the rule needs of `buyer`'s list for one part (null for a buyer in no company or without a list). */
export const companyPriceOf = (buyer: BuyerPrices | null, partId: string): CompanyPrice | null =>
  buyer ? { percentOffBasisPoints: buyer.percentOffBasisPoints, fixed: buyer.fixed.get(partId) ?? null } : null;

/** The caller's company's price list head (its id, percentage, version), or null when they have none. */
async function listHeadOf(db: Db | Tx, userId: string) {
  const [head] = await db
    .select({
      companyId: companyPriceLists.companyId,
      percentOffBasisPoints: companyPriceLists.percentOffBasisPoints,
      version: companyPriceLists.version,
    })
    .from(companyMembers)
    .innerJoin(companyPriceLists, eq(companyPriceLists.companyId, companyMembers.companyId))
    .where(eq(companyMembers.userId, userId));
  return head ?? null;
}

const tiersOf = (tiers: PriceTier[] | null) => tiers ?? [];

/**
 * The prices of `userId`'s company for `partIds`, read now (inside the caller's transaction when given one: the
 * checkout prices its lines with the list as it is when the orders are written). Null for an account in no
 * company, or whose company has no price list. One statement for them; two for a member.
 */
export async function buyerPricesFor(
  db: Db | Tx,
  userId: string,
  partIds: readonly string[],
): Promise<BuyerPrices | null> {
  const head = await listHeadOf(db, userId);
  if (!head) return null;
  const ids = [...new Set(partIds)].filter(isId);
  const rows = ids.length
    ? await db
        .select({
          partId: companyPartPrices.partId,
          priceCents: companyPartPrices.priceCents,
          priceTiers: companyPartPrices.priceTiers,
        })
        .from(companyPartPrices)
        .where(
          and(
            eq(companyPartPrices.companyId, head.companyId),
            sql`${companyPartPrices.partId} = any(${sql.param(ids)}::uuid[])`,
          ),
        )
    : [];
  return {
    ...head,
    fixed: new Map(rows.map((r) => [r.partId, { priceCents: r.priceCents, priceTiers: tiersOf(r.priceTiers) }])),
  };
}

/** A fixed price as shown to a member (`myPrices`) or an admin. */
export interface PartPriceView {
  partId: string;
  priceCents: number;
  priceTiers: PriceTier[];
}

/** What `myPrices` answers: the caller's company's percentage off and fixed prices for the parts asked. */
export interface MyPricesView {
  companyId: string;
  percentOffBasisPoints: number | null;
  parts: PartPriceView[];
}

/** A fixed price with its part, as the price list shows it. */
export type CompanyPartPriceView = PartPriceView & { part: PartRow };

/** A company's price list as its admins and the shop's see it: a page of its fixed prices. */
export interface CompanyPriceListView {
  companyId: string;
  percentOffBasisPoints: number | null;
  version: number;
  items: CompanyPartPriceView[];
  total: number;
}

export function createCompanyPricesService(deps: { db: Db }) {
  const { db } = deps;
  /** Whole price lists by company, each under the version it was read at. */
  const kept = new LRUCache<string, BuyerPrices>({ max: companyPriceLimits.listsKept });

  /** The company `companyId`, when `operation`'s right lets the caller act on it (see companiesService). */
  async function onCompany(operation: SignedInOperation, actor: Actor | null, companyId: unknown, tx: Db | Tx = db) {
    const caller = authorize(operation, actor);
    if (typeof companyId !== 'string' || !isId(companyId)) throw notFound('Company');
    const [company] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
    if (!company) throw notFound('Company');
    const [membership] = await tx
      .select({ companyId: companyMembers.companyId, role: companyMembers.role })
      .from(companyMembers)
      .where(eq(companyMembers.userId, caller.userId))
      .limit(1);
    authorizeCompany(operation, caller, membership?.companyId === company.id ? membership.role : null);
    return { caller, companyId: company.id };
  }

  /**
   * Runs a change of company `companyId`'s price list in one transaction with its list's row held (made when it
   * has none), and moves the list's version.
   */
  function changeList<T>(
    operation: SignedInOperation,
    actor: Actor | null,
    companyId: unknown,
    work: (tx: Tx, id: string) => Promise<T>,
  ): Promise<T> {
    return db.transaction(async (tx) => {
      const { companyId: id } = await onCompany(operation, actor, companyId, tx);
      await tx
        .insert(companyPriceLists)
        .values({ companyId: id })
        .onConflictDoUpdate({
          target: companyPriceLists.companyId,
          set: { version: sql`${companyPriceLists.version} + 1`, updatedAt: sql`now()` },
        });
      return work(tx, id);
    });
  }

  async function priceList(companyId: string, bounds: Page): Promise<CompanyPriceListView> {
    const [head] = await db.select().from(companyPriceLists).where(eq(companyPriceLists.companyId, companyId)).limit(1);
    const where = eq(companyPartPrices.companyId, companyId);
    const { items, total } = await pageWithTotal(
      bounds,
      () =>
        db
          .select({ price: companyPartPrices, part: parts })
          .from(companyPartPrices)
          .innerJoin(parts, eq(parts.id, companyPartPrices.partId))
          .where(where)
          .orderBy(asc(parts.sku), asc(parts.id))
          .offset(bounds.offset)
          .limit(bounds.limit),
      async () => (await db.select({ n: count() }).from(companyPartPrices).where(where))[0].n,
    );
    return {
      companyId,
      percentOffBasisPoints: head?.percentOffBasisPoints ?? null,
      version: head?.version ?? 0,
      items: items.map(({ price, part }) => ({
        partId: part.id,
        part,
        priceCents: price.priceCents,
        priceTiers: tiersOf(price.priceTiers),
      })),
      total,
    };
  }

  return {
    /**
     * The caller's company prices for `partIds` (at most 200): its percentage off and the fixed prices of those
     * parts; null for a caller in no company or whose company has no price list. Never part of a public answer.
     */
    async myPrices(actor: Actor | null, partIds: unknown): Promise<MyPricesView | null> {
      const caller = authorize('companies.myPrices', actor);
      if (!Array.isArray(partIds) || partIds.some((id) => typeof id !== 'string'))
        throw badInput({ partIds: companyPriceListMessages.partIds });
      if (partIds.length > companyPriceLimits.myPricesIds)
        throw badInput({ partIds: companyPriceListMessages.tooManyIds });
      const head = await listHeadOf(db, caller.userId);
      if (!head) return null;
      let list = kept.get(head.companyId);
      if (!list || list.version !== head.version) {
        const whole = await db
          .select({
            partId: companyPartPrices.partId,
            priceCents: companyPartPrices.priceCents,
            priceTiers: companyPartPrices.priceTiers,
          })
          .from(companyPartPrices)
          .where(eq(companyPartPrices.companyId, head.companyId));
        list = {
          ...head,
          fixed: new Map(whole.map((r) => [r.partId, { priceCents: r.priceCents, priceTiers: tiersOf(r.priceTiers) }])),
        };
        // Kept under the version read before it: a change since moved the version, so the next call reads again.
        kept.set(head.companyId, list);
      }
      const answered = list;
      const ids = [...new Set(partIds as string[])];
      return {
        companyId: head.companyId,
        percentOffBasisPoints: head.percentOffBasisPoints,
        parts: ids.flatMap((partId) => {
          const fixed = answered.fixed.get(partId);
          return fixed ? [{ partId, priceCents: fixed.priceCents, priceTiers: [...(fixed.priceTiers ?? [])] }] : [];
        }),
      };
    },

    /** A company's price list, a page of its fixed prices by SKU (the company's admins, and the shop's). */
    async companyPriceList(
      actor: Actor | null,
      companyId: unknown,
      args: { offset?: number | null; limit?: number | null } = {},
    ): Promise<CompanyPriceListView> {
      authorize('companies.priceList', actor);
      const bounds = page(args.offset, args.limit, pageSizes.companyPrices);
      const { companyId: id } = await onCompany('companies.priceList', actor, companyId);
      return priceList(id, bounds);
    },

    /** Sets the company's percentage off the list price (12.5 = 12.5 %; null: none). Shop admins. */
    async setCompanyPercentOff(actor: Actor | null, companyId: unknown, percentOff: unknown) {
      const checked = checkPercentOff(percentOff);
      if (!checked.ok) throw badInput({ percentOff: checked.error });
      const id = await changeList('companies.setPercentOff', actor, companyId, async (tx, id) => {
        await tx
          .update(companyPriceLists)
          .set({ percentOffBasisPoints: checked.value })
          .where(eq(companyPriceLists.companyId, id));
        return id;
      });
      return priceList(id, page(0, null, pageSizes.companyPrices));
    },

    /**
     * Sets a part's fixed unit price for the company (dollars), with its own quantity breaks, checked as a part's
     * are (ascending, each cheaper, from the part's minimum order on). At most 5,000 parts per company. Shop admins.
     */
    async setCompanyPartPrice(
      actor: Actor | null,
      companyId: unknown,
      partId: unknown,
      input: { price: unknown; priceTiers?: unknown },
    ): Promise<CompanyPartPriceView> {
      const price = input.price;
      if (typeof price !== 'number' || !Number.isFinite(price) || dollarsToCents(price) < 1)
        throw badInput({ price: companyPriceListMessages.priceRequired });
      const priceCents = dollarsToCents(price);
      if (priceCents > maxChargeCents) throw badInput({ price: companyPriceListMessages.priceTooHigh });
      // A part and its checks before anything is held: NOT_FOUND and BAD_USER_INPUT change nothing.
      authorize('companies.setPartPrice', actor);
      if (typeof partId !== 'string' || !isId(partId)) throw notFound('Part');
      const [part] = await db.select().from(parts).where(eq(parts.id, partId));
      if (!part) throw notFound('Part');
      const tiers = checkPriceTiers((input.priceTiers ?? []) as readonly PriceTierInput[], {
        priceCents,
        minOrder: part.minOrder,
      });
      if (!tiers.ok) throw badInput(tiers.errors);
      return changeList('companies.setPartPrice', actor, companyId, async (tx, id) => {
        const [{ n }] = await tx
          .select({ n: count() })
          .from(companyPartPrices)
          .where(and(eq(companyPartPrices.companyId, id), sql`${companyPartPrices.partId} <> ${part.id}`));
        if (n >= companyPriceLimits.partsPerCompany) throw badInput({ partId: companyPriceListMessages.tooManyParts });
        await tx
          .insert(companyPartPrices)
          .values({ companyId: id, partId: part.id, priceCents, priceTiers: tiers.value })
          .onConflictDoUpdate({
            target: [companyPartPrices.companyId, companyPartPrices.partId],
            set: { priceCents, priceTiers: tiers.value, updatedAt: sql`now()` },
          });
        return { partId: part.id, part, priceCents, priceTiers: tiers.value };
      });
    },

    /** Removes a part's fixed price for the company (NOT_FOUND when it has none). Shop admins. */
    async removeCompanyPartPrice(actor: Actor | null, companyId: unknown, partId: unknown): Promise<boolean> {
      authorize('companies.removePartPrice', actor);
      if (typeof partId !== 'string' || !isId(partId)) throw notFound('Company price');
      return changeList('companies.removePartPrice', actor, companyId, async (tx, id) => {
        const removed = await tx
          .delete(companyPartPrices)
          .where(and(eq(companyPartPrices.companyId, id), eq(companyPartPrices.partId, partId)))
          .returning({ partId: companyPartPrices.partId });
        if (!removed.length) throw notFound('Company price');
        return true;
      });
    },
  };
}

export type CompanyPricesService = ReturnType<typeof createCompanyPricesService>;
