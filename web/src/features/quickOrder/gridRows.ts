import { maxQuickOrderLines, quickOrderMessages, type QuickOrderLineText } from '@partsyard/common';

/**
 * The quick order grid's rows as plain data (issue 34 point 1): what typing, pasting and a file do to them, pure and
 * tested. A row's place in the grid (from 1) is the line number the server's check answers with.
 */

export interface GridRow {
  /** Stable while the row lives (React's key, and the row's check result). */
  id: string;
  number: string;
  quantity: string;
}

let lastId = 0;
export const newRow = (number = '', quantity = ''): GridRow => {
  lastId += 1;
  return { id: `row-${lastId}`, number, quantity };
};

/** The rows a new grid starts with. */
export const startingRows = 3;
export const blankRows = (n = startingRows): GridRow[] => Array.from({ length: n }, () => newRow());

export const isBlank = (row: Pick<GridRow, 'number' | 'quantity'>) => !row.number.trim() && !row.quantity.trim();

export type RowsChange = { ok: true; rows: GridRow[] } | { ok: false; error: string };

const within = (rows: GridRow[]): RowsChange =>
  rows.length > maxQuickOrderLines
    ? { ok: false, error: quickOrderMessages.tooManyLines(rows.length) }
    : { ok: true, rows: rows.length ? rows : blankRows(1) };

const toRows = (lines: QuickOrderLineText[]) => lines.map((l) => newRow(l.number, l.quantity));

/**
 * Rows pasted into the row at `index`: they take its place, the filled rows before and after it stay, the blank
 * ones go (a grid started with blank rows does not keep them around a pasted list). More than 1,000 rows: refused.
 */
export function pasteAt(rows: GridRow[], index: number, lines: QuickOrderLineText[]): RowsChange {
  const filled = (part: GridRow[]) => part.filter((r) => !isBlank(r));
  return within([...filled(rows.slice(0, index)), ...toRows(lines), ...filled(rows.slice(index + 1))]);
}

/** Rows added after the grid's filled rows (from the paste box or a file); its blank rows go. */
export function append(rows: GridRow[], lines: QuickOrderLineText[]): RowsChange {
  return within([...rows.filter((r) => !isBlank(r)), ...toRows(lines)]);
}

/** A blank row after the row at `index` (Enter, or Add row at the end). */
export function addRowAfter(rows: GridRow[], index: number): RowsChange {
  return within([...rows.slice(0, index + 1), newRow(), ...rows.slice(index + 1)]);
}

/**
 * Whether text pasted into a cell is a spreadsheet's selection (several rows, or a row of cells) rather than one
 * value: a line break or a tab anywhere; in the part number's cell, a semicolon or a comma too (a quantity of
 * "1,000" is one value).
 */
export function isSelection(text: string, column: 'number' | 'quantity'): boolean {
  const given = text.replace(/^[\r\n]+|[\r\n]+$/g, '');
  if (/[\r\n\t]/.test(given)) return true;
  return column === 'number' && /[;,]/.test(given);
}

/** The key under which this tab keeps the grid (a visitor's rows survive logging in, and a reload). */
export const storageKey = 'partsyard.quickOrder';

/** The grid as this tab kept it, or null. */
export function loadRows(storage: Pick<Storage, 'getItem'> | undefined): GridRow[] | null {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(storageKey) ?? 'null');
    if (!Array.isArray(parsed)) return null;
    const rows = parsed
      .filter(
        (r): r is { number: string; quantity: string } =>
          typeof r === 'object' &&
          r !== null &&
          typeof (r as { number?: unknown }).number === 'string' &&
          typeof (r as { quantity?: unknown }).quantity === 'string',
      )
      .slice(0, maxQuickOrderLines)
      .map((r) => newRow(r.number, r.quantity));
    return rows.length ? rows : null;
  } catch {
    return null;
  }
}

export function saveRows(storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined, rows: GridRow[]): void {
  try {
    if (rows.every(isBlank)) storage?.removeItem(storageKey);
    else storage?.setItem(storageKey, JSON.stringify(rows.map(({ number, quantity }) => ({ number, quantity }))));
  } catch {
    // A full or refused storage only loses the copy kept for a reload.
  }
}
