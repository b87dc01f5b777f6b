import {
  centsToDollars,
  check,
  dollarsToCents,
  normalisePartNumber,
  partEditSchema,
  partNumberKindNames,
  partNumberProblem,
  type FieldErrors,
} from '@partsyard/common';
import { and, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/database';
import { parts, type PartRow } from '../db/schema';
import { badInput, notFound } from '../errors';
import type { Actor } from '../services/actor';
import { isId } from '../services/paging';
import { checkPartPricing, defaultPartImage } from '../services/partsService';
import { authorize } from '../services/rights';
import { brands, categories, vehicles } from './catalogSchema';
import { fitments, partNumberKinds, partNumbers, type PartNumberKind } from './partLinksSchema';
import { lockSupersession, replacementProblem } from './supersession';

/** The most fitment rows one edit adds and removes together; more goes through the import (issue 33 point 5). */
export const maxFitmentRowsPerEdit = 500;
/** The most numbers one part carries besides its SKU. */
export const maxNumbersPerPart = 50;
/** The longest position ("front left") and note ("with ABS only") of a fitment row, and its largest quantity. */
export const fitmentLimits = { position: 50, note: 200, quantity: 1000 } as const;

export const partEditMessages = {
  notAnObject: 'Send the changes as an object of fields',
  stockByAdjustment:
    'Stock changes only by an adjustment with a reason (adjustStock; POST /api/parts/{id}/stock), kept in its history',
  noSuchBrand: 'No brand has this id',
  noSuchCategory: 'No category has this id',
  noSuchVehicle: 'No vehicle has this id',
  noSuchPart: 'No part has this id',
  noSuchSku: (sku: string) => `No part has the SKU ${sku}`,
  replacementTwice: 'Send replacedById or replacedBySku, not both',
  notBoolean: 'Must be true or false',
  notList: 'Must be a list',
  tooManyNumbers: `A part carries at most ${maxNumbersPerPart} numbers besides its SKU`,
  numberKind: 'Choose a kind: manufacturer, OEM, interchange or EAN',
  numberTwice: (kind: PartNumberKind, raw: string, first: number) =>
    `Listed twice: the same ${partNumberKindNames[kind]} as number ${first + 1} (${raw})`,
  skuTaken: (other: { sku: string; name: string }) => `${other.sku} (${other.name}) has this SKU already`,
  tooManyFitmentRows: `At most ${maxFitmentRowsPerEdit} fitment rows per change: load more with the catalog import`,
  fitmentTwice: (first: number) => `Listed twice: the same vehicle and position as row ${first + 1}`,
  positionTooLong: `Must be ${fitmentLimits.position} characters or fewer`,
  noteTooLong: `Must be ${fitmentLimits.note} characters or fewer`,
  quantity: `Must be a whole number from 1 to ${fitmentLimits.quantity}`,
  notText: 'Must be text',
} as const;

/** A number as checked: kind, the text as written (trimmed), its brand. */
interface NumberInput {
  kind: PartNumberKind;
  raw: string;
  brandId: string | null;
}

interface FitmentInput {
  vehicleId: string;
  position: string;
  quantity: number;
  note: string;
}

/** What an edit changes, each part of it checked; `undefined`: left as it is. */
interface CheckedEdit {
  columns: Partial<typeof parts.$inferInsert>;
  numbers?: NumberInput[];
  addFitment: FitmentInput[];
  removeFitment: { vehicleId: string; position: string }[];
}

const given = (patch: Record<string, unknown>, field: string) => patch[field] !== undefined;
/** A field that may be set to null (brand, category, replacement): present means changed, even to null. */
const present = (patch: Record<string, unknown>, field: string) =>
  Object.prototype.hasOwnProperty.call(patch, field) && patch[field] !== undefined;
/** An id as sent; anything but text is no id (and so names no row). */
const idOf = (value: unknown): string => (typeof value === 'string' ? value : '');
const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : undefined);
const hasControlCharacter = (value: string) =>
  [...value].some((c) => (c.charCodeAt(0) < 0x20 && c !== '\t' && c !== '\n') || c === '\u007f');

/** A part's quantity breaks in the shape admins send them (dollars), to check them again against new figures. */
const tiersAsInput = (part: PartRow) =>
  part.priceTiers.map((tier) => ({ minUnits: tier.minUnits, price: centsToDollars(tier.priceCents) }));

/** A fitment row's own text (position or note): trimmed, bounded, no control characters. */
function fitmentText(value: unknown, max: number, field: string, errors: FieldErrors): string {
  if (value === undefined || value === null) return '';
  const t = text(value);
  if (t === undefined) errors[field] = partEditMessages.notText;
  else if (hasControlCharacter(t)) errors[field] = 'Must not contain control characters';
  else if (t.length > max)
    errors[field] = max === fitmentLimits.note ? partEditMessages.noteTooLong : partEditMessages.positionTooLong;
  return t ?? '';
}

/**
 * Editing a part (issue 33 point 5): every field of it, in one transaction with the part's row locked, checked by
 * the rules that add one (common/rules.ts partEditSchema, the pricing rule) and the catalog's own (numbers,
 * brand, category, fitment, supersession). Any bad field refuses the whole edit (BAD_USER_INPUT naming each
 * field) and nothing changes. The stock is not a field here: it changes by adjustments (api/src/inventory).
 */
export function createPartEditing(db: Db) {
  /** Checks `patch` against `part` as it is now (its row locked); the errors, or what to write. */
  async function checkEdit(tx: Tx, part: PartRow, patch: Record<string, unknown>): Promise<CheckedEdit> {
    const errors: FieldErrors = {};
    const columns: CheckedEdit['columns'] = {};

    if (given(patch, 'available')) errors.available = partEditMessages.stockByAdjustment;

    // The part's own fields: addPart's rules on the part as it would be (the stock aside).
    const own = ['name', 'description', 'image', 'price', 'minOrder'] as const;
    const current = {
      name: part.name,
      description: part.description,
      image: part.image === defaultPartImage ? '' : part.image,
      price: centsToDollars(part.priceCents),
      minOrder: part.minOrder,
    };
    // A field sent as null is left as it is (none of these can be empty).
    const merged = {
      ...current,
      ...Object.fromEntries(own.filter((f) => given(patch, f) && patch[f] !== null).map((f) => [f, patch[f]])),
    };
    const checked = check(partEditSchema, merged);
    if (!checked.ok) Object.assign(errors, checked.errors);
    else {
      const next = checked.value;
      columns.name = next.name;
      columns.description = next.description;
      columns.image = next.image || defaultPartImage;
      columns.priceCents = dollarsToCents(next.price);
      columns.minOrder = next.minOrder;
      // The breaks and pack size stay consistent with the price and minimum order, sent or not.
      const priceTiers =
        given(patch, 'priceTiers') && patch.priceTiers !== null ? patch.priceTiers : tiersAsInput(part);
      const packSize = given(patch, 'packSize') && patch.packSize !== null ? patch.packSize : part.packSize;
      try {
        const pricing = checkPartPricing({ priceTiers, packSize }, columns.priceCents, columns.minOrder);
        columns.priceTiers = pricing.priceTiers;
        columns.packSize = pricing.packSize;
      } catch (error) {
        Object.assign(errors, (error as { fields?: FieldErrors }).fields ?? {});
      }
    }

    if (given(patch, 'sku') && patch.sku !== null) {
      const sku = text(patch.sku);
      const problem = sku === undefined ? partEditMessages.notText : partNumberProblem(sku);
      if (problem) errors.sku = problem;
      else if (sku !== undefined) {
        const [other] = await tx
          .select({ sku: parts.sku, name: parts.name })
          .from(parts)
          .where(and(eq(parts.skuNormalised, sql`part_number_normalised(${sku})`), ne(parts.id, part.id)));
        if (other) errors.sku = partEditMessages.skuTaken(other);
        else columns.sku = sku;
      }
    }

    if (given(patch, 'universal') && patch.universal !== null) {
      if (typeof patch.universal !== 'boolean') errors.universal = partEditMessages.notBoolean;
      else columns.universal = patch.universal;
    }

    // Brand and category (null: none), and the numbers' brands: every id must name a row.
    const brandIds = new Set<string>();
    if (present(patch, 'brandId') && patch.brandId !== null) brandIds.add(idOf(patch.brandId));
    const numbers =
      given(patch, 'numbers') && patch.numbers !== null ? checkNumbers(patch.numbers, errors, brandIds) : undefined;
    const knownBrands = await existing(tx, brands, brands.id, [...brandIds]);
    if (present(patch, 'brandId')) {
      if (patch.brandId === null) columns.brandId = null;
      else if (!knownBrands.has(idOf(patch.brandId))) errors.brandId = partEditMessages.noSuchBrand;
      else columns.brandId = idOf(patch.brandId);
    }
    numbers?.forEach((number, i) => {
      if (number.brandId !== null && !knownBrands.has(number.brandId))
        errors[`numbers.${i}.brandId`] = partEditMessages.noSuchBrand;
    });
    if (present(patch, 'categoryId')) {
      if (patch.categoryId === null) columns.categoryId = null;
      else if (!(await existing(tx, categories, categories.id, [idOf(patch.categoryId)])).size) {
        errors.categoryId = partEditMessages.noSuchCategory;
      } else columns.categoryId = idOf(patch.categoryId);
    }

    // The replacement, by id or by its SKU (what an admin reads on the part): checked under the supersession lock.
    if (present(patch, 'replacedById') && present(patch, 'replacedBySku')) {
      errors.replacedBySku = partEditMessages.replacementTwice;
    } else if (present(patch, 'replacedById') || present(patch, 'replacedBySku')) {
      const field = present(patch, 'replacedById') ? 'replacedById' : 'replacedBySku';
      let replacedById: string | null = null;
      if (field === 'replacedById' && patch.replacedById !== null) replacedById = idOf(patch.replacedById);
      if (field === 'replacedBySku') {
        const sku = patch.replacedBySku === null ? '' : text(patch.replacedBySku);
        if (sku === undefined) errors.replacedBySku = partEditMessages.notText;
        else if (sku) {
          const [found] = await tx
            .select({ id: parts.id })
            .from(parts)
            .where(eq(parts.skuNormalised, sql`part_number_normalised(${sku})`));
          if (!found) errors.replacedBySku = partEditMessages.noSuchSku(sku);
          else replacedById = found.id;
        }
      }
      if (!errors[field]) {
        const problem = await replacementProblem(tx, part.id, replacedById);
        if (problem && 'missing' in problem) errors[field] = partEditMessages.noSuchPart;
        else if (problem) errors[field] = problem.loop;
        else columns.replacedById = replacedById;
      }
    }

    const { addFitment, removeFitment } = await checkFitment(tx, patch, errors);
    if (Object.keys(errors).length) throw badInput(errors);
    return { columns, numbers, addFitment, removeFitment };
  }

  /** The numbers as a set: each with a kind, a number that can be kept, at most once per kind. */
  function checkNumbers(value: unknown, errors: FieldErrors, brandIds: Set<string>): NumberInput[] | undefined {
    if (!Array.isArray(value)) {
      errors.numbers = partEditMessages.notList;
      return undefined;
    }
    if (value.length > maxNumbersPerPart) {
      errors.numbers = partEditMessages.tooManyNumbers;
      return undefined;
    }
    const seen = new Map<string, number>();
    return value.map((entry: unknown, i): NumberInput => {
      const at = `numbers.${i}`;
      const item = isRecord(entry) ? entry : {};
      const kindText = typeof item.kind === 'string' ? item.kind.toLowerCase() : '';
      const kind = partNumberKinds.find((k) => k === kindText);
      if (!kind) errors[`${at}.kind`] = partEditMessages.numberKind;
      const raw = text(item.raw);
      const problem = raw === undefined ? partEditMessages.notText : partNumberProblem(raw);
      if (problem) errors[`${at}.raw`] = problem;
      else if (kind && raw !== undefined) {
        const key = `${kind} ${normalisePartNumber(raw)}`;
        const first = seen.get(key);
        if (first !== undefined) errors[`${at}.raw`] = partEditMessages.numberTwice(kind, raw, first);
        else seen.set(key, i);
      }
      let brandId: string | null = null;
      if (item.brandId !== undefined && item.brandId !== null) {
        brandId = idOf(item.brandId);
        brandIds.add(brandId);
      }
      return { kind: kind ?? 'manufacturer', raw: raw ?? '', brandId };
    });
  }

  /** Fitment rows to add (or change: the same vehicle and position) and to remove, at most 500 together. */
  async function checkFitment(tx: Tx, patch: Record<string, unknown>, errors: FieldErrors) {
    const lists = { addFitment: patch.addFitment ?? [], removeFitment: patch.removeFitment ?? [] };
    for (const [field, list] of Object.entries(lists))
      if (!Array.isArray(list)) errors[field] = partEditMessages.notList;
    if (!Array.isArray(lists.addFitment) || !Array.isArray(lists.removeFitment))
      return { addFitment: [], removeFitment: [] };
    if (lists.addFitment.length + lists.removeFitment.length > maxFitmentRowsPerEdit) {
      errors[lists.addFitment.length ? 'addFitment' : 'removeFitment'] = partEditMessages.tooManyFitmentRows;
      return { addFitment: [], removeFitment: [] };
    }
    const vehicleIds = new Set<string>();
    const read = (field: 'addFitment' | 'removeFitment', withDetails: boolean) => {
      const seen = new Map<string, number>();
      return (lists[field] as unknown[]).map((entry, i): FitmentInput => {
        const at = `${field}.${i}`;
        const item = isRecord(entry) ? entry : {};
        const vehicleId = typeof item.vehicleId === 'string' ? item.vehicleId : '';
        vehicleIds.add(vehicleId);
        const position = fitmentText(item.position, fitmentLimits.position, `${at}.position`, errors);
        let quantity = 1;
        let note = '';
        if (withDetails) {
          if (item.quantity !== undefined && item.quantity !== null) {
            const q = item.quantity;
            if (typeof q !== 'number' || !Number.isInteger(q) || q < 1 || q > fitmentLimits.quantity) {
              errors[`${at}.quantity`] = partEditMessages.quantity;
            } else quantity = q;
          }
          note = fitmentText(item.note, fitmentLimits.note, `${at}.note`, errors);
        }
        const key = `${vehicleId} ${position}`;
        const first = seen.get(key);
        if (first !== undefined) errors[`${at}.vehicleId`] = partEditMessages.fitmentTwice(first);
        else seen.set(key, i);
        return { vehicleId, position, quantity, note };
      });
    };
    const addFitment = read('addFitment', true);
    const removeFitment = read('removeFitment', false);
    const known = await existing(tx, vehicles, vehicles.id, [...vehicleIds]);
    addFitment.forEach((row, i) => {
      if (!known.has(row.vehicleId)) errors[`addFitment.${i}.vehicleId`] ??= partEditMessages.noSuchVehicle;
    });
    return { addFitment, removeFitment: removeFitment.map(({ vehicleId, position }) => ({ vehicleId, position })) };
  }

  /** Writes a checked edit; answers whether anything changed. */
  async function write(tx: Tx, part: PartRow, edit: CheckedEdit): Promise<{ part: PartRow; changed: boolean }> {
    let changed = Object.entries(edit.columns).some(
      ([key, value]) => JSON.stringify(part[key as keyof PartRow]) !== JSON.stringify(value),
    );
    const [updated] = changed
      ? await tx.update(parts).set(edit.columns).where(eq(parts.id, part.id)).returning()
      : [part];

    if (edit.numbers) {
      const before = await tx.select().from(partNumbers).where(eq(partNumbers.partId, part.id));
      const asSet = (rows: { kind: string; raw: string; brandId: string | null }[]) =>
        rows
          .map((r) => `${r.kind}\u0000${r.raw}\u0000${r.brandId ?? ''}`)
          .sort()
          .join('\n');
      if (asSet(before) !== asSet(edit.numbers)) {
        changed = true;
        await tx.delete(partNumbers).where(eq(partNumbers.partId, part.id));
        if (edit.numbers.length) {
          await tx.insert(partNumbers).values(edit.numbers.map((n) => ({ ...n, partId: part.id })));
        }
      }
    }

    // Rows named by a vehicle id that is no UUID name no row: they are left out (and with them none, no `or()`
    // of nothing, which would match every row of the part).
    const toRemove = edit.removeFitment.filter((row) => isId(row.vehicleId));
    if (toRemove.length) {
      const removed = await tx
        .delete(fitments)
        .where(
          and(
            eq(fitments.partId, part.id),
            or(
              ...toRemove.map((row) => and(eq(fitments.vehicleId, row.vehicleId), eq(fitments.position, row.position))),
            ),
          ),
        )
        .returning({ vehicleId: fitments.vehicleId });
      if (removed.length) changed = true;
    }
    if (edit.addFitment.length) {
      // A row already there for the vehicle and position takes the new quantity and note; one that says the
      // same is not written again.
      const written = await tx
        .insert(fitments)
        .values(edit.addFitment.map((row) => ({ ...row, partId: part.id })))
        .onConflictDoUpdate({
          target: [fitments.vehicleId, fitments.partId, fitments.position],
          set: { quantity: sql`excluded.quantity`, note: sql`excluded.note` },
          setWhere: sql`(${fitments.quantity}, ${fitments.note}) is distinct from (excluded.quantity, excluded.note)`,
        })
        .returning({ vehicleId: fitments.vehicleId });
      if (written.length) changed = true;
    }
    return { part: updated, changed };
  }

  return {
    /**
     * Edits a part (admin): any of name, description, image, price, minOrder, priceTiers, packSize, sku, brandId,
     * categoryId, universal, replacedById (or replacedBySku: '' or null for none); `numbers` replaces its numbers as a set; `addFitment` and
     * `removeFitment` change up to 500 fitment rows. Answers the part and whether anything changed.
     */
    async updatePart(actor: Actor | null, id: string, patch: unknown): Promise<{ part: PartRow; changed: boolean }> {
      authorize('catalog.updatePart', actor);
      if (!isId(id)) throw notFound('Part');
      if (!isRecord(patch)) throw badInput({ _: partEditMessages.notAnObject });
      return db.transaction(async (tx) => {
        // A new replacement is checked under the supersession lock, taken before the part's row as
        // setReplacement takes them (never the other way round: two edits would wait for each other).
        if (present(patch, 'replacedById') || present(patch, 'replacedBySku')) await lockSupersession(tx);
        // The part's row is held as an order's stock update holds it, so an order placed meanwhile sees the
        // part before or after the edit, never half of it (and its pricing check sees the new price).
        const [part] = await tx.select().from(parts).where(eq(parts.id, id)).for('no key update');
        if (!part) throw notFound('Part');
        const edit = await checkEdit(tx, part, patch);
        return write(tx, part, edit);
      });
    },
  };
}

/** Which of `ids` name a row of `table` (ids that are no UUID name none). */
async function existing(
  tx: Tx,
  table: typeof brands | typeof categories | typeof vehicles,
  idColumn: typeof brands.id | typeof categories.id | typeof vehicles.id,
  ids: string[],
): Promise<Set<string>> {
  const wellFormed = ids.filter(isId);
  if (!wellFormed.length) return new Set();
  const rows = await tx.select({ id: idColumn }).from(table).where(inArray(idColumn, wellFormed));
  return new Set(rows.map((row) => row.id));
}
