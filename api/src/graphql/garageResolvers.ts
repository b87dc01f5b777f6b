import type { MutationResolvers, QueryResolvers, Resolvers } from './generated';

/** My garage's thin adapters (issue 33 point 3): each says which operation of api/src/garage does the work. */
export const garageQueries: Pick<QueryResolvers, 'myGarage'> = {
  myGarage: (_, __, { services, actor }) => services.garage.myGarage(actor),
};

export const garageMutations: Pick<
  MutationResolvers,
  'addToGarage' | 'removeFromGarage' | 'setCurrentVehicle' | 'mergeGarage'
> = {
  addToGarage: async (_, { vehicleId, makeCurrent }, { services, actor }) =>
    (await services.garage.addToGarage(actor, vehicleId, makeCurrent ?? false)).garage,
  removeFromGarage: (_, { vehicleId }, { services, actor }) => services.garage.removeFromGarage(actor, vehicleId),
  setCurrentVehicle: (_, { vehicleId }, { services, actor }) =>
    services.garage.setCurrentVehicle(actor, vehicleId ?? null),
  mergeGarage: (_, { vehicleIds, currentId, mergeId }, { services, actor }) =>
    services.garage.mergeGarage(actor, vehicleIds, currentId, mergeId),
};

export const garageTypes: Pick<Resolvers, 'GarageBike'> = {
  GarageBike: {
    addedAt: (bike) => bike.addedAt.toISOString(),
  },
};
