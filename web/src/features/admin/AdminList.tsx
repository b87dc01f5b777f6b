import type { ReactNode } from 'react';
import { AdminPagination } from '../../components/AdminPagination';
import { StackedTable } from '../../components/StackedTable';
import { ListStatus } from './ListStatus';
import { useStayInRange } from '../../lib/useListParams';
import { useErrorToast } from './useAdminList';

interface AdminListProps {
  /** The list's heading; the total stands beside it once known. */
  title: string;
  total: number | undefined;
  /** Controls beside the heading: a search box, filters, a refresh button. */
  tools?: ReactNode;
  /** The rows shown on this page: none shows the status line (loading, failed, empty) instead of `children`. */
  rowCount: number;
  emptyText: string;
  /** The list's query, as Apollo's hook returns it. */
  query: { data?: unknown; loading: boolean; error?: unknown; refetch: () => Promise<unknown> };
  /** The list's page, from useListParams. */
  paging: { page: number; limit: number; setPage: (page: number) => void };
  /** What is listed, for the pagination's label: "users", "orders". */
  noun: string;
  /** The rows (an AdminTable, or cards). */
  children: ReactNode;
  /** A dialog that belongs to the list (the delete confirmation). */
  dialog?: ReactNode;
}

/**
 * The frame every admin list shares: heading with the total and the list's tools, the rows or what stands in
 * for them (a spinner on first load, a retry after a failure, a line when empty), pagination, and its dialog.
 * A failed load is toasted; a page left past the end (its last rows deleted) moves back to the last one.
 */
export function AdminList({
  title,
  total,
  tools,
  rowCount,
  emptyText,
  query,
  paging,
  noun,
  children,
  dialog,
}: AdminListProps) {
  const hasData = Boolean(query.data);
  useErrorToast(query.error, `${noun}-load`);
  useStayInRange(paging.page, paging.limit, total, paging.setPage);
  return (
    <section>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-bold">
          {title} {total !== undefined && <span className="badge">{total}</span>}
        </h2>
        {tools}
      </div>
      {rowCount === 0 ? (
        <ListStatus
          loading={query.loading && !hasData}
          error={query.error}
          empty={hasData}
          emptyText={emptyText}
          onRetry={() => void query.refetch()}
        />
      ) : (
        children
      )}
      {total !== undefined && (
        <AdminPagination
          page={paging.page}
          pageSize={paging.limit}
          total={total}
          onPage={paging.setPage}
          label={noun}
        />
      )}
      {dialog}
    </section>
  );
}

/** An admin table: one card per row on narrow screens (StackedTable), every action in reach. */
export function AdminTable({ children }: { children: ReactNode }) {
  return <StackedTable>{children}</StackedTable>;
}
