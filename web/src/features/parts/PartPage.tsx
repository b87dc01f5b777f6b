import { formatDollars, partPageMeta } from '@partsyard/common';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { PartNotFound, ShoppingFact, ShoppingPartSummary } from '../../components/ShoppingPartSummary';
import { Spinner } from '../../components/Spinner';
import { usePartDetailsQuery } from '../../generated/partPage';
import { useOwnPageMeta } from '../../lib/pageMeta';
import { AddToCartForm } from '../../components/cart/AddToCart';
import { AddToListButton } from '../../components/lists/AddToList';
import { PriceBreaks } from '../../components/cart/PriceBreaks';
import { companyPriceFor, useMyPrices, YourPrice } from '../../lib/companyPrices';
import { smallestOrder } from '../../lib/cart/useCart';
import { PartFacts } from './PartFacts';
import { PartFit } from './PartFit';
import { PartFitmentList } from './PartFitmentList';

/** A part replaced by a newer one: said first, with the way to the replacement. */
function ReplacedBy({ replacement }: { replacement: { id: string; name: string; sku: string } }) {
  return (
    <div className="alert alert-warning" data-testid="replaced-by">
      {/* One block: daisyUI's alert lays its children side by side. */}
      <div className="flex flex-col gap-1">
        <p className="text-base font-bold [overflow-wrap:anywhere]">
          Replaced by{' '}
          <Link to={`/parts/${replacement.id}`} className="link">
            {replacement.name}
          </Link>
        </p>
        <p className="text-sm">
          This is an earlier design. Its numbers still find it, but order the replacement (SKU {replacement.sku}).
        </p>
      </div>
    </div>
  );
}

/**
 * One part, public: what the catalog's card says in full (brand, category, numbers, a replacement), whether it fits
 * the current bike, the bikes it fits, and the way to order it.
 */
export default function PartPage() {
  const { partId = '' } = useParams();
  const { data, loading, error } = usePartDetailsQuery({ variables: { id: partId } });
  const part = data?.part;
  const [amount, setAmount] = useState(0);
  const myPrices = useMyPrices(part ? [part.id] : []);
  useOwnPageMeta(part ? partPageMeta(part) : null);

  // As tall as the screen while the part loads: the page that replaces it is taller, so nothing in view (the
  // footer) moves when it arrives (the page is pre-rendered so: web/scripts/prerender.mjs).
  if (loading && !data)
    return (
      <div className="flex min-h-screen justify-center pt-24">
        <Spinner />
      </div>
    );
  if (!part) return <PartNotFound error={error} backTo="/parts" backLabel="Browse parts" />;
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-8 px-4 py-10">
      <section className="grid gap-8 md:grid-cols-[2fr_3fr]">
        <ShoppingPartSummary image={part.image} name={part.name} className="self-start" heading="h1">
          {part.brand && <p className="text-sm font-semibold text-gray-700">{part.brand.name}</p>}
          <p className="text-2xl font-bold text-primary">
            {formatDollars(part.price)}
            <span className="ml-1 text-sm font-normal text-gray-600">per unit</span>
          </p>
          <ShoppingFact label="Minimum Order">{part.minOrder}</ShoppingFact>
          <ShoppingFact label="Available">{part.available}</ShoppingFact>
          <YourPrice part={part} amount={amount || smallestOrder(part)} book={myPrices} />
          <PriceBreaks
            part={part}
            amount={amount || smallestOrder(part)}
            company={companyPriceFor(myPrices, part.id)}
          />
        </ShoppingPartSummary>
        <div className="flex min-w-0 flex-col gap-8">
          {part.replacedBy && <ReplacedBy replacement={part.replacedBy} />}
          <div className="card bg-base-100 shadow-md">
            <div className="card-body gap-4">
              <PartFit partId={part.id} universal={part.universal} />
            </div>
          </div>
          <div className="card bg-base-100 shadow-md">
            <div className="card-body gap-4">
              <h2 className="card-title">About this part</h2>
              <p className="leading-relaxed text-gray-700">{part.description}</p>
              <PartFacts part={part} />
              <p className="text-sm text-gray-700">
                Sold in bulk: every order is at least {part.minOrder} units, and at most the {part.available} in stock.
              </p>
              {part.available >= part.minOrder && <AddToCartForm part={part} onAmountChange={setAmount} />}
              <div className="card-actions">
                {part.available >= part.minOrder ? (
                  <Link to={`/purchase/${part.id}`} className="btn btn-primary">
                    Purchase
                  </Link>
                ) : (
                  <p className="font-semibold">Out of stock for now.</p>
                )}
                <Link to="/parts" className="btn btn-outline">
                  All parts
                </Link>
                <AddToListButton
                  className="btn btn-outline"
                  source={{
                    kind: 'part',
                    partId: part.id,
                    partName: part.name,
                    // The amount the buyer chose for the cart when it is a whole number; else the smallest order.
                    quantity: Number.isInteger(amount) && amount >= 1 ? amount : smallestOrder(part),
                  }}
                />
              </div>
            </div>
          </div>
        </div>
      </section>
      <PartFitmentList partId={part.id} universal={part.universal} />
    </div>
  );
}
