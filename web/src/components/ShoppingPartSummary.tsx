import { Link } from 'react-router-dom';
import { errorCode, errorMessage } from '../lib/apollo';
import type { ReactNode } from 'react';

/** The shop's own picture for a part whose image is missing or fails to load. */
export const defaultPartImage = '/images/parts/default.svg';

/** Dollars as the shop shows them: '$' prefix, two decimals, thousands separated. */
export const formatDollars = (dollars: number): string =>
  `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

interface ShoppingPartSummaryProps {
  image: string;
  name: string;
  /** Lines under the name (price, stock, order totals...). */
  children?: ReactNode;
  className?: string;
}

/** A part's picture and name with a few facts under it: the head of the purchase, payment and review pages. */
export function ShoppingPartSummary({ image, name, children, className = '' }: ShoppingPartSummaryProps) {
  return (
    <div className={`card bg-base-100 shadow-md ${className}`}>
      <figure className="bg-base-200 p-6">
        <img
          src={image || defaultPartImage}
          alt={name}
          width={320}
          height={192}
          fetchPriority="high"
          className="h-48 w-full object-contain"
          onError={(e) => {
            if (!e.currentTarget.src.endsWith(defaultPartImage)) e.currentTarget.src = defaultPartImage;
          }}
        />
      </figure>
      <div className="card-body gap-2">
        <h2 className="card-title text-xl">{name}</h2>
        {children}
      </div>
    </div>
  );
}

/** One "label: value" line of a summary. */
export function ShoppingFact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <p className="flex justify-between gap-4 text-sm">
      <span className="text-gray-600">{label}</span>
      <span className="font-semibold">{children}</span>
    </p>
  );
}

/** A part that could not be loaded: not found (or gone), or the request's own message. */
export function PartNotFound({ error, backTo, backLabel }: { error: unknown; backTo: string; backLabel: string }) {
  return (
    <section className="mx-auto flex min-h-[50vh] max-w-lg flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-3xl font-bold">Part not found</h1>
      <p className="text-gray-600">
        {error && errorCode(error) !== 'NOT_FOUND'
          ? errorMessage(error)
          : 'This part does not exist or is no longer sold.'}
      </p>
      <Link to={backTo} className="btn btn-primary">
        {backLabel}
      </Link>
    </section>
  );
}
