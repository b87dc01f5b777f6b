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

/** Dollars as the shop shows them: '$' prefix, two decimals, thousands separated ($1,234.50). */
export const formatDollars = (dollars: number): string =>
  `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Cents (integers, how money is kept) to dollars (how it is shown and sent). */
export const centsToDollars = (cents: number): number => cents / 100;
/** Dollars to whole cents, rounding half away from zero. */
export const dollarsToCents = (dollars: number): number => Math.round(dollars * 100);

/** An order's short number, as customers and admins quote it: the first 8 characters of its id (#7D1F7C2E). */
export const orderNumber = (id: string): string => `#${id.replace(/-/g, '').slice(0, 8).toUpperCase()}`;
