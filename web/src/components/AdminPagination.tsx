interface AdminPaginationProps {
  /** 1-based page shown. */
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  /** What is being paged, for screen readers: "users", "orders". */
  label: string;
}

/** "Showing 21–40 of 57" and Previous / Next, under an admin list. Hidden when everything fits on one page. */
export function AdminPagination({ page, pageSize, total, onPage, label }: AdminPaginationProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (total <= pageSize && page <= 1) return null;
  const first = Math.min(total, (page - 1) * pageSize + 1);
  const last = Math.min(total, page * pageSize);
  return (
    <nav
      aria-label={`Pages of ${label}`}
      className="mt-4 flex flex-col items-center justify-between gap-3 text-sm sm:flex-row"
    >
      <p className="text-base-content/80">
        Showing {first}–{last} of {total}
      </p>
      <div className="join">
        <button type="button" className="btn join-item btn-sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </button>
        <span className="btn join-item btn-sm btn-disabled !text-base-content" aria-current="page">
          Page {page} of {pages}
        </span>
        <button
          type="button"
          className="btn join-item btn-sm"
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        >
          Next
        </button>
      </div>
    </nav>
  );
}
