/**
 * Part numbers are compared by case and separators only: `22201-166-000`, `22201166000` and `22201 166 000` are
 * one number, and no other character is ever dropped (an OEM number's every digit and letter carries meaning).
 * The database says the same in SQL, `part_number_normalised(text)` (api/drizzle/0017), which the look-ups and
 * the unique keys use; api/test/catalog/normalisation.test.ts checks that the two agree.
 *
 * Upper-casing is ASCII's alone (as PostgreSQL's `upper()` under COLLATE "C", whatever the database's locale), so
 * every database and this function agree on every text; other letters are kept exactly as written.
 */
const separators = /[ \t\u00a0\-./_]/g;

export function normalisePartNumber(number: string): string {
  return number.replace(separators, '').replace(/[a-z]+/g, (letters) => letters.toUpperCase());
}

/** The longest part number (or SKU) the shop keeps and looks up, in characters. */
export const partNumberMaxLength = 100;

/** What a part number's kind is called where a shopper reads it ("OEM number 22201-166-000"). */
export const partNumberKindNames = {
  manufacturer: 'Manufacturer number',
  oem: 'OEM number',
  interchange: 'Interchange number',
  ean: 'EAN',
} as const;

/** Control characters (no part number holds one; PostgreSQL text cannot hold NUL). */
const hasControlCharacter = (text: string) =>
  [...text].some((c) => (c.charCodeAt(0) < 0x20 && c !== '\t') || c === '\u007f');

/**
 * Why `text` cannot be kept as a part number (empty, longer than any number, control characters, separators
 * alone), or null when it can. The admin's numbers editor and the API (catalog/partEditing.ts) say the same.
 */
export function partNumberProblem(text: string): string | null {
  const given = text.trim();
  if (!given) return 'Enter the number';
  if (given.length > partNumberMaxLength) return `A part number is at most ${partNumberMaxLength} characters`;
  if (hasControlCharacter(given)) return 'A part number cannot hold control characters';
  if (!normalisePartNumber(given)) return 'Enter a number with letters or digits, not only separators';
  return null;
}
