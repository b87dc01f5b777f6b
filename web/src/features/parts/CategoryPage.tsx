import { categoryPageMeta } from '@partsyard/common';
import { Link, useLocation, useParams } from 'react-router-dom';
import { CurrentBikeChip } from '../../components/garage/CurrentBikeChip';
import { useCategoryBySlugQuery } from '../../generated/graphql';
import { useOwnPageMeta } from '../../lib/pageMeta';
import { changedSearch, readCatalogParams } from './catalog/catalogParams';
import { addressStatus } from './catalog/addressStatus';
import { CatalogView } from './catalog/CatalogView';

/**
 * A category's page (/categories/:slug), an address a buyer can share: its parts and those of the categories below
 * it, its sub-categories as facets (each its own page), the current bike's filter as on /parts.
 */
export default function CategoryPage() {
  const { slug = '' } = useParams();
  const { search } = useLocation();
  const { data, error } = useCategoryBySlugQuery({ variables: { slug } });
  const category = data?.category ?? null;
  useOwnPageMeta(category ? categoryPageMeta(category) : null);

  const state = addressStatus({ error: data ? undefined : error, loading: !data, found: !!category, what: 'category' });
  if (state || !category) return state;
  // Another category's page keeps the view's search, brand, stock and bike choices (from its page 1).
  const kept = changedSearch(readCatalogParams(new URLSearchParams(search)), { category: '' });
  const keep = kept ? `?${kept}` : '';
  return (
    <CatalogView
      key={category.id}
      title={category.name}
      intro={
        <nav aria-label="Breadcrumb" className="breadcrumbs py-0 text-sm">
          <ul>
            <li>
              <Link to={`/parts${keep}`}>All parts</Link>
            </li>
            {category.parent && (
              <li>
                <Link to={`/categories/${category.parent.slug}${keep}`}>{category.parent.name}</Link>
              </li>
            )}
            <li aria-current="page">{category.name}</li>
          </ul>
        </nav>
      }
      actions={<CurrentBikeChip />}
      fixed={{ category }}
      categoryTo={(child) => `/categories/${child}${keep}`}
      categoryAbove={[
        category.parent
          ? { label: category.parent.name, to: `/categories/${category.parent.slug}${keep}` }
          : { label: 'All categories', to: `/parts${keep}` },
      ]}
    />
  );
}
