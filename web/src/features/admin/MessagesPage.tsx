import { AdminPagination } from '../../components/AdminPagination';
import { useContactMessagesQuery } from '../../generated/graphql';
import { ListStatus } from './ListStatus';
import { useAdminList, useErrorToast, useStayInRange } from './useAdminList';

const sentAt = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Messages from the home page's contact form (admin), newest first. What visitors wrote is shown as text. */
export default function MessagesPage() {
  const { page, offset, limit, setPage } = useAdminList();
  const { data, loading, error, refetch } = useContactMessagesQuery({
    variables: { offset, limit },
    fetchPolicy: 'cache-and-network',
    notifyOnNetworkStatusChange: true,
  });
  useErrorToast(error, 'messages-load');
  const total = data?.contactMessages.total;
  useStayInRange(page, limit, total, setPage);
  const rows = data?.contactMessages.items ?? [];

  return (
    <section>
      <div className="mb-4 flex items-center justify-between gap-3">
        <h2 className="text-xl font-bold">Messages {total !== undefined && <span className="badge">{total}</span>}</h2>
        <button type="button" className="btn btn-sm" disabled={loading} onClick={() => void refetch()}>
          Refresh
        </button>
      </div>
      {rows.length === 0 ? (
        <ListStatus
          loading={loading && !data}
          error={error}
          empty={Boolean(data)}
          emptyText="No messages yet."
          onRetry={() => void refetch()}
        />
      ) : (
        <ul className="flex flex-col gap-3">
          {rows.map((m) => (
            <li key={m.id} className="card bg-base-100 shadow-sm" data-testid="message">
              <article className="card-body gap-2 p-5">
                <header className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                  <h3 className="font-semibold">
                    {m.firstName} {m.lastName}
                  </h3>
                  <time dateTime={m.createdAt} className="text-sm text-base-content/60">
                    {sentAt(m.createdAt)}
                  </time>
                </header>
                <p className="flex flex-wrap gap-x-4 text-sm text-base-content/70">
                  <a className="link break-all" href={`mailto:${m.email}`}>
                    {m.email}
                  </a>
                  {m.phone && <span>{m.phone}</span>}
                </p>
                <p className="break-words whitespace-pre-wrap">{m.message}</p>
              </article>
            </li>
          ))}
        </ul>
      )}
      {total !== undefined && (
        <AdminPagination page={page} pageSize={limit} total={total} onPage={setPage} label="messages" />
      )}
    </section>
  );
}
