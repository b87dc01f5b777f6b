import { centsToDollars } from '@partsyard/common';
import type { MutationResolvers, QueryResolvers, Resolvers } from './generated';

/** Company prices' thin adapters (issue 35 point 3): each says which operation of companies/companyPrices.ts works. */

/** Basis points as the API's percent (1,250: 12.5). */
const percent = (basisPoints: number | null) => (basisPoints === null ? null : basisPoints / 100);

export const companyPriceQueries: Pick<QueryResolvers, 'myPrices' | 'companyPriceList'> = {
  myPrices: (_, { partIds }, { services, actor }) => services.companyPrices.myPrices(actor, partIds),
  companyPriceList: (_, { id, offset, limit }, { services, actor }) =>
    services.companyPrices.companyPriceList(actor, id, { offset, limit }),
};

export const companyPriceMutations: Pick<
  MutationResolvers,
  'setCompanyPercentOff' | 'setCompanyPartPrice' | 'removeCompanyPartPrice'
> = {
  setCompanyPercentOff: (_, { id, percentOff }, { services, actor }) =>
    services.companyPrices.setCompanyPercentOff(actor, id, percentOff),
  setCompanyPartPrice: (_, { id, partId, price, priceTiers }, { services, actor }) =>
    services.companyPrices.setCompanyPartPrice(actor, id, partId, { price, priceTiers }),
  removeCompanyPartPrice: (_, { id, partId }, { services, actor }) =>
    services.companyPrices.removeCompanyPartPrice(actor, id, partId),
};

export const companyPriceTypes: Pick<Resolvers, 'MyPrices' | 'MyPartPrice' | 'CompanyPricePage' | 'CompanyPartPrice'> =
  {
    MyPrices: { percentOff: (view) => percent(view.percentOffBasisPoints) },
    MyPartPrice: { price: (view) => centsToDollars(view.priceCents) },
    CompanyPricePage: { percentOff: (view) => percent(view.percentOffBasisPoints) },
    CompanyPartPrice: { price: (view) => centsToDollars(view.priceCents) },
  };
