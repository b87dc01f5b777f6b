import { Spinner } from '../../components/Spinner';

interface ListStatusProps {
  loading: boolean;
  error: unknown;
  empty: boolean;
  emptyText: string;
  onRetry: () => void;
}

/**
 * What an admin list shows instead of rows: a spinner on first load, a retry after a failure (the toast
 * says why), or a line when there is nothing to list. Renders nothing when rows are there.
 */
export function ListStatus({ loading, error, empty, emptyText, onRetry }: ListStatusProps) {
  if (loading)
    return (
      <div className="flex justify-center py-16">
        <Spinner />
      </div>
    );
  if (error)
    return (
      <div className="flex flex-col items-center gap-3 py-12 text-base-content/80">
        <p>The list could not be loaded.</p>
        <button type="button" className="btn btn-sm" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  if (empty) return <p className="py-12 text-center text-base-content/80">{emptyText}</p>;
  return null;
}
