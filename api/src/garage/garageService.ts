import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import { makes, models, vehicles } from '../catalog/catalogSchema';
import { toVehicleView, vehicleFields, vehiclesJoined, type VehicleView } from '../catalog/vehicleNames';
import type { Db, Tx } from '../db/database';
import { accountGone, AppError, badInput, notFound } from '../errors';
import { holdAccount } from '../services/accountLock';
import type { Actor } from '../services/actor';
import { isId } from '../services/paging';
import { authorize } from '../services/rights';
import { garageMerges, garageVehicles } from './garageSchema';

/**
 * My garage (issue 33 point 3): the bikes a signed-in customer shops for, each once, with one current (the one the
 * catalog filters by) or none. A visitor's garage lives in the browser and is merged in at sign-in (`mergeGarage`),
 * as the cart is (services/cartService.ts: one at a time per account, bounded, remembered by the browser's merge
 * id). Every operation is about the caller's own garage, found by the account the access token names (its user id
 * and Firebase uid, services/actor.ts), never by an email.
 */

/** The most bikes one garage holds. */
export const maxGarageBikes = 20;
export const garageFullMessage = `A garage holds at most ${maxGarageBikes} bikes: remove one first`;
export const notInGarageMessage = 'This bike is not in your garage';
export const bikeGoneMessage = 'A bike saved in this browser is no longer in our catalog; left out';
export const mergeIdMessage = 'A merge id is a UUID the browser chooses when it starts the merge';
export const tooManyToMergeMessage = `A garage holds at most ${maxGarageBikes} bikes: merge ${maxGarageBikes} or fewer`;

/** A bike in a garage: the vehicle named, whether it is the current one, and when it was added. */
export interface GarageBikeView {
  vehicle: VehicleView;
  current: boolean;
  addedAt: Date;
}

export interface GarageView {
  /** In the order added. */
  bikes: GarageBikeView[];
  /** The current bike's vehicle, or null. */
  current: VehicleView | null;
}

/** What a merge did with a bike of the visitor's that did not go in. */
export interface GarageMergeNote {
  vehicleId: string;
  message: string;
}

export interface GarageMergeView {
  garage: GarageView;
  notes: GarageMergeNote[];
  /** True when this merge id was merged before: nothing was merged again, and the notes are that merge's. */
  repeated: boolean;
}

export function createGarageService(db: Db) {
  async function garageOf(userId: string): Promise<GarageView> {
    const rows = await db
      .select({ ...vehicleFields, bike: garageVehicles })
      .from(garageVehicles)
      .innerJoin(vehicles, eq(vehicles.id, garageVehicles.vehicleId))
      .innerJoin(models, eq(models.id, vehicles.modelId))
      .innerJoin(makes, eq(makes.id, models.makeId))
      .where(eq(garageVehicles.userId, userId))
      .orderBy(asc(garageVehicles.addedAt), asc(garageVehicles.vehicleId))
      .limit(maxGarageBikes);
    const bikes = rows.map((row): GarageBikeView => ({
      vehicle: toVehicleView(row),
      current: row.bike.current,
      addedAt: row.bike.addedAt,
    }));
    return { bikes, current: bikes.find((b) => b.current)?.vehicle ?? null };
  }

  /**
   * Runs `work` in one transaction with the caller's account held (FOR NO KEY UPDATE, as the cart's changes hold
   * it): one customer's garage changes run one at a time, so the bikes a change counts are the bikes it writes to
   * (two adds at once cannot both pass the garage's size) and two changes of the current bike cannot both set one.
   */
  function withAccountHeld<T>(userId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
    return db.transaction(async (tx) => {
      if (!(await holdAccount(tx, userId, 'no key update'))) throw accountGone();
      return work(tx);
    });
  }

  /** Makes `vehicleId` the garage's current bike (none when null); false when it is not in the garage. */
  async function setCurrentIn(tx: Tx, userId: string, vehicleId: string | null): Promise<boolean> {
    await tx
      .update(garageVehicles)
      .set({ current: false })
      .where(and(eq(garageVehicles.userId, userId), eq(garageVehicles.current, true)));
    if (vehicleId === null) return true;
    const set = await tx
      .update(garageVehicles)
      .set({ current: true })
      .where(and(eq(garageVehicles.userId, userId), eq(garageVehicles.vehicleId, vehicleId)))
      .returning({ vehicleId: garageVehicles.vehicleId });
    return set.length > 0;
  }

  /** Puts a bike in: after every bike the garage holds, even within one tick of the clock (PGlite's is coarse). */
  const insertBike = (tx: Tx, userId: string, vehicleId: string) =>
    tx
      .insert(garageVehicles)
      .values({
        userId,
        vehicleId,
        addedAt: sql`greatest(now(), (select max(${garageVehicles.addedAt}) + interval '1 microsecond'
                                      from ${garageVehicles} where ${garageVehicles.userId} = ${userId}))`,
      })
      .onConflictDoNothing()
      .returning({ vehicleId: garageVehicles.vehicleId });

  const countBikes = async (tx: Tx, userId: string): Promise<number> => {
    const [{ n }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(garageVehicles)
      .where(eq(garageVehicles.userId, userId));
    return n;
  };

  return {
    /** The caller's garage: their bikes in the order added, and the current one. */
    async myGarage(actor: Actor | null): Promise<GarageView> {
      const { userId } = authorize('garage.myGarage', actor);
      return garageOf(userId);
    },

    /**
     * Adds a vehicle of the catalog to the caller's garage (a bike already there stays as it is: adding is
     * idempotent), and makes it the current bike when `makeCurrent`. NOT_FOUND for a vehicle the catalog does not
     * have; BAD_USER_INPUT when the garage is full.
     */
    async addToGarage(
      actor: Actor | null,
      vehicleId: string,
      makeCurrent = false,
    ): Promise<{ garage: GarageView; added: boolean }> {
      const { userId } = authorize('garage.addToGarage', actor);
      if (!isId(vehicleId)) throw notFound('Vehicle');
      const added = await withAccountHeld(userId, async (tx) => {
        // Held (as the row's foreign key would hold it) until the bike is in: a vehicle deleted meanwhile is not
        // found, never a foreign-key error.
        const [known] = await tx
          .select({ id: vehicles.id })
          .from(vehicles)
          .where(eq(vehicles.id, vehicleId))
          .for('key share');
        if (!known) throw notFound('Vehicle');
        const [there] = await tx
          .select({ vehicleId: garageVehicles.vehicleId })
          .from(garageVehicles)
          .where(and(eq(garageVehicles.userId, userId), eq(garageVehicles.vehicleId, vehicleId)));
        if (!there && (await countBikes(tx, userId)) >= maxGarageBikes)
          throw badInput({ vehicleId: garageFullMessage });
        const inserted = there ? [] : await insertBike(tx, userId, vehicleId);
        if (makeCurrent) await setCurrentIn(tx, userId, vehicleId);
        return inserted.length > 0;
      });
      return { garage: await garageOf(userId), added };
    },

    /** Takes a bike out of the caller's garage (the current one too: then none is current). */
    async removeFromGarage(actor: Actor | null, vehicleId: string): Promise<GarageView> {
      const { userId } = authorize('garage.removeFromGarage', actor);
      const removed = isId(vehicleId)
        ? await db
            .delete(garageVehicles)
            .where(and(eq(garageVehicles.userId, userId), eq(garageVehicles.vehicleId, vehicleId)))
            .returning({ vehicleId: garageVehicles.vehicleId })
        : [];
      if (!removed.length) throw new AppError('NOT_FOUND', notInGarageMessage);
      return garageOf(userId);
    },

    /** Makes a bike of the caller's garage the current one, or none (null). NOT_FOUND when it is not there. */
    async setCurrentVehicle(actor: Actor | null, vehicleId: string | null): Promise<GarageView> {
      const { userId } = authorize('garage.setCurrentVehicle', actor);
      if (vehicleId !== null && !isId(vehicleId)) throw new AppError('NOT_FOUND', notInGarageMessage);
      await withAccountHeld(userId, async (tx) => {
        // Thrown inside: the transaction is undone, and the bike that was current stays current.
        if (!(await setCurrentIn(tx, userId, vehicleId))) throw new AppError('NOT_FOUND', notInGarageMessage);
      });
      return garageOf(userId);
    },

    /**
     * Merges a visitor's garage (kept in the browser, at sign-in) into the caller's: each bike not there yet is
     * added, in the visitor's order, while the garage has room; the visitor's current bike (`currentId`, merged
     * too if the list lacks it) becomes the current one, being the bike they were just shopping for. What did not
     * go in is reported: a bike the catalog no longer has, one past the garage's size.
     *
     * `mergeId`, chosen by the browser when it starts the merge and sent again with every retry of it, makes the
     * merge count once (as mergeCart's): the first is remembered with its notes in the same transaction as its
     * bikes, and the same id again changes nothing (a bike removed since stays removed) and answers those notes.
     */
    async mergeGarage(
      actor: Actor | null,
      vehicleIds: readonly string[],
      currentId?: string | null,
      mergeId?: string | null,
    ): Promise<GarageMergeView> {
      const { userId } = authorize('garage.mergeGarage', actor);
      if (mergeId != null && !isId(mergeId)) throw badInput({ mergeId: mergeIdMessage });
      const wanted = [...new Set(currentId ? [...vehicleIds, currentId] : vehicleIds)];
      if (wanted.length > maxGarageBikes) throw badInput({ vehicleIds: tooManyToMergeMessage });
      let notes: GarageMergeNote[] = [];
      const ids = wanted.filter(isId);
      let repeated = false;
      if (wanted.length || mergeId) {
        await withAccountHeld(userId, async (tx) => {
          // Held, the account's merges run one at a time: a repeat sent at once waits for the first to commit.
          if (mergeId) {
            const [done] = await tx
              .select({ notes: garageMerges.notes })
              .from(garageMerges)
              .where(and(eq(garageMerges.userId, userId), eq(garageMerges.mergeId, mergeId)));
            if (done) {
              repeated = true;
              notes = done.notes;
              return;
            }
          }
          // The visitor's vehicles, held until their bikes are in (a vehicle deleted meanwhile is simply not found).
          const found = ids.length
            ? await vehiclesJoined(tx).where(inArray(vehicles.id, ids)).for('key share', { of: vehicles })
            : [];
          const known = new Map(found.map((row) => [row.vehicle.id, toVehicleView(row)]));
          const existing = await tx
            .select({ vehicleId: garageVehicles.vehicleId })
            .from(garageVehicles)
            .where(eq(garageVehicles.userId, userId));
          const have = new Set(existing.map((row) => row.vehicleId));
          for (const vehicleId of wanted) {
            const vehicle = known.get(vehicleId);
            if (!vehicle) {
              notes.push({ vehicleId, message: bikeGoneMessage });
              continue;
            }
            if (have.has(vehicleId)) continue;
            if (have.size >= maxGarageBikes) {
              notes.push({ vehicleId, message: `${vehicle.name}: ${garageFullMessage}; left out` });
              continue;
            }
            await insertBike(tx, userId, vehicleId);
            have.add(vehicleId);
          }
          if (currentId && have.has(currentId)) await setCurrentIn(tx, userId, currentId);
          if (mergeId) {
            await tx.insert(garageMerges).values({ userId, mergeId, notes });
            await tx
              .delete(garageMerges)
              .where(and(eq(garageMerges.userId, userId), lt(garageMerges.mergedAt, sql`now() - interval '30 days'`)));
          }
        });
      }
      return { garage: await garageOf(userId), notes, repeated };
    },
  };
}

export type GarageService = ReturnType<typeof createGarageService>;
