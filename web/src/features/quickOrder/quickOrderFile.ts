import { maxQuickOrderLines, parsePastedLines, quickOrderMessages, type PastedLines } from '@partsyard/common';

/**
 * Reading a quick-order file in the browser (issue 34 point 7): the bytes of a CSV or text file checked and decoded
 * here, then read by the shop's one paste parser (common/src/quickOrder.ts). Pure, so every refusal is tested
 * without a browser: a refused file changes nothing in the grid.
 */

/** The largest file read: 1,000 rows of number and quantity fit many times over. */
export const maxFileBytes = 5 * 1024 * 1024;
/** The longest row read: no row of number and quantity is this long, whatever else a spreadsheet exported. */
export const maxRowChars = 10_000;

export const quickOrderFileMessages = {
  notCsv: (name: string) => `${name} is not a CSV file: choose a .csv or .txt file (in a spreadsheet, Save as CSV)`,
  notText: (name: string) =>
    `${name} is not a text file (a spreadsheet's own format, or an image?): save it from the spreadsheet as CSV`,
  unreadable: (name: string) => `${name} could not be read: choose it again`,
  empty: (name: string) => `${name} is empty: it holds no part numbers`,
  tooBig: (name: string) =>
    `${name} is larger than ${maxFileBytes / 1024 / 1024} MB: a quick order holds at most ${maxQuickOrderLines.toLocaleString('en-US')} rows`,
  rowTooLong: (name: string, row: number) =>
    `Row ${row.toLocaleString('en-US')} of ${name} is longer than ${maxRowChars.toLocaleString('en-US')} characters: it cannot be a part number and quantity`,
} as const;

export type ReadFile = ({ ok: true } & PastedLines) | { ok: false; error: string };

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

/**
 * The file's text: UTF-16 when it starts with that byte order mark (a spreadsheet's "Unicode text"), else UTF-8 (its
 * byte order mark dropped), else Windows-1252 for a file that is not valid UTF-8 (an older spreadsheet's Latin-1
 * export: "Bremsbeläge"). Null when the bytes are not text (a NUL byte outside UTF-16).
 */
export function decodeText(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0xff, 0xfe])) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (startsWith(bytes, [0xfe, 0xff])) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes.includes(0)) return null;
  const body = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return new TextDecoder('windows-1252').decode(body);
  }
}

/**
 * A chosen file's bytes read as quick-order lines, or why the file is refused: not a .csv or .txt file, not text,
 * larger than 5 MB, empty, a row over 10,000 characters, more than 1,000 rows (the header row not counted).
 */
export function readQuickOrderFile(name: string, bytes: Uint8Array): ReadFile {
  if (!/\.(csv|txt|tsv)$/i.test(name)) return { ok: false, error: quickOrderFileMessages.notCsv(name) };
  if (bytes.length > maxFileBytes) return { ok: false, error: quickOrderFileMessages.tooBig(name) };
  const text = decodeText(bytes);
  if (text === null) return { ok: false, error: quickOrderFileMessages.notText(name) };
  const rows = text.split(/\r\n|\n|\r/);
  const long = rows.findIndex((row) => row.length > maxRowChars);
  if (long >= 0) return { ok: false, error: quickOrderFileMessages.rowTooLong(name, long + 1) };
  const parsed = parsePastedLines(text);
  if (!parsed.lines.length) return { ok: false, error: quickOrderFileMessages.empty(name) };
  if (parsed.lines.length > maxQuickOrderLines) {
    return { ok: false, error: quickOrderMessages.tooManyLines(parsed.lines.length) };
  }
  return { ok: true, ...parsed };
}
