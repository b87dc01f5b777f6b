import type { MutationResolvers, QueryResolvers, Resolvers } from './generated';

/** A part's stock (issue 33 point 5), thin adapters over api/src/inventory: adjustments and their history. */
export const inventoryQueries: Pick<QueryResolvers, 'stockHistory'> = {
  stockHistory: (_, { partId, ...args }, { services, actor }) => services.inventory.stockHistory(actor, partId, args),
};

export const inventoryMutations: Pick<MutationResolvers, 'adjustStock'> = {
  adjustStock: (_, { partId, input }, { services, actor }) => services.inventory.adjustStock(actor, partId, input),
};

export const inventoryTypes: Pick<Resolvers, 'StockReason' | 'StockMovement'> = {
  StockReason: { RECEIVED: 'received', COUNTED: 'counted', DAMAGED: 'damaged', RETURNED: 'returned', OTHER: 'other' },
  StockMovement: {
    actor: (movement) => movement.actor && { name: movement.actor.name, email: movement.actor.email ?? '' },
    createdAt: (movement) => movement.createdAt.toISOString(),
  },
};
