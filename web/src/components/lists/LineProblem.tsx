import { Link } from 'react-router-dom';
import type { CartFromLinesFieldsFragment } from '../../generated/lists';

/** One line of a check that put lines into the cart (order again, a list into the cart). */
export type CheckedLine = CartFromLinesFieldsFragment['check']['lines'][number];

/** The lines that kept the whole from going into the cart. */
export const badLines = (check: CartFromLinesFieldsFragment['check']): CheckedLine[] =>
  check.lines.filter((l) => l.problem);

/** What a line is called: its part's name, else the number it was sent with. */
export const lineName = (line: CheckedLine): string => line.part?.name ?? line.number;

/**
 * A line's problem in the shopper's words, and for a replaced part the way to its replacement (and why that one
 * could not be ordered either, if so).
 */
export function LineProblem({ line }: { line: CheckedLine }) {
  if (!line.problem) return null;
  return (
    <span className="flex flex-col gap-0.5">
      <span>{line.problem.message}</span>
      {line.replacement && (
        <span>
          Replaced by{' '}
          <Link to={`/parts/${line.replacement.id}`} className="link font-semibold">
            {line.replacement.name}
          </Link>{' '}
          (SKU {line.replacement.sku})
        </span>
      )}
      {line.replacementProblem && <span>{line.replacementProblem}</span>}
    </span>
  );
}
