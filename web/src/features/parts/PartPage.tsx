import { formatDollars, partPageMeta } from '@partsyard/common';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { PartNotFound, ShoppingFact, ShoppingPartSummary } from '../../components/ShoppingPartSummary';
import { Spinner } from '../../components/Spinner';
import { usePartQuery } from '../../generated/graphql';
import { setPageMeta } from '../../lib/pageMeta';
import { AddToCartForm } from '../../components/cart/AddToCart';
import { PriceBreaks } from '../../components/cart/PriceBreaks';
import { smallestOrder } from '../../lib/cart/useCart';

/** One part, public: what the catalog's card says in full, and the way to order it. */
export default function PartPage() {
  const { partId = '' } = useParams();
  const { data, loading, error } = usePartQuery({ variables: { id: partId } });
  const part = data?.part;
  const [amount, setAmount] = useState(0);
  useEffect(() => {
    if (part) setPageMeta(partPageMeta(part));
  }, [part]);

  if (loading && !data) return <Spinner centered />;
  if (!part) return <PartNotFound error={error} backTo="/parts" backLabel="Browse parts" />;
  return (
    <section className="mx-auto grid max-w-5xl gap-8 px-4 py-10 md:grid-cols-[2fr_3fr]">
      <ShoppingPartSummary image={part.image} name={part.name} className="self-start" heading="h1">
        <p className="text-2xl font-bold text-primary">
          {formatDollars(part.price)}
          <span className="ml-1 text-sm font-normal text-gray-600">per unit</span>
        </p>
        <ShoppingFact label="Minimum Order">{part.minOrder}</ShoppingFact>
        <ShoppingFact label="Available">{part.available}</ShoppingFact>
        <PriceBreaks part={part} amount={amount || smallestOrder(part)} />
      </ShoppingPartSummary>
      <div className="card self-start bg-base-100 shadow-md">
        <div className="card-body gap-4">
          <h2 className="card-title">About this part</h2>
          <p className="leading-relaxed text-gray-700">{part.description}</p>
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
          </div>
        </div>
      </div>
    </section>
  );
}
