/** Cuts `text` to `length` characters and marks the cut with '...'; shorter text is left whole. */
export function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}...` : text;
}

/** Truncation lengths of the spec's §9. */
export const truncation = {
  cardName: 40,
  cardDescription: 70,
  orderTableName: 30,
  partsTableName: 20,
} as const;

// Made once: toLocaleString with options builds a formatter on every call (6 % of placing an order's CPU, whose
// emails show a dozen amounts).
const dollarFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** Dollars as the shop shows them: '$' prefix, two decimals, thousands separated ($1,234.50). */
export const formatDollars = (dollars: number): string => `$${dollarFormat.format(dollars)}`;

/** Cents (integers, how money is kept) to dollars (how it is shown and sent). */
export const centsToDollars = (cents: number): number => cents / 100;
/**
 * Dollars to whole cents, rounding half away from zero as written in decimal: 1.005 is 101 cents, -0.005 is -1.
 * (1.005 * 100 is 100.49999999999999 in binary; 15 significant digits give back the decimal value first.)
 */
export const dollarsToCents = (dollars: number): number => {
  const cents = Math.round(Number((Math.abs(dollars) * 100).toPrecision(15)));
  return dollars < 0 ? -cents : cents;
};

/** An order's short number, as customers and admins quote it: the first 8 characters of its id (#7D1F7C2E). */
export const orderNumber = (id: string): string => `#${id.replace(/-/g, '').slice(0, 8).toUpperCase()}`;

const htmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text for HTML (an element's content or a quoted attribute): every character that could start markup is escaped. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => htmlEscapes[c]);
