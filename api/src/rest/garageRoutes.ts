import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { badInput } from '../errors';
import type { GarageView } from '../garage/garageService';
import type { PendingCaller } from '../http/caller';
import type { Services } from '../services';
import type { Actor } from '../services/actor';
import type { Operation } from '../services/rights';
import { bodyOf } from './queryParams';

/** restRouter.ts's `route`: refuses a caller without the operation's right before its input is read. */
type Route = (
  operation: Operation,
  handler: (req: Request, caller: PendingCaller) => Promise<unknown>,
) => RequestHandler;
type ActorOf = (pending: PendingCaller) => Promise<Actor | null>;

/** A bike of the garage as the shim answers it: the vehicle's document (`_id`, its names) and whether it is current. */
const garageDocument = (garage: GarageView) => ({
  bikes: garage.bikes.map(({ vehicle, current, addedAt }) => ({
    _id: vehicle.id,
    name: vehicle.name,
    make: vehicle.make.name,
    model: vehicle.model.name,
    year: vehicle.year,
    variant: vehicle.variant,
    current,
    addedAt: addedAt.toISOString(),
  })),
  currentId: garage.current?.id ?? null,
});

/** An optional id in a body: absent or null is none; anything but a string is refused with `field`'s message. */
function optionalId(value: unknown, field: string, what: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw badInput({ [field]: `${field} must be ${what} or null` });
  return value;
}

/**
 * My garage under /api (issue 33 point 3), through the same service as GraphQL's myGarage and its mutations. Every
 * answer is the caller's own: `Cache-Control: no-store`, and it varies by Authorization.
 */
export function addGarageRoutes(router: Router, route: Route, services: Services, actorOf: ActorOf): void {
  router.use('/garage', (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    res.vary('Authorization');
    next();
  });
  router.get(
    '/garage',
    route('garage.myGarage', async (_req, caller) =>
      garageDocument(await services.garage.myGarage(await actorOf(caller))),
    ),
  );
  // Before /garage/:vehicleId, which would take "current" for a vehicle id.
  router.put(
    '/garage/current',
    route('garage.setCurrentVehicle', async (req, caller) => {
      const vehicleId = optionalId(bodyOf(req).vehicleId, 'vehicleId', 'a vehicle id');
      const garage = await services.garage.setCurrentVehicle(await actorOf(caller), vehicleId);
      return { acknowledged: true, garage: garageDocument(garage) };
    }),
  );
  router.post(
    '/garage/merge',
    route('garage.mergeGarage', async (req, caller) => {
      const { vehicleIds, currentId, mergeId } = bodyOf(req);
      if (!Array.isArray(vehicleIds) || !vehicleIds.every((id) => typeof id === 'string')) {
        throw badInput({ vehicleIds: 'vehicleIds must be a list of vehicle ids' });
      }
      const merged = await services.garage.mergeGarage(
        await actorOf(caller),
        vehicleIds,
        optionalId(currentId, 'currentId', 'a vehicle id'),
        optionalId(mergeId, 'mergeId', 'a UUID'),
      );
      return { garage: garageDocument(merged.garage), notes: merged.notes, repeated: merged.repeated };
    }),
  );
  router.put(
    '/garage/:vehicleId',
    route('garage.addToGarage', async (req, caller) => {
      const { current } = bodyOf(req);
      if (current !== undefined && typeof current !== 'boolean')
        throw badInput({ current: 'current must be true or false' });
      const { garage, added } = await services.garage.addToGarage(
        await actorOf(caller),
        String(req.params.vehicleId ?? ''),
        current === true,
      );
      return { acknowledged: true, upsertedCount: added ? 1 : 0, garage: garageDocument(garage) };
    }),
  );
  router.delete(
    '/garage/:vehicleId',
    route('garage.removeFromGarage', async (req, caller) => {
      const garage = await services.garage.removeFromGarage(await actorOf(caller), String(req.params.vehicleId ?? ''));
      return { acknowledged: true, deletedCount: 1, garage: garageDocument(garage) };
    }),
  );
}
