import { categoryPageMeta } from '@partsyard/common';
import { Link, useLocation, useParams } from 'react-router-dom';
import { CurrentBikeChip } from '../../components/garage/CurrentBikeChip';
import { useCategoryBySlugQuery } from '../../generated/graphql';
import { errorMessage } from '../../lib/apollo';
import { useOwnPageMeta } from '../../lib/pageMeta';
import { changedSearch, readCatalogParams } from './catalog/catalogParams';
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

  if (error && !data) {
    return (
      <section className="mx-auto max-w-7xl px-4 py-12">
        <div role="alert" className="alert alert-error alert-soft">
          {errorMessage(error)}
        </div>
      </section>
    );
  }
  if (!data) {
    return (
      <section className="mx-auto max-w-7xl px-4 py-12" aria-busy="true">
        <div className="skeleton h-10 w-64" />
      </section>
    );
  }
  if (!category) {
    return (
      <section className="mx-auto flex max-w-7xl flex-col items-start gap-4 px-4 py-12">
        <h1 className="text-3xl font-extrabold">No such category</h1>
        <p>There is no category at this address.</p>
        <Link to="/parts" className="btn btn-primary">
          See all parts
        </Link>
      </section>
    );
  }
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
