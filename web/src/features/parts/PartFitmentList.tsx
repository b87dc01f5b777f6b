import { useId, useState } from 'react';
import { useDebouncedCallback } from 'use-debounce';
import { AdminPagination } from '../../components/AdminPagination';
import { Cell, StackedTable } from '../../components/StackedTable';
import { usePartFitmentQuery } from '../../generated/partPage';
import { errorMessage } from '../../lib/apollo';

/** Bikes per page of the list. */
export const fitmentPageSize = 20;
/** The search box asks the shop this long after the last keystroke. */
export const fitmentSearchDebounceMs = 300;

/**
 * The bikes a part fits, a page at a time, searched by make, model, year or variant as the buyer types (once they
 * pause): each with its position, quantity per bike and note. One card per bike on a phone (StackedTable).
 */
export function PartFitmentList({ partId, universal }: { partId: string; universal: boolean }) {
  const searchId = useId();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const applySearch = useDebouncedCallback((text: string) => {
    setSearch(text);
    setPage(1);
  }, fitmentSearchDebounceMs);

  const { data, previousData, loading, error } = usePartFitmentQuery({
    variables: { id: partId, offset: (page - 1) * fitmentPageSize, limit: fitmentPageSize, search: search || null },
  });
  // While the next page or search loads, the last one stays (dimmed) instead of a flash of nothing.
  const list = (data ?? previousData)?.part?.fitment;

  return (
    <section aria-labelledby="part-fitment-heading" className="card bg-base-100 shadow-md">
      <div className="card-body gap-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <h2 id="part-fitment-heading" className="card-title">
            Bikes it fits
          </h2>
          <form
            role="search"
            aria-label="The bikes it fits"
            className="w-full sm:w-72"
            onSubmit={(e) => {
              e.preventDefault();
              applySearch.flush(); // Enter searches at once
            }}
          >
            <label htmlFor={searchId} className="label pb-1 text-sm font-medium">
              Search the bikes it fits
            </label>
            <input
              id={searchId}
              type="search"
              className="input input-sm w-full"
              placeholder="Make, model or year"
              value={typed}
              onChange={(e) => {
                setTyped(e.target.value);
                applySearch(e.target.value.trim());
              }}
            />
          </form>
        </div>

        {error && !list ? (
          <p role="alert" className="alert alert-error alert-soft">
            The bikes it fits could not be loaded: {errorMessage(error)}
          </p>
        ) : !list ? (
          <p className="text-sm text-gray-700" aria-busy="true">
            Loading the bikes it fits…
          </p>
        ) : list.total === 0 ? (
          <p className="text-sm text-gray-700" role="status">
            {search
              ? `No bike it fits matches “${search}”.`
              : universal
                ? 'Universal: it fits any bike, so no bikes are listed one by one.'
                : 'No bikes are listed for this part yet.'}
          </p>
        ) : (
          <>
            <p className="text-sm text-gray-700" role="status" aria-live="polite">
              {list.total === 1 ? 'Fits 1 bike' : `Fits ${list.total} bikes`}
              {search && <> matching “{search}”</>}
              {loading && <span className="loading loading-dots loading-xs ml-2 align-middle" aria-label="Loading" />}
            </p>
            <div className={loading ? 'opacity-60 transition-opacity' : ''}>
              <StackedTable>
                <caption className="sr-only">The bikes this part fits</caption>
                <thead>
                  <tr>
                    <th scope="col">Bike</th>
                    <th scope="col">Position</th>
                    <th scope="col" className="text-right">
                      Quantity
                    </th>
                    <th scope="col">Note</th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((row) => (
                    <tr key={`${row.vehicle.id} ${row.position}`} data-testid="fitment-row">
                      <Cell label="Bike" className="font-semibold">
                        {row.vehicle.name}
                      </Cell>
                      <Cell label="Position">{row.position || '—'}</Cell>
                      <Cell label="Quantity" className="text-right">
                        {row.quantity}
                      </Cell>
                      <Cell label="Note" className="[overflow-wrap:anywhere]">
                        {row.note || '—'}
                      </Cell>
                    </tr>
                  ))}
                </tbody>
              </StackedTable>
            </div>
            <AdminPagination
              page={page}
              pageSize={fitmentPageSize}
              total={list.total}
              onPage={setPage}
              label="the bikes it fits"
            />
          </>
        )}
      </div>
    </section>
  );
}
