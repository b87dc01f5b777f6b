import { Link } from 'react-router-dom';
import { errorCode, errorMessage } from '../lib/apollo';
import type { ReactNode } from 'react';
import { PartImage } from './PartImage';

interface ShoppingPartSummaryProps {
  image: string;
  name: string;
  /** Lines under the name (price, stock, order totals...). */
  children?: ReactNode;
  className?: string;
  /** The name's heading level: h2 under the page's own h1, h1 where the part is the page. */
  heading?: 'h1' | 'h2';
}

/** A part's picture and name with a few facts under it: the head of the purchase, payment and review pages. */
export function ShoppingPartSummary({
  image,
  name,
  children,
  className = '',
  heading: Heading = 'h2',
}: ShoppingPartSummaryProps) {
  return (
    <div className={`card bg-base-100 shadow-md ${className}`}>
      <figure className="bg-base-200 p-6">
        <PartImage
          src={image}
          alt={name}
          width={320}
          height={192}
          fetchPriority="high"
          className="h-48 w-full object-contain"
        />
      </figure>
      <div className="card-body gap-2">
        <Heading className="card-title text-xl [overflow-wrap:anywhere]">{name}</Heading>
        {children}
      </div>
    </div>
  );
}

/** One "label: value" line of a summary. */
export function ShoppingFact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <p className="flex justify-between gap-4 text-sm">
      <span className="text-gray-700">{label}</span>
      <span className="font-semibold">{children}</span>
    </p>
  );
}

/** A part that could not be loaded: not found (or gone), or the request's own message. */
export function PartNotFound({ error, backTo, backLabel }: { error: unknown; backTo: string; backLabel: string }) {
  return (
    <section className="mx-auto flex min-h-[50vh] max-w-lg flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-3xl font-bold">Part not found</h1>
      <p className="text-gray-700">
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
