import {
  csvCell,
  maxQuickOrderLines,
  normalisePartNumber,
  partNumberProblem,
  quickOrderMessages,
  readQuantity,
  buyerPrice,
} from '@partsyard/common';
import { sql } from 'drizzle-orm';
import { resolveCurrentIds } from '../catalog/supersession';
import { companyPriceOf, type BuyerPrices } from '../companies/companyPrices';
import { rowsOf, type DbOrTx } from '../db/database';
import { parts, type PartRow } from '../db/schema';
import { badInput } from '../errors';
import { classifiedAmountProblem, type AmountProblemKind } from '../services/cartLines';
import { nearestNumbers, suggestionsPerLine } from './quickOrderSuggestions';

export { suggestionsPerLine };

/**
 * Quick order's check (issue 34 point 1): up to 1,000 lines of part number and quantity, each line's outcome read
 * with a handful of set-based statements whatever the number of lines (never one per line):
 *   1. every number's exact matches, our SKU and every number parts carry (one `unnest` joined to the btrees of
 *      the normalised columns);
 *   2. for the numbers nobody carries, the nearest numbers: those sharing the longest start or ending with each,
 *      read from the same btrees and their reversed twins (quickOrderSuggestions.ts, one statement for them all);
 *   3. the parts found, with their price breaks, pack sizes and stock (one statement);
 *   4. for those replaced by another, their chains (one recursive statement) and the current parts not read yet
 *      (one more), only when a line names a replaced part.
 * The amount rules are the cart's own (services/cartLines.ts). It writes nothing.
 */

/** Parts listed to pick from for a number several parts carry (by SKU; the message says how many there are). */
export const maxCandidates = 5;

/** A line as sent: the number and quantity as typed, and the row it came from (its position when not given). */
export interface QuickOrderLineInput {
  number: unknown;
  quantity: unknown;
  line?: unknown;
}

export type QuickOrderProblemKind =
  AmountProblemKind | 'bad_number' | 'unknown_number' | 'superseded' | 'ambiguous' | 'part_gone' | 'cart_full';

export interface QuickOrderProblem {
  kind: QuickOrderProblemKind;
  message: string;
}

export interface NumberSuggestion {
  /** The number as the catalog writes it. */
  number: string;
  part: PartRow;
}

export interface QuickOrderLineOutcome {
  line: number;
  /** The number and quantity as sent (a cell too long to show is cut to 200 characters). */
  number: string;
  quantity: string;
  /** The quantity read; on the first line of a part sent several times, the sum of them. Null when unreadable. */
  amount: number | null;
  /** The part the number names (the old part, for a superseded number); null when none or several do. */
  part: PartRow | null;
  /** Unit price at `amount`'s quantity break, and unit price x amount, in cents; null without a part and amount. */
  unitPriceCents: number | null;
  lineTotalCents: number | null;
  /** The unit price is the caller's company price (lower than the list price at this amount). */
  companyPriced: boolean;
  problem: QuickOrderProblem | null;
  /** For a superseded number: the current part, and why `amount` of it could not be ordered (else null). */
  replacement: PartRow | null;
  replacementProblem: string | null;
  /** For a number several parts carry: those parts, to pick from. */
  candidates: PartRow[];
  /** For a number nobody carries: the nearest numbers. */
  suggestions: NumberSuggestion[];
  /** Set on a line whose part an earlier line has too: that line's number (it holds the sum). */
  mergedInto: number | null;
  /** On the first line of a part sent several times: the other lines merged into it. */
  mergedLines: number[];
  /** Says what merging did, else null. */
  note: string | null;
}

/** A line's outcome before it is looked up: as sent, with the problem its reading found (or none yet). */
export function unlookedOutcome(l: {
  line: number;
  number: string;
  quantity: string;
  amount: number | null;
  problem: QuickOrderProblem | null;
}): QuickOrderLineOutcome {
  return {
    line: l.line,
    number: l.number,
    quantity: l.quantity,
    amount: l.amount,
    part: null,
    unitPriceCents: null,
    lineTotalCents: null,
    companyPriced: false,
    problem: l.problem,
    replacement: null,
    replacementProblem: null,
    candidates: [],
    suggestions: [],
    mergedInto: null,
    mergedLines: [],
    note: null,
  };
}

export interface QuickOrderCheckView {
  lines: QuickOrderLineOutcome[];
  /** What the lines without a problem cost, in cents. */
  totalCents: number;
  /** Lines with a problem. */
  problemCount: number;
  /** True when every line can go into a cart as it stands. */
  ready: boolean;
}

export const quickOrderCheckMessages = {
  unknownNumber: 'No part has this number',
  unknownNumberWithSuggestions: (numbers: string[]) => `No part has this number; did you mean ${numbers.join(', ')}?`,
  superseded: (old: PartRow, current: PartRow) =>
    `${old.sku} (${old.name}) is replaced by ${current.sku} (${current.name}): take the replacement`,
  ambiguous: (count: number) => `${count} parts carry this number: pick one`,
  merged: (lines: number[], amount: number) =>
    `Same part as line${lines.length > 1 ? 's' : ''} ${lines.join(', ')}: merged, ${amount} in all`,
  mergedInto: (line: number) => `Same part as line ${line}: merged into it`,
  badLine: 'Each line is a part number and a quantity',
  badLineNumber: 'A line number is a whole number of at least 1',
} as const;

/** The longest cell echoed back (a 10 kB cell is refused, and answered cut). */
const echoLength = 200;
const echo = (value: unknown) =>
  (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '').slice(0, echoLength);

interface ReadLine {
  line: number;
  number: string;
  quantity: string;
  normalised: string | null;
  amount: number | null;
  problem: QuickOrderProblem | null;
}

/** The lines' shape checked (a list of at most 1,000, each an object): BAD_USER_INPUT on `lines` otherwise. */
export function checkedLineList(lines: unknown): QuickOrderLineInput[] {
  if (!Array.isArray(lines) || !lines.length) throw badInput({ lines: quickOrderMessages.noLines });
  if (lines.length > maxQuickOrderLines) throw badInput({ lines: quickOrderMessages.tooManyLines(lines.length) });
  lines.forEach((l, i) => {
    if (!l || typeof l !== 'object' || Array.isArray(l))
      throw badInput({ [`lines.${i}`]: quickOrderCheckMessages.badLine });
    const { line } = l as QuickOrderLineInput;
    if (line !== undefined && line !== null && !(Number.isSafeInteger(line) && (line as number) >= 1))
      throw badInput({ [`lines.${i}.line`]: quickOrderCheckMessages.badLineNumber });
  });
  return lines as QuickOrderLineInput[];
}

/** Each line's own cells read: its number normalised and its quantity, or why not. */
function readLine(input: QuickOrderLineInput, index: number): ReadLine {
  const line = typeof input.line === 'number' ? input.line : index + 1;
  const number = echo(input.number);
  const quantity = echo(input.quantity);
  const base = { line, number, quantity, normalised: null, amount: null };
  const numberText = typeof input.number === 'string' ? input.number : '';
  const numberProblem = partNumberProblem(numberText);
  if (numberProblem) return { ...base, problem: { kind: 'bad_number', message: numberProblem } };
  const read = readQuantity(input.quantity);
  const normalised = normalisePartNumber(numberText.trim());
  if (!read.ok) return { ...base, normalised, problem: { kind: 'bad_quantity', message: read.error } };
  return { ...base, normalised, amount: read.quantity, problem: null };
}

/** Exact matches of every number: (number, part id, whether it is our SKU). */
async function exactMatches(db: DbOrTx, numbers: string[]) {
  if (!numbers.length) return [];
  return rowsOf<{ number: string; part_id: string; sku: boolean }>(
    db,
    sql`
    select q.number, m.part_id::text as part_id, m.sku
      from unnest(${sql.param(numbers)}::text[]) as q(number)
      join lateral (
        select p.id as part_id, true as sku from parts p where p.sku_normalised = q.number
        union all
        select n.part_id, false from part_numbers n where n.normalised = q.number
      ) m on true`,
  );
}

/** The parts of `ids` (one array parameter, not one per id: building and sending a thousand cost more than the read). */
async function partsOf(db: DbOrTx, ids: string[]): Promise<PartRow[]> {
  if (!ids.length) return [];
  return db
    .select()
    .from(parts)
    .where(sql`${parts.id} = any(${sql.param(ids)}::uuid[])`);
}

/**
 * Checks quick-order lines (already checked as a list by `checkedLineList`): each line's outcome, and the total of
 * the lines that can be ordered. Lines naming the same current part are merged onto the first of them (its amount
 * the sum), and the amount rules apply to the sum. Writes nothing.
 */
export async function checkQuickOrderLines(
  db: DbOrTx,
  inputs: readonly QuickOrderLineInput[],
  pricesFor: (partIds: string[]) => Promise<BuyerPrices | null> = async () => null,
): Promise<QuickOrderCheckView> {
  const read = inputs.map(readLine);
  const numbers = [...new Set(read.flatMap((l) => (l.normalised && !l.problem ? [l.normalised] : [])))];
  // Every line's number, even one with a bad quantity, is looked up: the grid shows the part it found.
  const lookedUp = [...new Set([...numbers, ...read.flatMap((l) => (l.normalised ? [l.normalised] : []))])];
  const matches = await exactMatches(db, lookedUp);
  const byNumber = new Map<string, { partId: string; sku: boolean }[]>();
  for (const m of matches)
    byNumber.set(m.number, [...(byNumber.get(m.number) ?? []), { partId: m.part_id, sku: m.sku }]);
  const unknown = [
    ...new Set(read.flatMap((l) => (l.normalised && !l.problem && !byNumber.has(l.normalised) ? [l.normalised] : []))),
  ];
  // The best few of each: twice as many as shown, for those that turn out to be the same current part.
  const near = new Map(
    [...(await nearestNumbers(db, unknown))].map(([number, list]) => [number, list.slice(0, 2 * suggestionsPerLine)]),
  );

  const nearIds = [...near.values()].flatMap((list) => list.map((n) => n.partId));
  const matchedIds = [...new Set([...matches.map((m) => m.part_id), ...nearIds])];
  const partById = new Map((await partsOf(db, matchedIds)).map((p) => [p.id, p]));
  // Chains only for the parts found replaced (most are not), and then the current parts not read yet.
  const replaced = matchedIds.filter((id) => partById.get(id)?.replacedById);
  const current = await resolveCurrentIds(db, replaced);
  for (const p of await partsOf(
    db,
    [...new Set(current.values())].filter((id) => !partById.has(id)),
  ))
    partById.set(p.id, p);
  const currentOf = (id: string) => partById.get(current.get(id) ?? id);

  const outcomes: QuickOrderLineOutcome[] = read.map(unlookedOutcome);

  /** The first line of each current part, to merge later lines of it into. */
  const firstOfPart = new Map<string, QuickOrderLineOutcome>();
  const mergedOnto = new Map<QuickOrderLineOutcome, QuickOrderLineOutcome>();
  read.forEach((l, i) => {
    const outcome = outcomes[i];
    if (!l.normalised) return;
    const found = byNumber.get(l.normalised) ?? [];
    // Our own SKU names one part: it wins over other numbers that happen to be the same text.
    const skuMatch = found.find((f) => f.sku);
    const candidates = skuMatch ? [skuMatch] : found;
    const currentIds = [...new Set(candidates.map((c) => current.get(c.partId) ?? c.partId))];
    if (!currentIds.length) {
      if (outcome.problem) return;
      const suggestions = (near.get(l.normalised) ?? [])
        .flatMap((n) => {
          const part = currentOf(n.partId);
          return part ? [{ number: n.raw, part }] : [];
        })
        .filter((s, k, all) => all.findIndex((o) => o.part.id === s.part.id) === k)
        .slice(0, suggestionsPerLine);
      outcome.suggestions = suggestions;
      outcome.problem = {
        kind: 'unknown_number',
        message: suggestions.length
          ? quickOrderCheckMessages.unknownNumberWithSuggestions(suggestions.map((s) => s.number))
          : quickOrderCheckMessages.unknownNumber,
      };
      return;
    }
    if (currentIds.length > 1) {
      outcome.candidates = currentIds
        .flatMap((id) => partById.get(id) ?? [])
        .sort((x, y) => x.sku.localeCompare(y.sku))
        .slice(0, maxCandidates);
      if (!outcome.problem)
        outcome.problem = { kind: 'ambiguous', message: quickOrderCheckMessages.ambiguous(currentIds.length) };
      return;
    }
    const part = partById.get(currentIds[0]);
    if (!part) return;
    const directly = candidates.some((c) => c.partId === part.id);
    if (!directly) {
      const old = partById.get(candidates[0].partId) ?? part;
      outcome.part = old;
      outcome.replacement = part;
      if (l.amount !== null) outcome.replacementProblem = classifiedAmountProblem(part, l.amount)?.message ?? null;
      if (!outcome.problem)
        outcome.problem = { kind: 'superseded', message: quickOrderCheckMessages.superseded(old, part) };
      return;
    }
    outcome.part = part;
    if (outcome.problem) return;
    const first = firstOfPart.get(part.id);
    if (!first) {
      firstOfPart.set(part.id, outcome);
      return;
    }
    first.mergedLines.push(outcome.line);
    first.amount = (first.amount ?? 0) + (l.amount ?? 0);
    outcome.mergedInto = first.line;
    mergedOnto.set(outcome, first);
    outcome.note = quickOrderCheckMessages.mergedInto(first.line);
  });

  for (const first of firstOfPart.values()) {
    const part = first.part as PartRow;
    const amount = first.amount as number;
    if (first.mergedLines.length) first.note = quickOrderCheckMessages.merged(first.mergedLines, amount);
    first.problem = classifiedAmountProblem(part, amount);
  }
  // Priced by the one rule (common/pricing.ts `buyerPrice`): a company member's company price where it is lower.
  const priced = outcomes.flatMap((o) => (o.part && o.mergedInto === null && !o.replacement ? [o.part.id] : []));
  const buyer = priced.length ? await pricesFor(priced) : null;
  for (const outcome of outcomes) {
    const amount = outcome.mergedInto === null ? outcome.amount : null;
    if (outcome.part && amount !== null && !outcome.replacement) {
      const price = buyerPrice(outcome.part, amount, companyPriceOf(buyer, outcome.part.id));
      outcome.unitPriceCents = price.unitPriceCents;
      outcome.companyPriced = price.companyPriced;
      outcome.lineTotalCents = outcome.unitPriceCents * amount;
    }
    if (outcome.mergedInto !== null) {
      // A merged line shares its first line's problem: both stay in the grid until the sum can be ordered.
      outcome.problem = mergedOnto.get(outcome)?.problem ?? null;
    }
  }
  const good = outcomes.filter((o) => !o.problem);
  const problemCount = outcomes.length - good.length;
  return {
    lines: outcomes,
    totalCents: good.reduce((sum, o) => sum + (o.lineTotalCents ?? 0), 0),
    problemCount,
    ready: problemCount === 0,
  };
}

/**
 * The lines of a check with a problem, as CSV (line, number, quantity, problem; CRLF line ends, a header row), each
 * cell written by the shop's one CSV writer: formula-looking cells (`=HYPERLINK(...)`) are kept as text.
 */
export function problemsCsv(view: QuickOrderCheckView): string {
  const rows = view.lines
    .filter((l) => l.problem)
    .map((l) => [String(l.line), l.number, l.quantity, l.problem?.message ?? '']);
  return (
    [['line', 'number', 'quantity', 'problem'], ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n'
  );
}
