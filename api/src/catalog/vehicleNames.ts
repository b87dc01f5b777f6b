import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/database';
import { makes, models, vehicles, type MakeRow, type ModelRow, type VehicleRow } from './catalogSchema';

/** A vehicle with its model and make, as the shop names it: "2019 Honda CRF450R" (and its variant, if any). */
export interface VehicleView extends VehicleRow {
  model: ModelRow;
  make: MakeRow;
  name: string;
  /** The variant in addresses ('' for the base vehicle): /honda/crf450r/2019/abs. */
  variantSlug: string;
}

/** A name as addresses write it: lower-case ASCII letters and digits, other runs of characters one hyphen. */
export const slugOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export const vehicleName = (v: { year: number; variant: string }, make: { name: string }, model: { name: string }) =>
  `${v.year} ${make.name} ${model.name}${v.variant ? ` ${v.variant}` : ''}`;

/** The joins that name a vehicle: select from `vehicleJoins(db)` with `vehicleFields`, then `toVehicleView`. */
export const vehicleFields = { vehicle: vehicles, model: models, make: makes };

export function vehiclesJoined(db: DbOrTx) {
  return db
    .select(vehicleFields)
    .from(vehicles)
    .innerJoin(models, eq(models.id, vehicles.modelId))
    .innerJoin(makes, eq(makes.id, models.makeId));
}

export const toVehicleView = (row: { vehicle: VehicleRow; model: ModelRow; make: MakeRow }): VehicleView => ({
  ...row.vehicle,
  model: row.model,
  make: row.make,
  name: vehicleName(row.vehicle, row.make, row.model),
  variantSlug: slugOf(row.vehicle.variant),
});
