import {
  buyerPrice,
  dollarsToCents,
  formatDollars,
  type CompanyPrice,
  type PriceTier,
  type Priced,
} from '@partsyard/common';
import type { ApolloCache } from '@apollo/client';
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useMyPricesQuery, type MyPricesQuery, type PartFieldsFragment } from '../generated/graphql';
import { useOptionalAuth } from './auth';
import { pricedOf } from './cart/priced';

/**
 * Company prices (issue 35 point 3) in the web: the public answers (catalog, part page) carry list prices for
 * everyone; a signed-in member's own prices come from `myPrices`, asked for the parts a page shows, and are shown
 * beside the list price as "Your price" by the one rule (common/pricing.ts `buyerPrice`), as the server charges.
 * The cart and quick order are the caller's own answers: the server prices their lines and marks `companyPriced`.
 */

/** A member's price book: their company's percentage off and fixed prices (of the parts asked about). */
export interface MyPriceBook {
  percentOffBasisPoints: number | null;
  fixed: ReadonlyMap<string, Priced>;
}

/** The most parts one `myPrices` call asks about (the server's bound). */
export const myPricesBatch = 200;

/** Accounts (Firebase uid) the server said are in no company (or whose company has no price list): not asked again. */
const noPriceList = new Set<string>();

/**
 * The caller joined or left a company: their prices are asked again (the answers kept by Apollo are dropped, and
 * an earlier "no price list" is forgotten).
 */
export function companyMembershipChanged(cache: ApolloCache<unknown>): void {
  noPriceList.clear();
  cache.evict({ id: 'ROOT_QUERY', fieldName: 'myPrices' });
  cache.gc();
}

const tiersOf = (tiers: readonly { minUnits: number; price: number }[]): PriceTier[] =>
  tiers.map((t) => ({ minUnits: t.minUnits, priceCents: dollarsToCents(t.price) }));

export function bookOf(answer: MyPricesQuery['myPrices'] | null | undefined): MyPriceBook | null {
  if (!answer) return null;
  return {
    percentOffBasisPoints:
      answer.percentOff === null || answer.percentOff === undefined ? null : Math.round(answer.percentOff * 100),
    fixed: new Map(
      answer.parts.map((p) => [p.partId, { priceCents: dollarsToCents(p.price), priceTiers: tiersOf(p.priceTiers) }]),
    ),
  };
}

/**
 * The signed-in member's prices for `partIds` (the first 200), or null: for visitors, for accounts the server said
 * have no company price list (asked once per sign-in), and until the answer arrives.
 */
export function useMyPrices(partIds: readonly string[]): MyPriceBook | null {
  const auth = useOptionalAuth();
  const uid = auth?.status === 'signedIn' ? (auth.user?.uid ?? null) : null;
  const ids = useMemo(() => [...new Set(partIds)].sort().slice(0, myPricesBatch), [partIds]);
  const skip = uid === null || ids.length === 0 || noPriceList.has(uid);
  const { data } = useMyPricesQuery({ variables: { partIds: ids }, skip, fetchPolicy: 'cache-and-network' });
  useEffect(() => {
    if (uid !== null && data && data.myPrices === null) noPriceList.add(uid);
  }, [uid, data]);
  return useMemo(() => (skip ? null : bookOf(data?.myPrices)), [skip, data]);
}

const MyPricesContext = createContext<MyPriceBook | null>(null);

/** Asks the member's prices for the parts a page shows once, for every card under it. */
export function MyPricesProvider({ partIds, children }: { partIds: readonly string[]; children: ReactNode }) {
  const book = useMyPrices(partIds);
  return <MyPricesContext.Provider value={book}>{children}</MyPricesContext.Provider>;
}

/** The book of the nearest MyPricesProvider (null outside one, and for anyone without a company price list). */
export const useProvidedPrices = (): MyPriceBook | null => useContext(MyPricesContext);

/** What the rule needs of a book for one part. */
export const companyPriceFor = (book: MyPriceBook | null, partId: string): CompanyPrice | null =>
  book ? { percentOffBasisPoints: book.percentOffBasisPoints, fixed: book.fixed.get(partId) ?? null } : null;

/** The member's unit price for `amount` units of `part` when their company's is lower than the list's, else null. */
export function yourUnitPrice(book: MyPriceBook | null, part: PartFieldsFragment, amount: number): number | null {
  if (!book) return null;
  const price = buyerPrice(pricedOf(part), amount, companyPriceFor(book, part.id));
  return price.companyPriced ? price.unitPriceCents : null;
}

/**
 * "Your price $X each" beside a list price, for a member whose company pays less for `amount` units (the part's
 * minimum order when not given); nothing for anyone else. `book`: the provider's when not given.
 */
export function YourPrice({
  part,
  amount,
  book,
}: {
  part: PartFieldsFragment;
  amount?: number;
  book?: MyPriceBook | null;
}) {
  const fromProvider = useContext(MyPricesContext);
  const units = amount && amount > 0 ? amount : Math.max(1, part.minOrder);
  const cents = yourUnitPrice(book === undefined ? fromProvider : book, part, units);
  if (cents === null) return null;
  return (
    <p className="text-sm font-semibold text-green-800" data-testid="your-price">
      <span className="badge badge-success badge-sm mr-1">Your price</span>
      {formatDollars(cents / 100)} each{units > 1 ? ` at ${units}` : ''}
      <span className="sr-only"> (your company’s price)</span>
    </p>
  );
}

/** The mark of a line the server priced with the caller's company price. */
export function CompanyPriceMark() {
  return (
    <span className="badge badge-success badge-sm" data-testid="company-price">
      Your company price
    </span>
  );
}
