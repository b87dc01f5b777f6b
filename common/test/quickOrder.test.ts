import fc from 'fast-check';
import { csvCell, parsePastedLines, readQuantity, quickOrderMessages } from '../src/quickOrder';

/** A part number as catalogs write them: letters, digits and dashes, never a delimiter nor a space. */
const partNumber = fc.stringMatching(/^[A-Z0-9][A-Z0-9-]{0,14}[A-Z0-9]$/);
const quantity = fc.integer({ min: 1, max: 99_999 });
const rowsArb = fc.array(fc.record({ number: partNumber, quantity }), { minLength: 1, maxLength: 40 });
const delimiterArb = fc.constantFrom('\t', ',', ';', ' ');
const endArb = fc.constantFrom('\n', '\r\n', '\r');
const headerArb = fc.constantFrom('Part number{d}Qty', 'SKU{d}Quantity', 'Item no.{d}Menge', 'part_number{d}qty');

describe('the quick order paste parser (common/src/quickOrder.ts), by property', () => {
  it('reads back every row written with any delimiter and line end, each with its row number', () => {
    fc.assert(
      fc.property(rowsArb, delimiterArb, endArb, fc.boolean(), (rows, d, end, bom) => {
        const text = (bom ? '\ufeff' : '') + rows.map((r) => `${r.number}${d}${r.quantity}`).join(end);
        const parsed = parsePastedLines(text);
        expect(parsed.headerSkipped).toBe(false);
        expect(parsed.lines).toEqual(
          rows.map((r, i) => ({ line: i + 1, number: r.number, quantity: String(r.quantity) })),
        );
      }),
    );
  });

  it('recognises and skips a header row, and the rows keep their own row numbers', () => {
    fc.assert(
      fc.property(rowsArb, delimiterArb, endArb, headerArb, (rows, d, end, header) => {
        // A header of several words is only one cell when the delimiter is not a space.
        fc.pre(d !== ' ');
        const text = [header.replace('{d}', d), ...rows.map((r) => `${r.number}${d}${r.quantity}`)].join(end);
        const parsed = parsePastedLines(text);
        expect(parsed.headerSkipped).toBe(true);
        expect(parsed.lines.map((l) => [l.line, l.number, l.quantity])).toEqual(
          rows.map((r, i) => [i + 2, r.number, String(r.quantity)]),
        );
      }),
    );
  });

  it('skips blank rows, keeping the numbers of the rows as the buyer sees them', () => {
    fc.assert(
      fc.property(rowsArb, fc.array(fc.nat(3), { minLength: 40, maxLength: 40 }), (rows, blanks) => {
        const written: string[] = [];
        const expected: number[] = [];
        rows.forEach((r, i) => {
          for (let b = 0; b < blanks[i]; b++) written.push(b % 2 ? '   ' : '');
          written.push(`${r.number}\t${r.quantity}`);
          expected.push(written.length);
        });
        expect(parsePastedLines(written.join('\n')).lines.map((l) => l.line)).toEqual(expected);
      }),
    );
  });

  it('never throws on any text, and never makes more lines than the text has rows', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const parsed = parsePastedLines(text);
        const rows = text.split(/\r\n|\n|\r/).length;
        expect(parsed.lines.length).toBeLessThanOrEqual(rows);
        for (const line of parsed.lines) {
          expect(line.number).not.toMatch(/[\r\n]/);
          expect(line.line).toBeGreaterThanOrEqual(1);
          expect(line.line).toBeLessThanOrEqual(rows);
        }
      }),
    );
  });

  it('reads quoted CSV cells whole, and a missing quantity as 1', () => {
    expect(parsePastedLines('"22201,166";"3"\n"say ""x""",2\nFA185HH').lines).toEqual([
      { line: 1, number: '22201,166', quantity: '3' },
      { line: 2, number: 'say "x",2', quantity: '1' },
      { line: 3, number: 'FA185HH', quantity: '1' },
    ]);
    expect(parsePastedLines('22201 166 000 4\nFA185HH').lines).toEqual([
      { line: 1, number: '22201 166 000', quantity: '4' },
      { line: 2, number: 'FA185HH', quantity: '1' },
    ]);
  });
});

describe('quantities', () => {
  it('reads whole numbers, spreadsheet thousands and "4.0"; refuses the rest with a message', () => {
    expect(['4', ' 12 ', '1,000', '1 000', '4.0', '+7', 5].map(readQuantity)).toEqual(
      [4, 12, 1000, 1000, 4, 7, 5].map((quantity) => ({ ok: true, quantity })),
    );
    const notWhole = { ok: false, error: quickOrderMessages.quantityNotWhole as string };
    const required = { ok: false, error: quickOrderMessages.quantityRequired as string };
    expect(['2.5', 'ten', '=1+1', '1e3', '9'.repeat(30), 1.5, NaN, {}].map(readQuantity)).toEqual([
      ...Array.from({ length: 7 }, () => notWhole),
      required,
    ]);
    expect([readQuantity('0'), readQuantity('-3'), readQuantity(''), readQuantity(-1)]).toEqual([
      { ok: false, error: quickOrderMessages.quantityTooSmall },
      { ok: false, error: quickOrderMessages.quantityTooSmall },
      { ok: false, error: quickOrderMessages.quantityRequired },
      { ok: false, error: quickOrderMessages.quantityTooSmall },
    ]);
  });

  it('any whole number written is read back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), (n) =>
        expect(readQuantity(String(n))).toEqual({ ok: true, quantity: n }),
      ),
    );
  });
});

describe('CSV cells', () => {
  it('keeps formula-looking cells as text and quotes what must be quoted', () => {
    expect(['=HYPERLINK("http://x","y")', '+1', '-2', '@SUM(A1)', 'a,b', 'plain'].map(csvCell)).toEqual([
      `"'=HYPERLINK(""http://x"",""y"")"`,
      "'+1",
      "'-2",
      "'@SUM(A1)",
      '"a,b"',
      'plain',
    ]);
  });
});
