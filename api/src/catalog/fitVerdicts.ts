import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/database';
import type { PartRow } from '../db/schema';
import { fitments } from './partLinksSchema';
import type { VehicleView } from './vehicleNames';

export type FitVerdict = 'fits' | 'doesNotFit' | 'fitsWithNote';

export interface Fits {
  verdict: FitVerdict;
  /** In the shopper's words: "Fits your 2019 Honda CRF450R", "Does not fit your ...", "Fits with a note: ...". */
  message: string;
}

/** The rows of fitment of a part on one vehicle that a verdict reads. */
type FitRow = { position: string; note: string };

/** Whether a part fits a bike, given its fitment rows on that bike: universal parts fit any; notes are said. */
export function fitVerdict(part: Pick<PartRow, 'universal'>, bike: VehicleView, rows: FitRow[]): Fits {
  if (part.universal) return { verdict: 'fits', message: `Fits your ${bike.name} (a universal part)` };
  if (!rows.length) return { verdict: 'doesNotFit', message: `Does not fit your ${bike.name}` };
  const notes = rows.filter((r) => r.note).map((r) => (r.position ? `${r.position}: ${r.note}` : r.note));
  return notes.length
    ? { verdict: 'fitsWithNote', message: `Fits your ${bike.name} with a note: ${notes.join('; ')}` }
    : { verdict: 'fits', message: `Fits your ${bike.name}` };
}

/** The verdicts of several parts on one bike, in one statement (a catalog page's items). */
export async function fitVerdicts(db: DbOrTx, bike: VehicleView, partList: PartRow[]): Promise<Map<string, Fits>> {
  const rows = partList.length
    ? await db
        .select({ partId: fitments.partId, position: fitments.position, note: fitments.note })
        .from(fitments)
        .where(
          and(
            eq(fitments.vehicleId, bike.id),
            inArray(
              fitments.partId,
              partList.map((p) => p.id),
            ),
          ),
        )
        .orderBy(asc(fitments.partId), asc(fitments.position))
        // A part fits a bike at a few positions at most; the bound keeps the read bounded whatever the data.
        .limit(partList.length * 20)
    : [];
  const byPart = new Map<string, FitRow[]>();
  for (const row of rows) byPart.set(row.partId, [...(byPart.get(row.partId) ?? []), row]);
  return new Map(partList.map((part) => [part.id, fitVerdict(part, bike, byPart.get(part.id) ?? [])]));
}
