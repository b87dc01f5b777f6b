import type { ApolloCache } from '@apollo/client';
import { useEffect, useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { ConfirmModal } from '../../components/ConfirmModal';
import { errorMessage } from '../../lib/apollo';

/** Rows per page of the admin lists (the API serves at most 100 parts and 200 of the rest per page). */
export const adminPageSize = 20;

/** How an admin list queries: from the network on every visit (others change the data), loading shown. */
export const adminQueryOptions = { fetchPolicy: 'cache-and-network', notifyOnNetworkStatusChange: true } as const;

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
