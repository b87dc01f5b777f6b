import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams, type SetURLSearchParams } from 'react-router-dom';
import { useDebouncedCallback } from 'use-debounce';
import { CurrentBikeChip } from '../../components/garage/CurrentBikeChip';
import { firstRowCards, PartCard, PartCardSkeleton, partGridClass } from '../../components/PartCard';
import { useCatalogQuery } from '../../generated/graphql';
import { errorMessage } from '../../lib/apollo';

/** Parts per catalog page. */
export const catalogPageSize = 20;
/** The search box asks the shop this long after the last keystroke. */
export const searchDebounceMs = 300;

/** Page numbers to show: the first, the last, and two either side of the current one; null marks a gap. */
export function pageWindow(current: number, count: number): (number | null)[] {
  const pages: (number | null)[] = [];
  for (let p = 1; p <= count; p++) {
    if (p === 1 || p === count || Math.abs(p - current) <= 2) pages.push(p);
    else if (pages[pages.length - 1] !== null) pages.push(null);
  }
  return pages;
}

/** The URL's query: `q` (search) and `page` (1-based), so a catalog view can be linked to. */
function useCatalogParams(): { q: string; page: number; setParams: SetURLSearchParams } {
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const page = Math.max(1, Math.floor(Number(params.get('page'))) || 1);
  return { q, page, setParams };
}

/** `?q=...&page=...` without empty or default values. */
function catalogQuery(q: string, page: number) {
  const next = new URLSearchParams();
  if (q) next.set('q', q);
  if (page > 1) next.set('page', String(page));
  return next;
}

function Pagination({ page, pageCount, onPage }: { page: number; pageCount: number; onPage: (page: number) => void }) {
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

/** All parts: searched by name and paged, with the view kept in the URL (?q=&page=). */
export default function CatalogPage() {
  const { q, page, setParams } = useCatalogParams();
  const searchId = useId();
  const [text, setText] = useState(q);

  // Typing updates the URL once the user pauses; a new search starts on page 1.
  const search = useDebouncedCallback((typed: string) => {
    if (typed !== q) setParams(catalogQuery(typed, 1), { replace: true });
  }, searchDebounceMs);

  // Back/forward (or a pasted link) changes the URL: the box follows, unless it already says the same, and
  // a search still waiting for the pause is dropped.
  useEffect(() => {
    search.cancel();
    setText((current) => (current.trim() === q ? current : q));
  }, [q, search]);

  const { data, previousData, loading, error } = useCatalogQuery({
    variables: { search: q, offset: (page - 1) * catalogPageSize, limit: catalogPageSize },
  });
  // While the next page loads the previous one stays, instead of a flash of placeholders.
  const result = (data ?? previousData)?.parts;
  const total = result?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / catalogPageSize));

  // A page past the end (an old link, or fewer results than before) goes to the last page.
  useEffect(() => {
    if (data && total > 0 && page > pageCount) setParams(catalogQuery(q, pageCount), { replace: true });
  }, [data, total, page, pageCount, q, setParams]);

  const goTo = (p: number) => {
    setParams(catalogQuery(q, p));
    window.scrollTo({ top: 0 });
  };

  const first = (page - 1) * catalogPageSize + 1;
  const last = Math.min(page * catalogPageSize, total);

  return (
    <section className="mx-auto max-w-7xl px-4 py-12">
      <div className="mb-8 flex flex-col gap-6 md:flex-row md:items-end md:justify-between">
        <div>
          <h1 className="text-3xl font-extrabold sm:text-4xl">All Parts</h1>
          <p className="mt-2 text-gray-600">Every part we stock, sold in bulk from its minimum order.</p>
          <div className="mt-4">
            <CurrentBikeChip />
          </div>
        </div>
        <form
          role="search"
          className="w-full md:w-96"
          onSubmit={(e) => {
            e.preventDefault();
            search.flush(); // Enter searches at once
          }}
        >
          <label htmlFor={searchId} className="label pb-1">
            <span className="label-text font-medium">Search parts</span>
          </label>
          <label className="input w-full">
            <svg
              viewBox="0 0 24 24"
              className="h-5 w-5 opacity-50"
              fill="none"
              stroke="currentColor"
              aria-hidden="true"
            >
              <path
                strokeLinecap="round"
                strokeWidth={2}
                d="M21 21l-4.3-4.3M10.5 18a7.5 7.5 0 110-15 7.5 7.5 0 010 15z"
              />
            </svg>
            <input
              id={searchId}
              type="search"
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                search(e.target.value.trim());
              }}
              placeholder="Brake pads, chain, 520…"
              className="grow"
            />
          </label>
        </form>
      </div>

      {error && !result ? (
        <div role="alert" className="alert alert-error alert-soft">
          {errorMessage(error)}
        </div>
      ) : !result ? (
        <div className={partGridClass} aria-busy="true">
          {Array.from({ length: 6 }, (_, i) => (
            <PartCardSkeleton key={i} />
          ))}
        </div>
      ) : total === 0 ? (
        <div className="flex flex-col items-center gap-4 rounded-box bg-base-200 px-6 py-16 text-center">
          <p className="text-lg font-semibold" role="status">
            No parts match your search.
          </p>
          {q && (
            <Link to="/parts" className="btn btn-outline btn-sm" onClick={() => setText('')}>
              Clear the search
            </Link>
          )}
        </div>
      ) : (
        <>
          <p className="mb-6 text-sm text-gray-600" role="status" aria-live="polite">
            Showing {first}–{last} of {total} {total === 1 ? 'part' : 'parts'}
            {loading && <span className="loading loading-dots loading-xs ml-2 align-middle" aria-label="Loading" />}
          </p>
          <div className={`${partGridClass} ${loading ? 'opacity-60 transition-opacity' : ''}`}>
            {result.items.map((part, i) => (
              <PartCard key={part.id} part={part} priority={i < firstRowCards} heading="h2" />
            ))}
          </div>
          <Pagination page={page} pageCount={pageCount} onPage={goTo} />
        </>
      )}
    </section>
  );
}
