import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link, type To } from 'react-router-dom';
import { useDebouncedCallback } from 'use-debounce';
import { firstRowCards, PartCard, PartCardSkeleton } from '../../../components/PartCard';
import { MyPricesProvider } from '../../../lib/companyPrices';
import {
  useBrandBySlugQuery,
  useCatalogListQuery,
  useCategoryBySlugQuery,
  type CatalogFilter,
} from '../../../generated/graphql';
import { errorMessage } from '../../../lib/apollo';
import { useOptionalGarage } from '../../../lib/garage/garage';
import { CatalogFacets } from './CatalogFacets';
import { CatalogItemNotes } from './CatalogItemNotes';
import { catalogSearchParams, changedSearch, useCatalogParams } from './catalogParams';
import { Pagination } from './Pagination';

/** Parts per catalog page. */
export const catalogPageSize = 20;
/** The search box asks the shop this long after the last keystroke. */
export const searchDebounceMs = 300;

/** The cards' grid: beside the filters, three columns only on the widest screens. */
const gridClass = 'grid grid-cols-1 gap-6 md:grid-cols-2 xl:grid-cols-3';

/** What a page fixes of the catalog: a category's page lists that category, a bike's page what fits that bike. */
export interface FixedFilter {
  category?: { id: string; name: string; slug: string; parent: { name: string; slug: string } | null };
  vehicle?: { id: string; name: string };
}

function SearchBox({ q, onSearch }: { q: string; onSearch: (text: string) => void }) {
  const searchId = useId();
  const [text, setText] = useState(q);
  // Typing updates the URL once the user pauses.
  const search = useDebouncedCallback((typed: string) => {
    if (typed !== q) onSearch(typed);
  }, searchDebounceMs);

  // Back/forward (or a pasted link) changes the URL: the box follows, unless it already says the same, and
  // a search still waiting for the pause is dropped.
  useEffect(() => {
    search.cancel();
    setText((current) => (current.trim() === q ? current : q));
  }, [q, search]);

  return (
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
        <svg viewBox="0 0 24 24" className="h-5 w-5 opacity-50" fill="none" stroke="currentColor" aria-hidden="true">
          <path strokeLinecap="round" strokeWidth={2} d="M21 21l-4.3-4.3M10.5 18a7.5 7.5 0 110-15 7.5 7.5 0 010 15z" />
        </svg>
        <input
          id={searchId}
          type="search"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            search(e.target.value.trim());
          }}
          placeholder="Brake pads, 06455-MEN-A71…"
          className="grow"
        />
      </label>
    </form>
  );
}

/**
 * The catalog (issue 33): a page of parts for the URL's view (search, category, brand, in stock, page) and the
 * page's fixed filter, with facet counts. With a current bike in the garage (and no bike fixed) it lists only what
 * fits it, plus universal parts, and says so, with a link to all parts (`?bike=all`). Search hits say why they
 * matched. /parts, /categories/:slug and /bikes/... are this view.
 */
export function CatalogView({
  title,
  intro,
  actions,
  fixed = {},
  categoryTo,
  categoryAbove = [],
}: {
  title: string;
  intro: ReactNode;
  /** Beside the intro: the current bike's chip, a bike page's "Add to my garage". */
  actions?: ReactNode;
  fixed?: FixedFilter;
  /** Where a category of the facets leads: `?category=` on this page unless said. */
  categoryTo?: (slug: string) => To;
  /** Links up the category tree, when the page itself is a category's. */
  categoryAbove?: { label: string; to: To }[];
}) {
  const view = useCatalogParams();
  const { q, page, setParams } = view;
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();
  const current = useOptionalGarage()?.current ?? null;

  // The URL names a category and a brand by their slugs: their ids first (a category page fixes its own).
  const urlCategory = fixed.category ? '' : view.category;
  const categoryLookup = useCategoryBySlugQuery({ variables: { slug: urlCategory }, skip: !urlCategory });
  const brandLookup = useBrandBySlugQuery({ variables: { slug: view.brand }, skip: !view.brand });
  const chosenCategory = fixed.category ?? (urlCategory ? (categoryLookup.data?.category ?? null) : null);
  const chosenBrand = view.brand ? (brandLookup.data?.brand ?? null) : null;
  const lookingUp = (!!urlCategory && !categoryLookup.data) || (!!view.brand && !brandLookup.data);
  const lookupError = categoryLookup.error ?? brandLookup.error;

  // The bike: the page's own, else the garage's current one unless the view asks for all parts.
  const bike = fixed.vehicle ?? (view.allBikes ? null : current);
  const filter: CatalogFilter = {
    ...(bike && { vehicleId: bike.id }),
    ...(chosenCategory && { categoryId: chosenCategory.id }),
    ...(chosenBrand && { brandId: chosenBrand.id }),
    ...(view.inStock && { inStock: true }),
    ...(q && { search: q }),
  };
  const { data, previousData, loading, error } = useCatalogListQuery({
    variables: { filter, offset: (page - 1) * catalogPageSize, limit: catalogPageSize },
    skip: lookingUp,
  });
  // While the next page loads the previous one stays, instead of a flash of placeholders.
  const result = (data ?? previousData)?.catalog;
  const total = result?.total ?? 0;
  const lastKnownPage = Math.max(1, Math.ceil(total / catalogPageSize));
  // Past 1,000 the count stops: one more page while pages come full.
  const pageCount =
    result?.totalIsLowerBound && result.items.length === catalogPageSize
      ? Math.max(lastKnownPage, page + 1)
      : lastKnownPage;

  // A page past the end (an old link, or fewer results than before) goes to the last page.
  useEffect(() => {
    if (data && total > 0 && !data.catalog.totalIsLowerBound && page > lastKnownPage)
      setParams(catalogSearchParams({ ...view, page: lastKnownPage }), { replace: true });
  }, [data, total, page, lastKnownPage, view, setParams]);

  const goTo = (p: number) => {
    setParams(catalogSearchParams({ ...view, page: p }));
    window.scrollTo({ top: 0 });
  };

  const first = (page - 1) * catalogPageSize + 1;
  const last = (page - 1) * catalogPageSize + (result?.items.length ?? 0);
  const unknownCategory = !!urlCategory && categoryLookup.data && !categoryLookup.data.category;
  const unknownBrand = !!view.brand && brandLookup.data && !brandLookup.data.brand;
  const filtered = !!(q || chosenCategory !== fixed.category || chosenBrand || view.inStock);

  const bikeNote =
    !fixed.vehicle && current ? (
      <p className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" data-testid="bike-filter">
        {view.allBikes ? (
          <>
            <span>
              {q ? 'Searching' : 'Showing'} all parts, not only those that fit your {current.name}.
            </span>
            <Link className="link link-primary" to={{ search: changedSearch(view, { allBikes: false }) }}>
              Only parts that fit your {current.name}
            </Link>
          </>
        ) : (
          <>
            <span className="font-semibold">Parts that fit your {current.name}, and universal parts.</span>
            <Link className="link link-primary" to={{ search: changedSearch(view, { allBikes: true }) }}>
              {q ? 'Search all parts' : 'See all parts'}
            </Link>
          </>
        )}
      </p>
    ) : null;

  return (
    <section className="mx-auto max-w-7xl px-4 py-12">
      <div className="mb-8 flex flex-col gap-6 md:flex-row md:items-end md:justify-between">
        <div className="min-w-0">
          <h1 className="text-3xl font-extrabold [overflow-wrap:anywhere] sm:text-4xl">{title}</h1>
          <div className="mt-2 text-gray-600">{intro}</div>
          {actions && <div className="mt-4">{actions}</div>}
        </div>
        <SearchBox
          q={q}
          onSearch={(typed) => setParams(catalogSearchParams({ ...view, q: typed, page: 1 }), { replace: true })}
        />
      </div>

      {bikeNote}

      <div className="grid grid-cols-1 gap-8 lg:grid-cols-[15rem_minmax(0,1fr)]">
        <div>
          <button
            type="button"
            className="btn btn-outline btn-sm w-full lg:hidden"
            aria-expanded={filtersOpen}
            aria-controls={filtersId}
            onClick={() => setFiltersOpen((open) => !open)}
          >
            {filtersOpen ? 'Hide filters' : 'Show filters'}
          </button>
          <aside
            id={filtersId}
            aria-label="Filters"
            className={`${filtersOpen ? 'block' : 'hidden'} mt-4 rounded-box border border-base-300 p-4 lg:mt-0 lg:block`}
          >
            {result ? (
              <CatalogFacets
                facets={result.facets}
                view={view}
                categoryTo={categoryTo ?? ((slug) => ({ search: changedSearch(view, { category: slug }) }))}
                categoryAbove={
                  fixed.category
                    ? categoryAbove
                    : chosenCategory
                      ? [{ label: 'All categories', to: { search: changedSearch(view, { category: '' }) } }]
                      : []
                }
                selectedCategory={fixed.category ? null : (chosenCategory?.name ?? null)}
                selectedBrand={chosenBrand?.name ?? null}
                onInStock={(inStock) => setParams(catalogSearchParams({ ...view, inStock, page: 1 }))}
              />
            ) : (
              <div className="flex flex-col gap-3" aria-hidden="true">
                <div className="skeleton h-4 w-24" />
                <div className="skeleton h-4 w-full" />
                <div className="skeleton h-4 w-5/6" />
              </div>
            )}
          </aside>
        </div>

        <div className="min-w-0">
          {(unknownCategory || unknownBrand) && (
            <p className="mb-4 text-sm" role="status">
              {unknownCategory ? `No category is named “${urlCategory}”` : `No brand is named “${view.brand}”`}:{' '}
              <Link
                className="link"
                to={{ search: changedSearch(view, unknownCategory ? { category: '' } : { brand: '' }) }}
              >
                drop it
              </Link>
            </p>
          )}
          {(error || lookupError) && !result ? (
            <div role="alert" className="alert alert-error alert-soft">
              {errorMessage(error ?? lookupError)}
            </div>
          ) : !result ? (
            <div className={gridClass} aria-busy="true">
              {Array.from({ length: 6 }, (_, i) => (
                <PartCardSkeleton key={i} />
              ))}
            </div>
          ) : total === 0 ? (
            <div className="flex flex-col items-center gap-4 rounded-box bg-base-200 px-6 py-16 text-center">
              <p className="text-lg font-semibold" role="status">
                {q ? 'No parts match your search.' : 'No parts match these filters.'}
              </p>
              {filtered && (
                <Link to={{ search: '' }} className="btn btn-outline btn-sm">
                  {q ? 'Clear the search' : 'Clear the filters'}
                </Link>
              )}
            </div>
          ) : (
            <>
              <p className="mb-6 text-sm text-gray-600" role="status" aria-live="polite">
                Showing {first}–{last} of {result.totalText} {total === 1 ? 'part' : 'parts'}
                {loading && <span className="loading loading-dots loading-xs ml-2 align-middle" aria-label="Loading" />}
              </p>
              <MyPricesProvider partIds={result.items.map((item) => item.part.id)}>
                <div className={`${gridClass} ${loading ? 'opacity-60 transition-opacity' : ''}`}>
                  {result.items.map((item, i) => (
                    <PartCard
                      key={item.part.id}
                      part={item.part}
                      priority={i < firstRowCards}
                      heading="h2"
                      notes={<CatalogItemNotes item={item} />}
                    />
                  ))}
                </div>
              </MyPricesProvider>
              <Pagination page={page} pageCount={pageCount} onPage={goTo} />
            </>
          )}
        </div>
      </div>
    </section>
  );
}
