import { and, count, desc, gt, gte, inArray, lt, sql, sum } from 'drizzle-orm';
import type { Db } from '../db/database';
import { contactMessages, orderCounts, orders, parts, type ContactMessageRow } from '../db/schema';
import type { Actor } from './actor';
import { holdsStock } from './expiry';
import { authorize } from './rights';
import type { OrderStatus } from './ordersService';

/**
 * The admin's overview of the business (issue 14, point 5). Every figure is an SQL aggregate computed by the
 * database (never rows summed in this process), each one a statement an index serves on the bench data
 * (10,000 parts, 100,000 orders): revenue is read through `orders_paid_at_idx`, reservations through the
 * unpaid orders' partial index, running-low parts scan the parts table once.
 *
 * Revenue is what paid orders (paid or shipped) brought, counted on the UTC day they were paid.
 */

export const overviewDays = 30;
export const overviewTopParts = 5;
export const overviewLowStock = 10;
export const overviewMessages = 5;

export interface DayRevenue {
  /** YYYY-MM-DD (UTC). */
  day: string;
  revenueCents: number;
  orders: number;
}

export interface AdminOverview {
  /** The last `overviewDays` UTC days, oldest first, today last; a day with no sale is there with 0. */
  revenueByDay: DayRevenue[];
  revenueCents: number;
  ordersByStatus: { status: OrderStatus; count: number }[];
  /** Units held by unpaid orders that have not expired yet, and how many such orders. */
  unitsReserved: number;
  unpaidOrders: number;
  /** The parts that brought the most revenue over the same days. */
  topParts: { partId: string | null; name: string; revenueCents: number; units: number }[];
  /** Parts whose stock is below twice their minimum order (fewest orders' worth first), and how many there are. */
  lowStock: { id: string; name: string; available: number; minOrder: number }[];
  lowStockTotal: number;
  latestMessages: ContactMessageRow[];
  /** When these figures were computed (ISO 8601): one computation may serve a few seconds (OverviewReuse). */
  computedAt: string;
}

const paid: OrderStatus[] = ['paid', 'shipped'];
const statuses: OrderStatus[] = ['unpaid', 'paid', 'shipped', 'expired', 'awaiting_approval', 'declined'];

/** YYYY-MM-DD of a UTC day `back` days before `today`. */
function dayBefore(today: string, back: number): string {
  const at = new Date(`${today}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() - back);
  return at.toISOString().slice(0, 10);
}

/**
 * When one computed overview may be answered again (issue 15: 32 admins at once cost the database 40 ms of CPU
 * each). The overview is the same for every admin, so one computation serves all of them, including those
 * asking while it runs, for `maxAgeMs` and while `generation` is unchanged: it changes with every change made
 * through this process and every one a replica announces (http/answerCache.ts, writeBus.ts), so an admin who
 * ships an order sees it at once. What no request writes (an unpaid order expiring, a change made in SQL) shows
 * within `maxAgeMs`. An overview computed while a write runs is kept under the generation its computation began
 * in, which the write's change moves: the next admin gets one computed after it.
 */
export interface OverviewReuse {
  maxAgeMs: number;
  generation: () => number;
  now?: () => number;
}

export function createOverviewService(db: Db, reuse?: OverviewReuse) {
  const now = reuse?.now ?? Date.now;
  const maxAgeMs = reuse?.maxAgeMs ?? 0;
  let kept: { at: number; generation: number; overview: Promise<AdminOverview> } | undefined;

  async function computed(): Promise<AdminOverview> {
    const computedAt = new Date(now()).toISOString();
    // The database's clock decides what "today" is (replicas may disagree), as the expiry does.
    const [{ today }] = await db
      .select({ today: sql<string>`to_char(now() at time zone 'UTC', 'YYYY-MM-DD')` })
      .from(sql`(values (1)) as clock(one)`);
    /** Midnight UTC starting the first of the days shown. */
    const since = new Date(`${dayBefore(today, overviewDays - 1)}T00:00:00Z`);
    const paidSince = and(inArray(orders.status, paid), gte(orders.paidAt, since));
    // Grouped by the UTC date (a cheap cast per row), formatted once per day.
    const paidDate = sql`(${orders.paidAt} at time zone 'UTC')::date`;
    const paidDay = sql<string>`to_char(${paidDate}, 'YYYY-MM-DD')`;

    const [days, byStatus, [reserved], top, low, [lowTotal], messages] = await Promise.all([
      db
        .select({ day: paidDay, revenueCents: sum(orders.totalCents).mapWith(Number), orders: count() })
        .from(orders)
        .where(paidSince)
        .groupBy(paidDate),
      // Kept with every write (migration 0010): no scan of every order.
      db
        .select({ status: orderCounts.status, count: sql<number>`sum(${orderCounts.orders})::int` })
        .from(orderCounts)
        .groupBy(orderCounts.status),
      db
        .select({ units: sum(orders.orderAmount).mapWith(Number), orders: count() })
        .from(orders)
        .where(and(holdsStock, gt(orders.expiresAt, sql`now()`))),
      // Grouped from orders_paid_at_idx alone (its INCLUDE columns), then the five joined to their parts; the
      // orders of deleted parts (part_id null) are one line, named after those orders.
      db
        .execute(
          sql`with top as (
                  select ${orders.partId} as part_id, sum(${orders.totalCents}) as revenue, sum(${orders.orderAmount}) as units
                  from ${orders} where ${paidSince}
                  group by ${orders.partId} order by revenue desc, ${orders.partId} limit ${overviewTopParts})
                select top.part_id, top.revenue, top.units,
                       coalesce(${parts.name}, (select max(${orders.partName}) from ${orders}
                                                where ${orders.partId} is null and ${paidSince})) as name
                from top left join ${parts} on ${parts.id} = top.part_id
                order by top.revenue desc, top.part_id`,
        )
        .then((result) =>
          (result as { rows: { part_id: string | null; revenue: string; units: string; name: string }[] }).rows.map(
            (row) => ({
              partId: row.part_id,
              name: row.name,
              revenueCents: Number(row.revenue),
              units: Number(row.units),
            }),
          ),
        ),
      db
        .select({ id: parts.id, name: parts.name, available: parts.available, minOrder: parts.minOrder })
        .from(parts)
        .where(lt(parts.available, sql`2 * ${parts.minOrder}`))
        .orderBy(sql`${parts.available}::float / ${parts.minOrder}`, parts.name, parts.id)
        .limit(overviewLowStock),
      db
        .select({ total: count() })
        .from(parts)
        .where(lt(parts.available, sql`2 * ${parts.minOrder}`)),
      db
        .select()
        .from(contactMessages)
        .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
        .limit(overviewMessages),
    ]);

    const perDay = new Map(days.map((d) => [d.day, d]));
    const revenueByDay: DayRevenue[] = [];
    for (let back = overviewDays - 1; back >= 0; back--) {
      const day = dayBefore(today, back);
      const found = perDay.get(day);
      revenueByDay.push({ day, revenueCents: found?.revenueCents ?? 0, orders: found?.orders ?? 0 });
    }
    const counted = new Map(byStatus.map((s) => [s.status as OrderStatus, s.count]));
    return {
      revenueByDay,
      revenueCents: revenueByDay.reduce((total, d) => total + d.revenueCents, 0),
      ordersByStatus: statuses.map((status) => ({ status, count: counted.get(status) ?? 0 })),
      unitsReserved: reserved?.units ?? 0,
      unpaidOrders: reserved?.orders ?? 0,
      topParts: top,
      lowStock: low,
      lowStockTotal: lowTotal?.total ?? 0,
      latestMessages: messages,
      computedAt,
    };
  }

  return {
    async overview(actor: Actor | null): Promise<AdminOverview> {
      // Every caller's right, every time: only the figures are shared.
      authorize('overview.overview', actor);
      if (!reuse || maxAgeMs <= 0) return computed();
      const generation = reuse.generation();
      const at = now();
      if (kept && kept.generation === generation && at - kept.at < maxAgeMs) return kept.overview;
      const overview = computed();
      const entry = { at, generation, overview };
      kept = entry;
      // A failure (the database down) is answered to those waiting on it, never kept for the next.
      overview.catch(() => {
        if (kept === entry) kept = undefined;
      });
      return overview;
    },
  };
}

export type OverviewService = ReturnType<typeof createOverviewService>;
