import { parsePastedLines, quickOrderMessages } from '@partsyard/common';
import {
  addRowAfter,
  append,
  blankRows,
  isSelection,
  loadRows,
  newRow,
  pasteAt,
  saveRows,
  storageKey,
} from '../../src/features/quickOrder/gridRows';

const values = (change: ReturnType<typeof pasteAt>) =>
  change.ok ? change.rows.map((r) => [r.number, r.quantity]) : change.error;

describe("the quick order grid's rows", () => {
  it('rows pasted into a row take its place; the filled rows around it stay, blank rows go', () => {
    const rows = [newRow('A-1', '2'), newRow(), newRow(), newRow('Z-9', '1'), newRow()];
    const pasted = parsePastedLines('Part number\tQty\nB-1\t4\nB-2\t6\n').lines;
    expect(values(pasteAt(rows, 2, pasted))).toEqual([
      ['A-1', '2'],
      ['B-1', '4'],
      ['B-2', '6'],
      ['Z-9', '1'],
    ]);
  });

  it('the paste box and a file add their rows after the filled ones', () => {
    const rows = [newRow('A-1', '2'), newRow()];
    expect(values(append(rows, parsePastedLines('B-1;3').lines))).toEqual([
      ['A-1', '2'],
      ['B-1', '3'],
    ]);
  });

  it('more than 1,000 rows is refused with the count, and nothing changes', () => {
    const rows = Array.from({ length: 990 }, (_, i) => newRow(`P-${i}`, '1'));
    const pasted = parsePastedLines(Array.from({ length: 11 }, (_, i) => `Q-${i}\t1`).join('\n')).lines;
    expect(append(rows, pasted)).toEqual({ ok: false, error: quickOrderMessages.tooManyLines(1001) });
    expect(values(append(rows, pasted.slice(1)))).toHaveLength(1000);
    expect(
      addRowAfter(
        Array.from({ length: 1000 }, () => newRow('X', '1')),
        3,
      ),
    ).toEqual({
      ok: false,
      error: quickOrderMessages.tooManyLines(1001),
    });
  });

  it("a spreadsheet's selection is told from one value", () => {
    expect(isSelection('FA185HH\t20', 'number')).toBe(true);
    expect(isSelection('FA185HH\n520VX3-120', 'quantity')).toBe(true);
    expect(isSelection('FA185HH;20', 'number')).toBe(true);
    expect(isSelection('22201 166 000', 'number')).toBe(false);
    expect(isSelection('1,000', 'quantity')).toBe(false);
    expect(isSelection('FA185HH\n', 'number')).toBe(false);
  });

  it("the grid is kept in this tab's storage and read back (a visitor's rows survive logging in)", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    };
    saveRows(storage, [newRow('FA185HH', '20'), newRow()]);
    expect(loadRows(storage)?.map((r) => [r.number, r.quantity])).toEqual([
      ['FA185HH', '20'],
      ['', ''],
    ]);
    saveRows(storage, blankRows());
    expect(store.has(storageKey)).toBe(false);
    store.set(storageKey, '{not json');
    expect(loadRows(storage)).toBeNull();
  });
});
