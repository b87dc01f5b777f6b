import { centsToDollars } from '@partsyard/common';
import { problemsCsv } from '../ordering/quickOrderCheck';
import type { MutationResolvers, QueryResolvers, Resolvers } from './generated';

/** Ordering by part number's thin adapters (issue 34): each says which operation of api/src/ordering does the work. */
const dollars = (cents: number | null) => (cents === null ? null : centsToDollars(cents));

export const orderingQueries: Pick<QueryResolvers, 'quickOrderCheck' | 'savedLists' | 'savedList'> = {
  quickOrderCheck: (_, { lines }, { services, actor }) => services.quickOrder.check(actor, lines),
  savedLists: (_, __, { services, actor }) => services.savedLists.myLists(actor),
  savedList: (_, { id }, { services, actor }) => services.savedLists.savedList(actor, id),
};

export const orderingMutations: Pick<
  MutationResolvers,
  | 'addQuickOrderToCart'
  | 'orderAgain'
  | 'createSavedList'
  | 'renameSavedList'
  | 'deleteSavedList'
  | 'setSavedListLine'
  | 'removeSavedListLine'
  | 'addCartToSavedList'
  | 'addQuickOrderToSavedList'
  | 'addOrderToSavedList'
  | 'savedListToCart'
> = {
  addQuickOrderToCart: (_, { lines }, { services, actor }) => services.quickOrder.addToCart(actor, lines),
  orderAgain: (_, { from }, { services, actor }) => services.quickOrder.orderAgain(actor, from),
  createSavedList: (_, { name }, { services, actor }) => services.savedLists.createSavedList(actor, name),
  renameSavedList: (_, { id, name }, { services, actor }) => services.savedLists.renameSavedList(actor, id, name),
  deleteSavedList: (_, { id }, { services, actor }) => services.savedLists.deleteSavedList(actor, id),
  setSavedListLine: (_, { id, partId, quantity }, { services, actor }) =>
    services.savedLists.setSavedListLine(actor, id, partId, quantity),
  removeSavedListLine: (_, { id, partId, lineId }, { services, actor }) =>
    services.savedLists.removeSavedListLine(actor, id, { partId, lineId }),
  addCartToSavedList: (_, { id }, { services, actor }) => services.savedLists.addCartToSavedList(actor, id),
  addQuickOrderToSavedList: (_, { id, lines }, { services, actor }) =>
    services.savedLists.addQuickOrderToSavedList(actor, id, lines),
  addOrderToSavedList: (_, { id, from }, { services, actor }) =>
    services.savedLists.addOrderToSavedList(actor, id, from),
  savedListToCart: (_, { id }, { services, actor }) => services.savedLists.savedListToCart(actor, id),
};

export const orderingTypes: Pick<
  Resolvers,
  'QuickOrderLine' | 'QuickOrderCheck' | 'SavedList' | 'SavedListLine' | 'SavedListSummary' | 'QuickOrderProblemKind'
> = {
  QuickOrderProblemKind: {
    BAD_NUMBER: 'bad_number',
    BAD_QUANTITY: 'bad_quantity',
    UNKNOWN_NUMBER: 'unknown_number',
    SUPERSEDED: 'superseded',
    AMBIGUOUS: 'ambiguous',
    NOT_FOR_SALE: 'not_for_sale',
    BELOW_MINIMUM: 'below_minimum',
    NOT_PACK_MULTIPLE: 'not_pack_multiple',
    NOT_ENOUGH_STOCK: 'not_enough_stock',
    TOO_LARGE: 'too_large',
    PART_GONE: 'part_gone',
    CART_FULL: 'cart_full',
  },
  QuickOrderLine: {
    unitPrice: (line) => dollars(line.unitPriceCents),
    lineTotal: (line) => dollars(line.lineTotalCents),
  },
  QuickOrderCheck: {
    total: (check) => centsToDollars(check.totalCents),
    problemsCsv: (check) => problemsCsv(check),
  },
  SavedList: {
    total: (list) => centsToDollars(list.totalCents),
    createdAt: (list) => list.createdAt.toISOString(),
    updatedAt: (list) => list.updatedAt.toISOString(),
  },
  SavedListLine: {
    unitPrice: (line) => dollars(line.unitPriceCents),
    lineTotal: (line) => dollars(line.lineTotalCents),
    addedAt: (line) => line.addedAt.toISOString(),
  },
  SavedListSummary: {
    updatedAt: (list) => list.updatedAt.toISOString(),
  },
};
