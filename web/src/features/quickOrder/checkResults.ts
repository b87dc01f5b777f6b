import type {
  QuickOrderFixFieldsFragment,
  QuickOrderLineFieldsFragment,
  QuickOrderLineInput,
} from '../../generated/quickOrder';
import { isBlank, type GridRow } from './gridRows';

/** One line of the server's check, as the grid shows it beside its row (adding answers it without the fixes). */
export type LineOutcome = QuickOrderLineFieldsFragment & QuickOrderFixFieldsFragment;
export type ProblemKind = NonNullable<LineOutcome['problem']>['kind'];

const noFixes: QuickOrderFixFieldsFragment = {
  replacement: null,
  replacementProblem: null,
  candidates: [],
  suggestions: [],
};

/** A row's outcome, with the number and quantity it was checked with (edited since: stale, shown as not checked). */
export interface RowResult {
  number: string;
  quantity: string;
  outcome: LineOutcome;
}

export type Results = ReadonlyMap<string, RowResult>;

/** The problems that are the quantity's; the others are the number's (unknown, replaced, several parts...). */
const quantityKinds = new Set<ProblemKind>([
  'BAD_QUANTITY',
  'BELOW_MINIMUM',
  'NOT_PACK_MULTIPLE',
  'NOT_ENOUGH_STOCK',
  'TOO_LARGE',
]);

/** Which of the row's inputs its problem is about. */
export const problemField = (kind: ProblemKind): 'number' | 'quantity' =>
  quantityKinds.has(kind) ? 'quantity' : 'number';

/** The row's result when it still stands for the row as it is now, else undefined. */
export function freshResult(results: Results, row: GridRow): RowResult | undefined {
  const result = results.get(row.id);
  return result && result.number === row.number && result.quantity === row.quantity ? result : undefined;
}

/** The rows to send (the filled ones), each with its place in the grid as its line number. */
export function linesOf(rows: GridRow[]): { rows: GridRow[]; lines: QuickOrderLineInput[] } {
  const sent = rows.map((row, i) => ({ row, line: i + 1 })).filter(({ row }) => !isBlank(row));
  return {
    rows: sent.map((s) => s.row),
    lines: sent.map(({ row, line }) => ({ number: row.number, quantity: row.quantity, line })),
  };
}

/** The results of the rows sent, from the lines the server answered (matched by line number). */
export function resultsFrom(
  previous: Results,
  rows: GridRow[],
  lines: QuickOrderLineInput[],
  answered: (QuickOrderLineFieldsFragment & Partial<QuickOrderFixFieldsFragment>)[],
): Map<string, RowResult> {
  const next = new Map(previous);
  const byLine = new Map(answered.map((l): [number, LineOutcome] => [l.line, { ...noFixes, ...l }]));
  rows.forEach((row, i) => {
    const outcome = byLine.get(lines[i].line ?? i + 1);
    if (outcome) next.set(row.id, { number: row.number, quantity: row.quantity, outcome });
  });
  return next;
}

/** The filled rows and how many of them have a problem or were not checked as they are now. */
export function tally(rows: GridRow[], results: Results) {
  const filled = rows.filter((r) => !isBlank(r));
  const fresh = filled.map((r) => freshResult(results, r));
  return {
    filled: filled.length,
    unchecked: fresh.filter((r) => !r).length,
    problems: fresh.filter((r) => r?.outcome.problem).length,
    ready: filled.filter((_, i) => fresh[i] && !fresh[i]?.outcome.problem),
    total: fresh.reduce((sum, r) => sum + (r && !r.outcome.problem ? (r.outcome.lineTotal ?? 0) : 0), 0),
  };
}

/** "3 of 30 rows need attention", or that every row is ready. */
export function outcomeSentence(filled: number, problems: number): string {
  const rows = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'row' : 'rows'}`;
  if (!problems)
    return filled === 1 ? 'The row is ready to add to the cart' : `All ${rows(filled)} are ready to add to the cart`;
  return `${problems.toLocaleString('en-US')} of ${rows(filled)} ${problems === 1 ? 'needs' : 'need'} attention`;
}
