import type { ApolloCache } from '@apollo/client';
import { useCallback, useEffect, useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { ConfirmModal } from '../../components/ConfirmModal';
import { errorMessage } from '../../lib/apollo';

/** Rows per page of the admin lists (the API serves at most 100 parts and 200 of the rest per page). */
export const adminPageSize = 20;

/** How an admin list queries: from the network on every visit (others change the data), loading shown. */
export const adminQueryOptions = { fetchPolicy: 'cache-and-network', notifyOnNetworkStatusChange: true } as const;

/**
 * Page number and filters of an admin list. Kept in component state, not in the address: a router
 * navigation renders in a transition, and Apollo's useQuery starting a request with new variables inside
 * an interrupted transition render can flip back and forth between old and new variables.
 * Changing a filter goes back to the first page.
 */
export function useAdminList(pageSize = adminPageSize) {
  const [page, setPageState] = useState(1);
  const [filters, setFilters] = useState<Record<string, string>>({});

  const setPage = useCallback((next: number) => setPageState(Math.max(1, Math.floor(next))), []);

  const setFilter = useCallback((name: string, value: string) => {
    setFilters((current) => (current[name] === value ? current : { ...current, [name]: value }));
    setPageState(1);
  }, []);

  return {
    page,
    offset: (page - 1) * pageSize,
    limit: pageSize,
    setPage,
    filter: (name: string) => filters[name] ?? '',
    setFilter,
  };
}

/**
 * When the page shown lies past the end (its last rows were deleted), moves to the last page that has rows.
 */
export function useStayInRange(
  page: number,
  pageSize: number,
  total: number | undefined,
  setPage: (p: number) => void,
) {
  useEffect(() => {
    if (total === undefined || page <= 1) return;
    const last = Math.max(1, Math.ceil(total / pageSize));
    if (page > last) setPage(last);
  }, [page, pageSize, total, setPage]);
}

/** A failed list request shows a toast (one per error, not one per render). */
export function useErrorToast(error: unknown, id: string) {
  useEffect(() => {
    if (error) toast.error(errorMessage(error), { id });
  }, [error, id]);
}

/**
 * Deleting a row after a confirmation: `setToDelete(row)` opens `dialog` (a ConfirmModal titled `title`, its
 * text from `describe(row)`); confirmed, the row is evicted from every cached list, a toast says `success`,
 * and the list is fetched again; a failure is toasted and the dialog stays open.
 */
export function useConfirmedDelete<Row extends { id: string }>(options: {
  typename: string;
  remove: (id: string, update: (cache: ApolloCache<unknown>) => void) => Promise<unknown>;
  success: string;
  refetch: () => Promise<unknown>;
  title: string;
  describe: (row: Row) => string;
  /** The deletion is under way. */
  busy: boolean;
}) {
  const { typename, remove, success, refetch, title, describe, busy } = options;
  const [toDelete, setToDelete] = useState<Row | null>(null);
  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await remove(toDelete.id, (cache) => {
        cache.evict({ id: cache.identify({ __typename: typename, id: toDelete.id }) });
        cache.gc();
      });
      toast.success(success);
      setToDelete(null);
      await refetch();
    } catch (e) {
      toast.error(errorMessage(e));
    }
  };
  const dialog = (
    <ConfirmModal
      open={toDelete !== null}
      title={title}
      body={toDelete ? describe(toDelete) : undefined}
      busy={busy}
      onConfirm={() => void confirmDelete()}
      onClose={() => setToDelete(null)}
    />
  );
  return { setToDelete, dialog };
}
