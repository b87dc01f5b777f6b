import { partNumberKindNames } from '@partsyard/common';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { PartDetailsQuery, PartNumberKind } from '../../generated/partPage';

type Part = NonNullable<PartDetailsQuery['part']>;

/** A category's page: the catalog of that category and every one below it. */
export const categoryPath = (slug: string) => `/categories/${encodeURIComponent(slug)}`;

/** What a number's kind is called where a shopper reads it (the search's hits say the same). */
const kindName = (kind: PartNumberKind) => partNumberKindNames[kind.toLowerCase() as keyof typeof partNumberKindNames];

/** One "term: value" line of the facts. */
function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-1 border-b border-base-200 py-2 last:border-0">
      <dt className="text-gray-700">{term}</dt>
      <dd className="text-right font-semibold [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

/**
 * What a buyer checks a part by: its brand, its category (a link to the category's page, under its parent), our
 * SKU, and its other numbers (kind, number, brand), the ones printed on the old part or
 * in the maker's parts diagram.
 */
export function PartFacts({ part }: { part: Part }) {
  const { category } = part;
  return (
    <div className="flex flex-col gap-4">
      <dl className="text-sm" data-testid="part-facts">
        <Fact term="Brand">{part.brand?.name ?? 'Not given'}</Fact>
        <Fact term="Category">
          {category ? (
            <>
              {category.parent && (
                <>
                  <Link to={categoryPath(category.parent.slug)} className="link font-normal">
                    {category.parent.name}
                  </Link>
                  <span aria-hidden="true"> › </span>
                  <span className="sr-only">, </span>
                </>
              )}
              <Link to={categoryPath(category.slug)} className="link">
                {category.name}
              </Link>
            </>
          ) : (
            'Not given'
          )}
        </Fact>
        <Fact term="Our SKU">{part.sku}</Fact>
      </dl>
      {part.numbers.length > 0 && (
        <div>
          <h3 className="mb-2 font-semibold" id="part-numbers-heading">
            Part numbers
          </h3>
          {/* A list of short rows rather than a table: three short values per row fit a phone's width. */}
          <ul className="flex flex-col divide-y divide-base-200 text-sm" aria-labelledby="part-numbers-heading">
            {part.numbers.map((n) => (
              <li
                key={`${n.kind} ${n.raw}`}
                className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2"
                data-testid="part-number"
              >
                <span className="text-gray-700">
                  {kindName(n.kind)}
                  {n.brand && <span> ({n.brand.name})</span>}
                </span>
                <span className="font-mono font-semibold [overflow-wrap:anywhere]">{n.raw}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
