import { useId, type ReactNode } from 'react';
import { Link, type To } from 'react-router-dom';
import type { CatalogListQuery } from '../../../generated/graphql';
import { changedSearch, type CatalogParams } from './catalogParams';

type Facets = CatalogListQuery['catalog']['facets'];

const countClass = 'badge badge-ghost badge-sm shrink-0';

function FacetLink({
  to,
  current,
  children,
  count,
}: {
  to: To;
  current?: boolean;
  children: ReactNode;
  count?: string;
}) {
  return (
    <li>
      <Link
        to={to}
        aria-current={current ? 'true' : undefined}
        className={`flex items-center justify-between gap-2 rounded-field px-2 py-1.5 hover:bg-base-200 ${current ? 'font-semibold' : ''}`}
      >
        <span className="[overflow-wrap:anywhere]">{children}</span>
        {count !== undefined && (
          <span className={countClass}>
            {count}
            <span className="sr-only"> parts</span>
          </span>
        )}
      </Link>
    </li>
  );
}

function FacetGroup({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="border-b border-base-300 pb-4 last:border-b-0">
      <h2 id={id} className="mb-2 text-sm font-bold tracking-wide text-gray-700 uppercase">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * The catalog's filters with their counts (the server's, as it writes them: 1,000+): the categories one level
 * below the current one, the brands, in stock. Each is a link (or a checkbox) changing the URL, so a filtered view
 * can be shared.
 */
export function CatalogFacets({
  facets,
  view,
  categoryTo,
  categoryAbove,
  selectedCategory,
  selectedBrand,
  onInStock,
}: {
  facets: Facets;
  view: CatalogParams;
  /** Where a category of the facets leads. */
  categoryTo: (slug: string) => To;
  /** Links up the tree (all categories, the parent), when a category is chosen. */
  categoryAbove: { label: string; to: To }[];
  /** The category chosen, named. */
  selectedCategory: string | null;
  /** The brand chosen, named. */
  selectedBrand: string | null;
  onInStock: (inStock: boolean) => void;
}) {
  const inStockId = useId();
  return (
    <div className="flex flex-col gap-4">
      {(facets.categories.length > 0 || categoryAbove.length > 0) && (
        <FacetGroup title="Category">
          <ul className="flex flex-col text-sm">
            {categoryAbove.map((up) => (
              <FacetLink key={up.label} to={up.to}>
                <span aria-hidden="true">‹ </span>
                {up.label}
              </FacetLink>
            ))}
            {selectedCategory && (
              <li className="px-2 py-1.5 font-semibold" aria-current="true">
                {selectedCategory}
              </li>
            )}
            {facets.categories.map((f) => (
              <FacetLink key={f.category.id} to={categoryTo(f.category.slug)} count={f.count.text}>
                {f.category.name}
              </FacetLink>
            ))}
          </ul>
        </FacetGroup>
      )}
      {(facets.brands.length > 0 || view.brand) && (
        <FacetGroup title="Brand">
          <ul className="flex flex-col text-sm">
            {view.brand && (
              <FacetLink to={{ search: changedSearch(view, { brand: '' }) }}>
                <span aria-hidden="true">‹ </span>
                Any brand
              </FacetLink>
            )}
            {view.brand && !facets.brands.some((f) => f.brand.slug === view.brand) && selectedBrand && (
              <li className="px-2 py-1.5 font-semibold" aria-current="true">
                {selectedBrand}
              </li>
            )}
            {facets.brands.map((f) => (
              <FacetLink
                key={f.brand.id}
                to={{ search: changedSearch(view, { brand: f.brand.slug }) }}
                current={f.brand.slug === view.brand}
                count={f.count.text}
              >
                {f.brand.name}
              </FacetLink>
            ))}
          </ul>
        </FacetGroup>
      )}
      <FacetGroup title="Stock">
        <label htmlFor={inStockId} className="flex cursor-pointer items-center gap-2 px-2 py-1.5 text-sm">
          <input
            id={inStockId}
            type="checkbox"
            className="checkbox checkbox-sm"
            checked={view.inStock}
            onChange={(e) => onInStock(e.target.checked)}
          />
          <span className="grow">In stock only</span>
          <span className={countClass}>
            {facets.inStock.text}
            <span className="sr-only"> parts</span>
          </span>
        </label>
      </FacetGroup>
      {!facets.complete && <p className="text-xs text-gray-700">Counts are of the first 1,000 parts listed.</p>}
    </div>
  );
}
