import {
  check,
  checkPackSize,
  controlCharacters,
  dollarsToCents,
  limits,
  normalisePartNumber,
  partNumberMaxLength,
  partSchema,
  unpairedSurrogate,
} from '@partsyard/common';
import { partNumberKinds } from '../catalog/partLinksSchema';
import { slugOf } from '../catalog/slug';
import type { ImportKind } from './importSchema';

/**
 * The files an import reads (docs/imports.md): CSV with a header row naming its columns (any order, any case;
 * spaces and hyphens read as `_`), one row per record. Each row is checked here on its own as it arrives (what it
 * holds); what it refers to (a part, a vehicle) is checked against the catalog when the job runs (importApply.ts).
 * A row that passes is staged as its `values`, in the order of the kind's `columns`, tidied (trimmed, years as
 * from and to, prices in cents); a row that does not is rejected with its column and reason.
 */

export interface Column {
  name: string;
  required?: boolean;
}

export type RowCheck = { ok: true; values: string[] } | { ok: false; column: string; value: string; reason: string };

export interface ImportFormat {
  columns: Column[];
  /** The row's values by column name ('' for a column the file does not have) checked, or why not. */
  check(row: (name: string) => string): RowCheck;
}

const maxName = 100;
const maxPosition = 50;
const maxNote = 500;
const maxPerVehicle = 999;
const firstYear = 1885;
const lastYear = 2100;

class Refusal extends Error {
  constructor(
    readonly column: string,
    readonly value: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}
/** Refuses the row (no stack is captured: a file of a million bad rows is an answer, not a fault). */
const refuse = (column: string, value: string, reason: string): never => {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    throw new Refusal(column, value, reason);
  } finally {
    Error.stackTraceLimit = limit;
  }
};

/** Text as written, trimmed; refused when it is too long or holds what no catalog text holds. */
function text(row: (name: string) => string, column: string, max: number, required = false): string {
  const value = row(column).trim();
  if (required && !value) refuse(column, value, `${column} is required`);
  if (value.length > max) refuse(column, value.slice(0, 100), `${column} is longer than ${max} characters`);
  if (controlCharacters.test(value) || unpairedSurrogate.test(value)) {
    refuse(column, value, `${column} holds a control character or broken text`);
  }
  return value;
}

/** Slugs of the names seen lately: a file names the same makes and models on row after row. */
const slugs = new Map<string, string>();
const slugCached = (name: string) => {
  let slug = slugs.get(name);
  if (slug === undefined) {
    if (slugs.size > 10_000) slugs.clear();
    slug = slugOf(name);
    slugs.set(name, slug);
  }
  return slug;
};

/** A name that is also an address (a make, a model, a brand): it needs a letter or digit a slug can keep. */
function named(row: (name: string) => string, column: string, required = false): [string, string] {
  const value = text(row, column, maxName, required);
  const slug = slugCached(value);
  if (value && !slug) refuse(column, value, `${column} needs a letter (a-z) or a digit`);
  return [value, slug];
}

/** A whole number from `min` to `max`; `fallback` when empty (required when there is none). */
function whole(row: (name: string) => string, column: string, min: number, max: number, fallback?: number): number {
  const value = row(column).trim();
  if (!value) {
    if (fallback === undefined) refuse(column, value, `${column} is required`);
    return fallback as number;
  }
  const n = /^[+]?\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    refuse(column, value, `${column} must be a whole number from ${min} to ${max}`);
  }
  return n;
}

/** `2019`, or a range `2018-2020` (each year of it): answers from and to. */
function years(row: (name: string) => string): [number, number] {
  const value = row('year').trim();
  const match = /^(\d{4})(?:\s*[-–]\s*(\d{4}))?$/.exec(value);
  const from = match ? Number(match[1]) : NaN;
  const to = match?.[2] ? Number(match[2]) : from;
  if (!match || from < firstYear || to > lastYear || to < from || to - from > 60) {
    refuse(
      'year',
      value,
      `year must be a year from ${firstYear} to ${lastYear}, or a range such as 2018-2020 (at most 60 years)`,
    );
  }
  return [from, to];
}

/** A part number as written (our SKU or another), refused when nothing would be left of it normalised. */
function number(row: (name: string) => string, column: string): string {
  const value = text(row, column, partNumberMaxLength, true);
  if (!normalisePartNumber(value)) refuse(column, value, `${column} has no letters or digits`);
  return value;
}

/** A category path, top first: `Brakes > Brake pads` (at most 3 levels), tidied to `Brakes > Brake pads`. */
function categoryPath(row: (name: string) => string): string {
  const value = text(row, 'category', 300);
  if (!value) return '';
  const levels = value.split('>').map((level) => level.trim());
  if (levels.length > 3 || levels.some((level) => !level || level.length > maxName)) {
    refuse(
      'category',
      value,
      `category must be a path such as "Brakes > Brake pads": 1 to 3 names of at most ${maxName} characters`,
    );
  }
  return levels.join(' > ');
}

const yesNo = new Map([
  ['', 'f'],
  ['yes', 't'],
  ['y', 't'],
  ['true', 't'],
  ['1', 't'],
  ['no', 'f'],
  ['n', 'f'],
  ['false', 'f'],
  ['0', 'f'],
]);

/** The part's fields that addPart checks, checked by the same rules (common/rules.ts), stock aside. */
const partFields = partSchema.omit(['available']);

export const importFormats: Record<ImportKind, ImportFormat> = {
  vehicles: {
    columns: [
      { name: 'make', required: true },
      { name: 'model', required: true },
      { name: 'year', required: true },
      { name: 'variant' },
    ],
    check(row) {
      const [make, makeSlug] = named(row, 'make', true);
      const [model, modelSlug] = named(row, 'model', true);
      const [from, to] = years(row);
      const variant = text(row, 'variant', maxName);
      return { ok: true, values: [make, model, String(from), String(to), variant, makeSlug, modelSlug] };
    },
  },
  parts: {
    columns: [
      { name: 'sku', required: true },
      { name: 'name', required: true },
      { name: 'description' },
      { name: 'price', required: true },
      { name: 'min_order' },
      { name: 'pack_size' },
      { name: 'stock' },
      { name: 'brand' },
      { name: 'category' },
      { name: 'universal' },
      { name: 'image' },
    ],
    check(row) {
      const sku = number(row, 'sku');
      const priceText = row('price').trim();
      const price = /^\d{1,9}(\.\d{1,2})?$/.test(priceText) ? Number(priceText) : NaN;
      const minOrder = whole(row, 'min_order', 1, limits.maxQuantity, 1);
      const description = text(row, 'description', limits.longText);
      const fields = check(partFields, {
        name: row('name').trim(),
        price,
        minOrder,
        image: row('image').trim(),
        description: description || row('name').trim(),
      });
      if (!fields.ok) {
        const [field, reason] = Object.entries(fields.errors)[0];
        const column = { name: 'name', price: 'price', minOrder: 'min_order', image: 'image' }[field] ?? field;
        refuse(column, row(column).trim(), reason);
      }
      const pack = checkPackSize(whole(row, 'pack_size', 1, limits.maxQuantity, 1));
      if (!pack.ok) refuse('pack_size', row('pack_size'), pack.error);
      const stock = whole(row, 'stock', 0, limits.maxQuantity, 0);
      const [brand, brandSlug] = named(row, 'brand');
      const universal = yesNo.get(row('universal').trim().toLowerCase());
      if (universal === undefined) refuse('universal', row('universal'), 'universal must be yes or no');
      return {
        ok: true,
        values: [
          sku,
          row('name').trim(),
          description,
          String(dollarsToCents(price)),
          String(minOrder),
          String(pack.ok ? pack.value : 1),
          String(stock),
          brand,
          categoryPath(row),
          universal as string,
          row('image').trim(),
          brandSlug,
        ],
      };
    },
  },
  numbers: {
    columns: [
      { name: 'sku', required: true },
      { name: 'kind', required: true },
      { name: 'number', required: true },
      { name: 'brand' },
    ],
    check(row) {
      const sku = number(row, 'sku');
      const kind = row('kind').trim().toLowerCase();
      if (!(partNumberKinds as readonly string[]).includes(kind)) {
        refuse('kind', row('kind'), `kind must be one of ${partNumberKinds.join(', ')}`);
      }
      const [brand, brandSlug] = named(row, 'brand');
      return { ok: true, values: [sku, kind, number(row, 'number'), brand, brandSlug] };
    },
  },
  fitment: {
    columns: [
      { name: 'sku', required: true },
      { name: 'make', required: true },
      { name: 'model', required: true },
      { name: 'year', required: true },
      { name: 'variant' },
      { name: 'position' },
      { name: 'quantity' },
      { name: 'note' },
    ],
    check(row) {
      const sku = number(row, 'sku');
      const [make, makeSlug] = named(row, 'make', true);
      const [model, modelSlug] = named(row, 'model', true);
      const [from, to] = years(row);
      return {
        ok: true,
        values: [
          sku,
          make,
          model,
          String(from),
          String(to),
          text(row, 'variant', maxName),
          text(row, 'position', maxPosition).toLowerCase(),
          String(whole(row, 'quantity', 1, maxPerVehicle, 1)),
          text(row, 'note', maxNote),
          makeSlug,
          modelSlug,
        ],
      };
    },
  },
  supersessions: {
    columns: [
      { name: 'sku', required: true },
      { name: 'replaced_by', required: true },
    ],
    check(row) {
      const sku = number(row, 'sku');
      const replacedBy = number(row, 'replaced_by');
      if (normalisePartNumber(sku) === normalisePartNumber(replacedBy)) {
        refuse('replaced_by', replacedBy, 'A part cannot replace itself');
      }
      return { ok: true, values: [sku, replacedBy] };
    },
  },
};

/** A header cell as a column name: `Min order`, `min-order` and `MIN_ORDER` are `min_order`. */
export const columnName = (cell: string) =>
  cell
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/**
 * The header row checked against the kind's columns: each known at most once, every required one there.
 * Answers the problem in words, or null.
 */
export function headerProblem(kind: ImportKind, header: string[]): string | null {
  const known = importFormats[kind].columns.map((c) => c.name);
  const names = header.map(columnName);
  const unknown = names.filter((name) => !known.includes(name));
  const expected = `The columns of a ${kind} file are ${known.join(', ')}`;
  if (unknown.length) return `Unknown column ${unknown.map((u) => `"${u}"`).join(', ')}. ${expected}.`;
  const twice = names.filter((name, i) => names.indexOf(name) !== i);
  if (twice.length) return `The column "${twice[0]}" is named twice.`;
  const missing = importFormats[kind].columns.filter((c) => c.required && !names.includes(c.name));
  if (missing.length) return `The file has no column ${missing.map((m) => `"${m.name}"`).join(', ')}. ${expected}.`;
  return null;
}

/**
 * The row check of a file whose header (as the file has it) is `header`: the columns are looked up once, so each
 * row costs only its own checks.
 */
export function rowChecker(kind: ImportKind, header: string[]): (fields: string[]) => RowCheck {
  const index = new Map(header.map((cell, i) => [columnName(cell), i]));
  const format = importFormats[kind];
  return (fields) => {
    if (fields.length !== header.length) {
      return {
        ok: false,
        column: '',
        value: '',
        reason: `The row has ${fields.length} values where the header names ${header.length}`,
      };
    }
    try {
      return format.check((name) => {
        const i = index.get(name);
        return i === undefined ? '' : fields[i];
      });
    } catch (error) {
      if (error instanceof Refusal)
        return { ok: false, column: error.column, value: error.value, reason: error.reason };
      throw error;
    }
  };
}
