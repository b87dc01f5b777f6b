import { quickOrderMessages } from '@partsyard/common';
import {
  decodeText,
  maxFileBytes,
  quickOrderFileMessages,
  readQuickOrderFile,
} from '../../src/features/quickOrder/quickOrderFile';

/** Issue 34 point 7: a file the grid cannot take is refused with a clear message; one it can is read as rows. */

const utf8 = (text: string) => new TextEncoder().encode(text);
const latin1 = (text: string) => Uint8Array.from([...text].map((c) => c.charCodeAt(0)));

describe('reading a quick-order file in the browser', () => {
  it('a UTF-8 file with a byte order mark, Windows line ends and a header row is read as its rows', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('Part number;Qty\r\nFA185HH;20\r\n520VX3-120;10\r\n')]);
    expect(readQuickOrderFile('order.csv', bytes)).toEqual({
      ok: true,
      headerSkipped: true,
      lines: [
        { line: 2, number: 'FA185HH', quantity: '20' },
        { line: 3, number: '520VX3-120', quantity: '10' },
      ],
    });
  });

  it('a file that is not valid UTF-8 is read as Windows Latin-1 (a German export: "Bremsbeläge")', () => {
    expect(decodeText(latin1('Bremsbel\u00e4ge;4\n'))).toBe('Bremsbeläge;4\n');
    const read = readQuickOrderFile('bestellung.csv', latin1('Artikel;Menge\nFA185HH-\u00e4;4\n'));
    expect(read).toEqual({ ok: true, headerSkipped: true, lines: [{ line: 2, number: 'FA185HH-ä', quantity: '4' }] });
  });

  it('valid UTF-8 stays UTF-8 (never read twice as Latin-1)', () => {
    expect(decodeText(utf8('Bremsbeläge\t4'))).toBe('Bremsbeläge\t4');
  });

  it("a spreadsheet's UTF-16 text (its byte order mark first) is read", () => {
    const text = 'FA185HH\t20\r\n';
    const le = new Uint8Array([0xff, 0xfe, ...[...text].flatMap((c) => [c.charCodeAt(0), 0])]);
    expect(readQuickOrderFile('unicode.txt', le)).toMatchObject({
      ok: true,
      lines: [{ number: 'FA185HH', quantity: '20' }],
    });
  });

  it('a file that is not .csv or .txt is refused, whatever it holds', () => {
    expect(readQuickOrderFile('order.xlsx', utf8('FA185HH,20'))).toEqual({
      ok: false,
      error: quickOrderFileMessages.notCsv('order.xlsx'),
    });
  });

  it('a file holding NUL bytes (a spreadsheet or an image renamed .csv) is refused as not text', () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]);
    expect(readQuickOrderFile('order.csv', zip)).toEqual({
      ok: false,
      error: quickOrderFileMessages.notText('order.csv'),
    });
  });

  it('an empty file, or one of blank rows or a header alone, is refused as empty', () => {
    for (const text of ['', '\r\n\r\n', 'Part number,Quantity\r\n'])
      expect(readQuickOrderFile('empty.csv', utf8(text))).toEqual({
        ok: false,
        error: quickOrderFileMessages.empty('empty.csv'),
      });
  });

  it('1,000 rows are read; 1,001 are refused with the count', () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => `P-${i},1`).join('\n');
    const thousand = readQuickOrderFile('big.csv', utf8(`Part number,Qty\n${rows(1000)}`));
    expect(thousand.ok && thousand.lines.length).toBe(1000);
    expect(readQuickOrderFile('big.csv', utf8(rows(1001)))).toEqual({
      ok: false,
      error: quickOrderMessages.tooManyLines(1001),
    });
  });

  it('a file over 5 MB (a 10 MB line) is refused before it is read; a long row in a smaller file too', () => {
    const tenMb = new Uint8Array(10 * 1024 * 1024).fill(0x41);
    expect(readQuickOrderFile('line.csv', tenMb)).toEqual({
      ok: false,
      error: quickOrderFileMessages.tooBig('line.csv'),
    });
    expect(maxFileBytes).toBe(5 * 1024 * 1024);
    const longRow = utf8(`FA185HH,20\n${'A'.repeat(20_000)},1\n`);
    expect(readQuickOrderFile('long.csv', longRow)).toEqual({
      ok: false,
      error: quickOrderFileMessages.rowTooLong('long.csv', 2),
    });
  });

  it('formula-looking cells are read as text, the server checks them like any number', () => {
    const read = readQuickOrderFile('f.csv', utf8('=HYPERLINK("http://x"),2\n'));
    expect(read).toEqual({
      ok: true,
      headerSkipped: false,
      lines: [{ line: 1, number: '=HYPERLINK("http://x")', quantity: '2' }],
    });
  });
});
