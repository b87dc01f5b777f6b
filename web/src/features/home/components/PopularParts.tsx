import { Link } from 'react-router-dom';
import { PartCard, PartCardSkeleton, partGridClass } from '../../../components/PartCard';
import type { PartFieldsFragment } from '../../../generated/graphql';
import { MyPricesProvider } from '../../../lib/companyPrices';

/** Placeholders shown until at least one part has arrived (spec §4, §9). */
export const partPlaceholderCount = 7;

/** 'Popular Moto Parts': the most ordered parts; an empty answer keeps the placeholders. */
export function PopularParts({ parts }: { parts: (PartFieldsFragment & { sold?: number })[] }) {
  const loading = parts.length === 0;
  // The server answers the best sellers, or the newest parts while nothing has sold: say which.
  const bestSellers = loading || parts.every((p) => (p.sold ?? 0) > 0);
  return (
    <section aria-labelledby="popular-parts-title" className="mx-auto max-w-7xl px-4 py-16">
      <div className="mb-10 text-center">
        <p className="text-sm font-semibold tracking-[0.2em] text-red-700 uppercase">
          {bestSellers ? 'Our best sellers' : 'New in the yard'}
        </p>
        <h2 id="popular-parts-title" className="mt-2 text-3xl font-extrabold sm:text-4xl">
          Popular Moto Parts
        </h2>
      </div>
      <div className={partGridClass} aria-busy={loading}>
        {loading ? (
          Array.from({ length: partPlaceholderCount }, (_, i) => <PartCardSkeleton key={i} />)
        ) : (
          <MyPricesProvider partIds={parts.map((part) => part.id)}>
            {parts.map((part) => (
              <PartCard key={part.id} part={part} />
            ))}
          </MyPricesProvider>
        )}
      </div>
      {loading && (
        <p className="sr-only" role="status">
          Loading parts…
        </p>
      )}
      <div className="mt-10 text-center">
        <Link to="/parts" className="btn btn-outline btn-primary">
          Browse all parts
        </Link>
      </div>
    </section>
  );
}
