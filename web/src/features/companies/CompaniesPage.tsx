import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useDebouncedCallback } from 'use-debounce';
import { AdminPagination } from '../../components/AdminPagination';
import { Spinner } from '../../components/Spinner';
import { Cell, StackedTable } from '../../components/StackedTable';
import { useCompaniesQuery } from '../../generated/companies';
import { errorMessage } from '../../lib/apollo';
import { useListParams, useStayInRange } from '../../lib/useListParams';

/** Typing settles for this long before the list is searched. */
const searchDelayMs = 300;
/** Companies per page (the admin lists' page size). */
const pageSize = 20;

/** Every company (shop admins), searched by name or tax number, each opening its own page. */
export default function CompaniesPage() {
  const { offset, limit, filter, setFilter, page, setPage } = useListParams(pageSize);
  const search = filter('q');
  const [typed, setTyped] = useState(search);
  const applySearch = useDebouncedCallback((value: string) => {
    if (value !== search) setFilter('q', value);
  }, searchDelayMs);
  // Back/forward changes the address: the box follows, and a search still waiting for the pause is dropped.
  useEffect(() => {
    applySearch.cancel();
    setTyped((current) => (current.trim() === search ? current : search));
  }, [search, applySearch]);

  // From the network on every visit (companies change elsewhere), loading shown while a page or a search loads.
  const { data, loading, error, refetch } = useCompaniesQuery({
    variables: { search: search || null, offset, limit },
    fetchPolicy: 'cache-and-network',
    notifyOnNetworkStatusChange: true,
  });
  const total = data?.companies.total;
  const rows = data?.companies.items ?? [];
  useStayInRange(page, pageSize, total, setPage);

  return (
    <section>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-bold">Companies {total !== undefined && <span className="badge">{total}</span>}</h2>
        <label className="input input-sm w-full sm:w-72">
          <span className="sr-only">Search companies</span>
          <input
            type="search"
            placeholder="Search by name or tax number"
            value={typed}
            onChange={(e) => {
              setTyped(e.target.value);
              applySearch(e.target.value.trim());
            }}
          />
        </label>
      </div>
      {rows.length === 0 ? (
        loading && !data ? (
          <div className="flex justify-center py-16">
            <Spinner />
          </div>
        ) : error ? (
          <div role="alert" className="flex flex-col items-center gap-3 py-12">
            <p>{errorMessage(error)}</p>
            <button type="button" className="btn btn-sm" onClick={() => void refetch()}>
              Try again
            </button>
          </div>
        ) : (
          <p className="py-12 text-center text-base-content/80">
            {search ? `No companies match "${search}".` : 'No companies yet.'}
          </p>
        )
      ) : (
        <StackedTable>
          <thead>
            <tr>
              <th>Name</th>
              <th>Tax number</th>
              <th className="text-right">Members</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((company) => (
              <tr key={company.id} data-testid="company-row">
                <Cell label="Name" className="[overflow-wrap:anywhere]">
                  <Link to={`/dashboard/companies/${company.id}`} className="link link-primary font-semibold">
                    {company.name}
                  </Link>
                </Cell>
                <Cell label="Tax number" className="[overflow-wrap:anywhere]">
                  {company.taxId}
                </Cell>
                <Cell label="Members" className="text-right">
                  {company.memberCount}
                </Cell>
              </tr>
            ))}
          </tbody>
        </StackedTable>
      )}
      {total !== undefined && (
        <AdminPagination page={page} pageSize={pageSize} total={total} onPage={setPage} label="companies" />
      )}
    </section>
  );
}
