import { useSearchParams, type SetURLSearchParams } from 'react-router-dom';

/**
 * A catalog view as its URL says it, so it can be shared: `q` (search), `category` and `brand` (slugs), `inStock=1`,
 * `bike=all` (all parts, not only those that fit the current bike) and `page` (1-based).
 */
export interface CatalogParams {
  q: string;
  category: string;
  brand: string;
  inStock: boolean;
  allBikes: boolean;
  page: number;
}

export function readCatalogParams(params: URLSearchParams): CatalogParams {
  return {
    q: (params.get('q') ?? '').trim(),
    category: (params.get('category') ?? '').trim(),
    brand: (params.get('brand') ?? '').trim(),
    inStock: params.get('inStock') === '1',
    allBikes: params.get('bike') === 'all',
    page: Math.max(1, Math.floor(Number(params.get('page'))) || 1),
  };
}

/** The URL's query for a view, without empty or default values. */
export function catalogSearchParams(view: CatalogParams): URLSearchParams {
  const next = new URLSearchParams();
  if (view.q) next.set('q', view.q);
  if (view.category) next.set('category', view.category);
  if (view.brand) next.set('brand', view.brand);
  if (view.inStock) next.set('inStock', '1');
  if (view.allBikes) next.set('bike', 'all');
  if (view.page > 1) next.set('page', String(view.page));
  return next;
}

/** The query of the view `view` changed by `change` (a change of filter starts on page 1), for a Link's `search`. */
export const changedSearch = (view: CatalogParams, change: Partial<CatalogParams>): string =>
  catalogSearchParams({ ...view, page: 1, ...change }).toString();

export function useCatalogParams(): CatalogParams & { setParams: SetURLSearchParams } {
  const [params, setParams] = useSearchParams();
  return { ...readCatalogParams(params), setParams };
}
