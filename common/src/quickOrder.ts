/**
 * Quick order (issue 34): the lines a buyer types, pastes from a spreadsheet or uploads, read the same way in the
 * web's grid and on the server. The server checks each line (api/src/ordering/quickOrderCheck.ts).
 */

/** The most lines one quick order (one check, one add to the cart) may hold. */
export const maxQuickOrderLines = 1000;
/** The longest quantity cell read as such (a longer one is a bad quantity whatever it holds). */
export const maxQuantityText = 20;

export const quickOrderMessages = {
  noLines: 'Enter at least one part number and quantity',
  tooManyLines: (count: number) =>
    `A quick order holds at most ${maxQuickOrderLines.toLocaleString('en-US')} lines; this one has ${count.toLocaleString('en-US')}: split it`,
  quantityRequired: 'Enter a quantity',
  quantityNotWhole: 'The quantity must be a whole number, such as 4',
  quantityTooSmall: 'The quantity must be at least 1',
} as const;

/** A line as typed: the number and quantity as text, and where it came from (its line in the pasted text or file). */
export interface QuickOrderLineText {
  line: number;
  number: string;
  quantity: string;
}

export interface PastedLines {
  lines: QuickOrderLineText[];
  /** True when the first row was a header (e.g. "Part number;Qty") and was skipped. */
  headerSkipped: boolean;
}

/** Words a header cell is made of: "Part number", "SKU", "Qty", "Quantity", "Item", "Menge"... */
const headerWords =
  /^(part|parts|item|items|article|artikel|product|sku|oem|mpn|code|ref|reference|no|nr|number|numbers|#|qty|qnt|quantity|quantities|amount|menge|count|units|pcs|pieces)\.?$/i;
const isHeaderCell = (cell: string) => {
  const words = cell
    .toLowerCase()
    .split(/[\s_.:/-]+/)
    .filter(Boolean);
  return words.length > 0 && words.every((w) => headerWords.test(w));
};
/** A quantity cell: a whole number, perhaps with thousands separators written by a spreadsheet. */
const quantityLike = /^[+-]?\d[\d,. ]*$/;

/** The cells of a CSV-like row split on `delimiter`, quoted cells ("a;b", "say ""x""") kept whole, trimmed. */
function splitQuoted(row: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < row.length; i++) {
    const c = row[i];
    if (quoted) {
      if (c === '"' && row[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (c === delimiter) {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
}

/** Which delimiter the text uses: tabs (a spreadsheet's copy), else semicolons, else commas, else spaces. */
function delimiterOf(rows: string[]): '\t' | ';' | ',' | ' ' {
  if (rows.some((r) => r.includes('\t'))) return '\t';
  if (rows.some((r) => r.includes(';'))) return ';';
  if (rows.some((r) => r.includes(','))) return ',';
  return ' ';
}

/**
 * A row's number and quantity. With a delimiter, the first cell is the number and the second the quantity. With
 * spaces alone, the last word is the quantity when it looks like one and the words before it are the number
 * ("22201 166 000 4" is number 22201 166 000, quantity 4); a single word is a number. A missing quantity is 1.
 */
function cellsOf(row: string, delimiter: string): { number: string; quantity: string } {
  if (delimiter === ' ') {
    const words = row.trim().split(/\s+/);
    if (words.length > 1 && quantityLike.test(words[words.length - 1])) {
      return { number: words.slice(0, -1).join(' '), quantity: words[words.length - 1] };
    }
    return { number: words.join(' '), quantity: '1' };
  }
  const cells = splitQuoted(row, delimiter);
  return { number: cells[0] ?? '', quantity: cells.length > 1 && cells[1] !== '' ? cells[1] : '1' };
}

/**
 * Reads pasted text or a CSV file's text as quick-order lines: rows end with LF, CRLF or CR; a byte order mark is
 * dropped; blank rows are skipped; each line keeps the number of its row in the text (1-based), so a problem
 * names the row the buyer sees. A first row whose cells are header words ("Part number", "Qty") is skipped.
 * Never throws; what the cells hold is the server's to check.
 */
export function parsePastedLines(text: string): PastedLines {
  const rows = String(text ?? '')
    .replace(/^\ufeff/, '')
    .split(/\r\n|\n|\r/);
  const filled = rows.map((row, i) => ({ row, line: i + 1 })).filter(({ row }) => row.trim() !== '');
  const delimiter = delimiterOf(filled.map((f) => f.row));
  let lines = filled.map(({ row, line }) => ({ line, ...cellsOf(row, delimiter) }));
  let headerSkipped = false;
  const first = lines[0];
  if (first && !quantityLike.test(first.quantity) && isHeaderCell(first.number)) {
    lines = lines.slice(1);
    headerSkipped = true;
  }
  return { lines, headerSkipped };
}

/**
 * A quantity cell read as a whole number: `{ ok: true, quantity }`, or the message saying why it is not one. A
 * spreadsheet's "1,000" or "1 000" is 1000; "4.0" is 4; "2.5", "-3", "ten" and "=1+1" are not quantities.
 */
export function readQuantity(text: unknown): { ok: true; quantity: number } | { ok: false; error: string } {
  if (typeof text === 'number') {
    if (!Number.isSafeInteger(text)) return { ok: false, error: quickOrderMessages.quantityNotWhole };
    return text < 1 ? { ok: false, error: quickOrderMessages.quantityTooSmall } : { ok: true, quantity: text };
  }
  if (typeof text !== 'string') return { ok: false, error: quickOrderMessages.quantityRequired };
  const given = text.trim();
  if (!given) return { ok: false, error: quickOrderMessages.quantityRequired };
  if (given.length > maxQuantityText) return { ok: false, error: quickOrderMessages.quantityNotWhole };
  const grouped = /^[+-]?\d{1,3}([, ]\d{3})+$/.test(given) ? given.replace(/[, ]/g, '') : given;
  const match = /^([+-]?\d+)(\.0+)?$/.exec(grouped);
  if (!match) return { ok: false, error: quickOrderMessages.quantityNotWhole };
  const quantity = Number(match[1]);
  if (!Number.isSafeInteger(quantity)) return { ok: false, error: quickOrderMessages.quantityNotWhole };
  if (quantity < 1) return { ok: false, error: quickOrderMessages.quantityTooSmall };
  return { ok: true, quantity };
}

/**
 * A CSV cell: quoted when it must be; one that starts like a formula (=, +, -, @, tab, CR) is kept as text (a
 * leading apostrophe), so a spreadsheet opening the file never runs it. Every CSV the shop writes uses this one
 * (import rejections, quick-order problems).
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
