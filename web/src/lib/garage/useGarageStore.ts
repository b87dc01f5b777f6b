import type { ApolloCache } from '@apollo/client';
import { useMemo, useSyncExternalStore } from 'react';
import {
  MyGarageDocument,
  useAddToGarageMutation,
  useMyGarageQuery,
  useRemoveFromGarageMutation,
  useSetCurrentVehicleMutation,
  type GarageFieldsFragment,
  type MyGarageQuery,
} from '../../generated/graphql';
import { useOptionalAuth } from '../auth';
import type { GarageState } from './garage';
import { visitorGarage } from './visitorGarage';

/** Every garage mutation answers the whole garage: it replaces the `myGarage` query's answer in Apollo's cache. */
export function writeGarage(cache: ApolloCache<unknown>, garage: GarageFieldsFragment | undefined): void {
  if (!garage) return;
  cache.writeQuery<MyGarageQuery>({ query: MyGarageDocument, data: { myGarage: garage } });
}

/** The garage's state and actions: the server's while signed in, this browser's for a visitor (GarageProvider). */
export function useGarageStore(): GarageState {
  const local = useSyncExternalStore(visitorGarage.subscribe, visitorGarage.read, visitorGarage.serverSnapshot);
  // Signed in with bikes still in this browser, the garage is being merged into the account's (GarageMerger): the
  // browser's is shown until the merge has answered and emptied it. The account's is not asked for meanwhile, so an
  // answer read before the merge cannot land after it and show the garage without the visitor's bikes.
  const signedIn = useOptionalAuth()?.status === 'signedIn' && local.bikes.length === 0;
  const { data, loading } = useMyGarageQuery({ skip: !signedIn, fetchPolicy: 'cache-and-network' });
  const [addBike] = useAddToGarageMutation({ update: (cache, r) => writeGarage(cache, r.data?.addToGarage) });
  const [removeBike] = useRemoveFromGarageMutation({
    update: (cache, r) => writeGarage(cache, r.data?.removeFromGarage),
  });
  const [setCurrentBike] = useSetCurrentVehicleMutation({
    update: (cache, r) => writeGarage(cache, r.data?.setCurrentVehicle),
  });
  const server = data?.myGarage;

  return useMemo((): GarageState => {
    if (signedIn) {
      return {
        kind: 'server',
        loading: loading && !server,
        bikes: (server?.bikes ?? []).map((b) => ({ id: b.vehicle.id, name: b.vehicle.name })),
        current: server?.current ? { id: server.current.id, name: server.current.name } : null,
        async add(bike, options) {
          await addBike({ variables: { vehicleId: bike.id, makeCurrent: options?.makeCurrent ?? false } });
        },
        async remove(id) {
          await removeBike({ variables: { vehicleId: id } });
        },
        async setCurrent(id) {
          await setCurrentBike({ variables: { vehicleId: id } });
        },
      };
    }
    return {
      kind: 'visitor',
      loading: false,
      bikes: local.bikes,
      current: local.bikes.find((b) => b.id === local.currentId) ?? null,
      async add(bike, options) {
        visitorGarage.add(bike, options?.makeCurrent ?? false);
      },
      async remove(id) {
        visitorGarage.remove(id);
      },
      async setCurrent(id) {
        visitorGarage.setCurrent(id);
      },
    };
  }, [signedIn, loading, server, local, addBike, removeBike, setCurrentBike]);
}
