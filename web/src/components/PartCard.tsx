import { formatDollars, truncate, truncation } from '@partsyard/common';
import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { PartFieldsFragment } from '../generated/graphql';
import { YourPrice } from '../lib/companyPrices';
import { FromTier } from './cart/PriceBreaks';
import { PartImage } from './PartImage';

/**
 * One part in a grid: image, cut name and description, price, order limits and a Purchase link (spec §2).
 * Images load lazily, except on the cards a page marks `priority` (its first row, in view on arrival).
 */
// Add to cart carries the purchase rules (and their validation library): loaded after the card, so the home
// page's first download does not grow. Until then the button shows, disabled.
const AddToCartButton = lazy(() => import('./cart/AddToCart').then((m) => ({ default: m.AddToCartButton })));

export function PartCard({
  part,
  priority = false,
  heading: Heading = 'h3',
  notes,
}: {
  part: PartFieldsFragment;
  priority?: boolean;
  /** The name's heading level, one below the section's heading (h3 under the home page's h2, h2 under an h1). */
  heading?: 'h2' | 'h3';
  /** What the list says of the part under its name (the catalog's "Universal", a fit note, why a search found it). */
  notes?: ReactNode;
}) {
  return (
    <article className="card h-full border border-base-300 bg-base-100 shadow-sm transition hover:-translate-y-0.5 hover:shadow-lg">
      <figure className="bg-base-200 px-6 pt-6">
        <PartImage
          src={part.image}
          alt={part.name}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          decoding="async"
          width={320}
          height={200}
          className="h-44 w-full rounded-box object-contain"
        />
      </figure>
      <div className="card-body gap-3">
        <Heading className="card-title text-lg leading-snug [overflow-wrap:anywhere]" title={part.name}>
          <Link to={`/parts/${part.id}`} className="link-hover">
            {truncate(part.name, truncation.cardName)}
          </Link>
        </Heading>
        {notes}
        <p className="text-sm text-gray-700 [overflow-wrap:anywhere]">
          {truncate(part.description, truncation.cardDescription)}
        </p>
        <p className="text-2xl font-bold text-primary">{formatDollars(part.price)}</p>
        <YourPrice part={part} />
        <FromTier part={part} />
        <dl className="grid grid-cols-2 gap-2 text-sm">
          <div className="rounded-field bg-base-200 px-3 py-2">
            <dt className="text-gray-700">Minimum Order</dt>
            <dd className="font-semibold">{part.minOrder}</dd>
          </div>
          <div className="rounded-field bg-base-200 px-3 py-2">
            <dt className="text-gray-700">Available</dt>
            <dd className="font-semibold">{part.available}</dd>
          </div>
        </dl>
        <div className="card-actions mt-auto grid grid-cols-2 gap-2 pt-2">
          <Link to={`/purchase/${part.id}`} className="btn btn-primary">
            Purchase<span className="sr-only"> {part.name}</span>
          </Link>
          <Suspense
            fallback={
              <button type="button" className="btn btn-outline btn-primary" disabled>
                Add to cart<span className="sr-only"> {part.name}</span>
              </button>
            }
          >
            <AddToCartButton part={part} />
          </Suspense>
        </div>
      </div>
    </article>
  );
}

/** The placeholder shown in a card's place while parts load. */
export function PartCardSkeleton() {
  return (
    <div
      className="card h-full border border-base-300 bg-base-100 shadow-sm"
      data-testid="part-card-skeleton"
      aria-hidden="true"
    >
      <div className="px-6 pt-6">
        <div className="skeleton h-44 w-full" />
      </div>
      <div className="card-body gap-3">
        <div className="skeleton h-6 w-3/4" />
        <div className="skeleton h-4 w-full" />
        <div className="skeleton h-4 w-5/6" />
        <div className="skeleton h-8 w-24" />
        <div className="grid grid-cols-2 gap-2">
          <div className="skeleton h-12" />
          <div className="skeleton h-12" />
        </div>
        <div className="skeleton mt-2 h-10 w-full" />
      </div>
    </div>
  );
}

/** The grid the home page and the catalog lay cards out in: 1, 2 or 3 columns by screen width. */
export const partGridClass = 'grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3';

/** Cards in the grid's first row on the widest screens: in view when a page opens on them. */
export const firstRowCards = 3;
