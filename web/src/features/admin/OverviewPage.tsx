import { formatDollars } from '@partsyard/common';
import { lazy, Suspense, useId, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { OrderStatusBadge } from '../../components/OrderStatusBadge';
import { Spinner } from '../../components/Spinner';
import { useAdminOverviewQuery } from '../../generated/overview';
import { adminQueryOptions } from './useAdminList';

// The chart and its library (uPlot) come with their own chunk, fetched only here.
const RevenueChart = lazy(() => import('./RevenueChart'));

/** "Nov 26" for a YYYY-MM-DD day (UTC); the chart's module has the same, but this page must not load it. */
const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const sentAt = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
/** When the figures were computed, to the second: one computation serves the admins for a few seconds. */
const computedTime = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { timeStyle: 'medium' });

function Section({ title, children, className = '' }: { title: string; children: ReactNode; className?: string }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={`card bg-base-100 shadow-sm ${className}`}>
      <div className="card-body gap-3 p-4 sm:p-5">
        <h3 id={id} className="text-lg font-semibold">
          {title}
        </h3>
        {children}
      </div>
    </section>
  );
}

function Stat({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="rounded-box border border-base-300 bg-base-100 p-4">
      <dt className="text-sm text-base-content/80">{label}</dt>
      <dd className="text-2xl font-bold">{value}</dd>
      {detail && <dd className="text-sm text-base-content/80">{detail}</dd>}
    </div>
  );
}

/**
 * The admin's overview of the business (issue 14): revenue per day for the last 30 days (a chart, and the same
 * figures in a table for screen readers), orders by status, units held by unpaid orders, top parts, parts
 * running low and the newest contact messages. Every figure is text on the page; the chart only draws them.
 */
export default function OverviewPage() {
  const { data, loading, error, refetch } = useAdminOverviewQuery(adminQueryOptions);
  const overview = data?.adminOverview;
  if (!overview) {
    if (loading) return <Spinner centered />;
    return (
      <div role="alert" className="alert alert-error">
        <span>The overview could not load{error ? `: ${error.message}` : ''}.</span>
        <button type="button" className="btn btn-sm" onClick={() => void refetch()}>
          Try again
        </button>
      </div>
    );
  }
  const days = overview.revenueByDay;
  const salesDays = days.filter((d) => d.orders > 0).length;
  const paidOrders = days.reduce((n, d) => n + d.orders, 0);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-xl font-bold">Overview</h2>
        <div className="flex items-center gap-3">
          <p className="text-sm text-base-content/80">
            Figures as of <time dateTime={overview.computedAt}>{computedTime(overview.computedAt)}</time>
          </p>
          <button type="button" className="btn btn-sm" disabled={loading} onClick={() => void refetch()}>
            Refresh
          </button>
        </div>
      </div>

      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <Stat
          label="Revenue, last 30 days"
          value={formatDollars(overview.revenueLast30Days)}
          detail={`${paidOrders} paid ${paidOrders === 1 ? 'order' : 'orders'}`}
        />
        <Stat
          label="Reserved by unpaid orders"
          value={`${overview.unitsReserved} units`}
          detail={`${overview.unpaidOrders} unpaid ${overview.unpaidOrders === 1 ? 'order' : 'orders'}`}
        />
        <Stat label="Parts running low" value={String(overview.lowStockTotal)} detail="below twice the minimum order" />
      </dl>

      <Section title="Revenue per day, last 30 days (UTC)">
        <figure className="m-0 block">
          <Suspense fallback={<div className="min-h-[200px]" />}>
            <RevenueChart days={days} />
          </Suspense>
          <figcaption className="mt-2 text-sm text-base-content/80">
            {formatDollars(overview.revenueLast30Days)} over 30 days, {salesDays} of them with sales.
          </figcaption>
        </figure>
        <table className="sr-only" data-testid="revenue-table">
          <caption>Revenue per day, last 30 days</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Revenue</th>
              <th scope="col">Paid orders</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day}>
                <th scope="row">{shortDay(d.day)}</th>
                <td>{formatDollars(d.revenue)}</td>
                <td>{d.orders}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Section title="Orders by status">
          <ul className="flex flex-col gap-2" data-testid="orders-by-status">
            {overview.ordersByStatus.map((s) => (
              <li key={s.status} className="flex items-center justify-between gap-2">
                <OrderStatusBadge status={s.status} />
                <span className="font-semibold tabular-nums">{s.count}</span>
              </li>
            ))}
          </ul>
          <Link className="link text-sm" to="/dashboard/all-orders">
            Manage all orders
          </Link>
        </Section>

        <Section title="Top parts by revenue, last 30 days">
          {overview.topParts.length ? (
            <table className="table table-sm" data-testid="top-parts">
              <thead>
                <tr>
                  <th scope="col">Part</th>
                  <th scope="col" className="text-right">
                    Units
                  </th>
                  <th scope="col" className="text-right">
                    Revenue
                  </th>
                </tr>
              </thead>
              <tbody>
                {overview.topParts.map((p) => (
                  <tr key={p.partId ?? p.name}>
                    <th scope="row" className="font-normal break-words">
                      {p.name}
                    </th>
                    <td className="text-right tabular-nums">{p.units}</td>
                    <td className="text-right tabular-nums">{formatDollars(p.revenue)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="text-base-content/80">No sales in the last 30 days.</p>
          )}
        </Section>

        <Section title="Parts running low">
          {overview.lowStock.length ? (
            <table className="table table-sm" data-testid="low-stock">
              <thead>
                <tr>
                  <th scope="col">Part</th>
                  <th scope="col" className="text-right">
                    Available
                  </th>
                  <th scope="col" className="text-right">
                    Min. order
                  </th>
                </tr>
              </thead>
              <tbody>
                {overview.lowStock.map((p) => (
                  <tr key={p.id}>
                    <th scope="row" className="font-normal break-words">
                      {p.name}
                    </th>
                    <td className="text-right tabular-nums">{p.available}</td>
                    <td className="text-right tabular-nums">{p.minOrder}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="text-base-content/80">Every part has at least twice its minimum order in stock.</p>
          )}
          {overview.lowStockTotal > overview.lowStock.length && (
            <p className="text-sm text-base-content/80">
              {overview.lowStockTotal - overview.lowStock.length} more running low.
            </p>
          )}
          <Link className="link text-sm" to="/dashboard/manage-parts">
            Manage parts
          </Link>
        </Section>

        <Section title="Newest messages">
          {overview.latestMessages.length ? (
            <ul className="flex flex-col gap-3" data-testid="latest-messages">
              {overview.latestMessages.map((m) => (
                <li key={m.id} className="border-b border-base-300 pb-2 last:border-0">
                  <p className="flex flex-wrap items-baseline justify-between gap-x-3">
                    <span className="font-semibold">
                      {m.firstName} {m.lastName}
                    </span>
                    <time dateTime={m.createdAt} className="text-xs text-base-content/80">
                      {sentAt(m.createdAt)}
                    </time>
                  </p>
                  <p className="line-clamp-2 text-sm break-words">{m.message}</p>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-base-content/80">No messages yet.</p>
          )}
          <Link className="link text-sm" to="/dashboard/messages">
            All messages
          </Link>
        </Section>
      </div>
    </div>
  );
}
