/** Page numbers to show: the first, the last, and two either side of the current one; null marks a gap. */
export function pageWindow(current: number, count: number): (number | null)[] {
  const pages: (number | null)[] = [];
  for (let p = 1; p <= count; p++) {
    if (p === 1 || p === count || Math.abs(p - current) <= 2) pages.push(p);
    else if (pages[pages.length - 1] !== null) pages.push(null);
  }
  return pages;
}

export function Pagination({
  page,
  pageCount,
  onPage,
}: {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pagination" className="mt-10 flex justify-center">
      <ul className="join flex-wrap justify-center">
        <li>
          <button type="button" className="btn join-item" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            Previous
          </button>
        </li>
        {pageWindow(page, pageCount).map((p, i) =>
          p === null ? (
            <li key={`gap-${i}`}>
              <span className="btn btn-disabled join-item" aria-hidden="true">
                …
              </span>
            </li>
          ) : (
            <li key={p}>
              <button
                type="button"
                className={`btn join-item ${p === page ? 'btn-primary' : ''}`}
                aria-label={`Page ${p}`}
                aria-current={p === page ? 'page' : undefined}
                onClick={() => onPage(p)}
              >
                {p}
              </button>
            </li>
          ),
        )}
        <li>
          <button type="button" className="btn join-item" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
            Next
          </button>
        </li>
      </ul>
    </nav>
  );
}
