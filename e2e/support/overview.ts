import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { orders } from '../../api/src/db/schema';
import type { Shop } from './shop';

/**
 * The admin overview's sales of today (UTC), as the orders table holds them (summed here independently of the
 * overview's queries), and as the overview shows them to screen readers (its revenue table under the chart).
 */

/** Today's paid and shipped orders: how many, and their sum in cents. */
export async function todaysSales(shop: Shop): Promise<{ cents: number; orders: number }> {
  const [row] = await shop.app.server.database.db
    .select({ cents: sql<string>`coalesce(sum(${orders.totalCents}), 0)`, orders: sql<string>`count(*)` })
    .from(orders)
    .where(
      sql`${orders.status} in ('paid', 'shipped') and ${orders.paidAt} >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`,
    );
  return { cents: Number(row.cents), orders: Number(row.orders) };
}

/** Today's row of the overview's revenue table: its revenue and paid-orders cells, as shown. */
export async function overviewToday(admin: Page): Promise<{ revenue: string; orders: string }> {
  const today = new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const row = admin.getByTestId('revenue-table').getByRole('row', { name: new RegExp(`^${today} `) });
  await row.waitFor();
  const cells = await row.getByRole('cell').allTextContents();
  return { revenue: cells[0] ?? '', orders: cells[1] ?? '' };
}

/** An admin opens the dashboard from the account menu and lands on the overview. */
export async function openOverview(admin: Page): Promise<void> {
  await admin.goto('/');
  await admin.getByRole('button', { name: 'Account menu' }).click();
  await admin.getByRole('link', { name: 'Dashboard' }).click();
  await admin.waitForURL('**/dashboard/overview');
  await admin.getByRole('heading', { name: 'Overview' }).waitFor();
  await admin.getByText('Revenue, last 30 days', { exact: true }).waitFor();
  // The figures say when they were computed (one computation serves the admins for a few seconds).
  await admin.getByText(/^Figures as of \d/).waitFor();
}
