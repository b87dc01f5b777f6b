import { useContactMessagesQuery } from '../../generated/graphql';
import { AdminList } from './AdminList';
import { useListParams } from '../../lib/useListParams';
import { adminPageSize, adminQueryOptions } from './useAdminList';

const sentAt = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Messages from the home page's contact form (admin), newest first. What visitors wrote is shown as text. */
export default function MessagesPage() {
  const list = useListParams(adminPageSize);
  const { offset, limit } = list;
  const query = useContactMessagesQuery({
    variables: { offset, limit },
    ...adminQueryOptions,
  });
  const { data, loading, refetch } = query;
  const total = data?.contactMessages.total;
  const rows = data?.contactMessages.items ?? [];

  return (
    <AdminList
      title="Messages"
      total={total}
      tools={
        <button type="button" className="btn btn-sm" disabled={loading} onClick={() => void refetch()}>
          Refresh
        </button>
      }
      rowCount={rows.length}
      emptyText="No messages yet."
      query={query}
      paging={list}
      noun="messages"
    >
      <ul className="flex flex-col gap-3">
        {rows.map((m) => (
          <li key={m.id} className="card bg-base-100 shadow-sm" data-testid="message">
            <article className="card-body gap-2 p-5">
              <header className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <h3 className="font-semibold">
                  {m.firstName} {m.lastName}
                </h3>
                <time dateTime={m.createdAt} className="text-sm text-base-content/80">
                  {sentAt(m.createdAt)}
                </time>
              </header>
              <p className="flex flex-wrap gap-x-4 text-sm text-base-content/80">
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
    </AdminList>
  );
}
