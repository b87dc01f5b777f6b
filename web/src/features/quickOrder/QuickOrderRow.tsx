import { formatDollars } from '@partsyard/common';
import type { ClipboardEvent, KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { CompanyPriceMark } from '../../lib/companyPrices';
import { problemField, type RowResult } from './checkResults';
import type { GridRow } from './gridRows';

export type Column = 'number' | 'quantity';

export interface RowHandlers {
  change: (id: string, column: Column, value: string) => void;
  remove: (index: number) => void;
  /** Enter in a cell: a new row after this one. */
  addAfter: (index: number) => void;
  /** Arrow Up/Down: the same column one row up or down. */
  move: (index: number, column: Column, by: -1 | 1) => void;
  /** A spreadsheet's selection pasted into a cell; answers whether it was taken (else the browser pastes). */
  paste: (index: number, column: Column, text: string) => boolean;
  /** A fix taken (a replacement, a suggestion, a candidate): the row's number set, focus back on it. */
  use: (id: string, number: string) => void;
  /** Registers a cell for focus moves. */
  cell: (id: string, column: Column, element: HTMLInputElement | null) => void;
}

/** What the check found for the row: its part and prices, or its problem and the one-click fixes. */
function Outcome({
  row,
  result,
  problemId,
  onUse,
}: {
  row: GridRow;
  result: RowResult | undefined;
  problemId: string;
  onUse: (number: string) => void;
}) {
  if (!result) return null;
  const o = result.outcome;
  const partLink = (part: { id: string; name: string }) => (
    <Link to={`/parts/${part.id}`} className="link link-hover font-semibold" target="_blank" rel="noopener">
      {part.name}
      <span className="sr-only"> (opens in a new tab)</span>
    </Link>
  );
  if (!o.problem) {
    return (
      <div className="text-sm" data-testid="row-outcome">
        {o.part && partLink(o.part)}
        {o.unitPrice !== null && o.lineTotal !== null && (
          <p data-testid="row-price">
            {formatDollars(o.unitPrice)} each
            {o.companyPriced && (
              <>
                {' '}
                <CompanyPriceMark />
              </>
            )}
            , line total <span className="font-semibold">{formatDollars(o.lineTotal)}</span>
          </p>
        )}
        {o.note && <p className="text-base-content/80">{o.note}</p>}
      </div>
    );
  }
  return (
    <div className="text-sm" data-testid="row-outcome">
      {o.part && !o.replacement && partLink(o.part)}
      <p id={problemId} className="font-medium text-red-700" data-testid="row-problem">
        {o.problem.message}
      </p>
      {o.note && <p className="text-base-content/80">{o.note}</p>}
      {o.replacement && (
        <div className="mt-1 flex flex-wrap items-center gap-2">
          <button
            type="button"
            className="btn btn-outline btn-xs"
            onClick={() => onUse(o.replacement?.sku ?? row.number)}
          >
            Use {o.replacement.sku}
          </button>
          <span>{partLink(o.replacement)}</span>
          {o.replacementProblem && <span className="text-red-700">{o.replacementProblem}</span>}
        </div>
      )}
      {(o.suggestions.length > 0 || o.candidates.length > 0) && (
        <ul
          className="mt-1 flex flex-wrap gap-2"
          aria-label={o.candidates.length ? 'Parts to pick from' : 'Nearest numbers'}
        >
          {o.suggestions.map((s) => (
            <li key={s.number}>
              <button type="button" className="btn btn-outline btn-xs" onClick={() => onUse(s.number)}>
                Use {s.number}
              </button>
            </li>
          ))}
          {o.candidates.map((c) => (
            <li key={c.sku}>
              <button type="button" className="btn btn-outline btn-xs" onClick={() => onUse(c.sku)}>
                Use {c.sku}
                <span className="font-normal">({c.name})</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * One row of the grid: its number, the part number and quantity inputs (labelled per row for screen readers, and
 * visibly on a phone where the rows stack), what the check found, and Remove.
 */
export function QuickOrderRow({
  row,
  index,
  result,
  stale,
  handlers,
}: {
  row: GridRow;
  index: number;
  result: RowResult | undefined;
  /** Checked before the row was last changed. */
  stale: boolean;
  handlers: RowHandlers;
}) {
  const n = index + 1;
  const problem = result?.outcome.problem;
  const problemId = `${row.id}-problem`;
  const invalid = problem ? problemField(problem.kind) : null;
  const onKeyDown = (column: Column) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      handlers.addAfter(index);
    } else if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      event.preventDefault();
      handlers.move(index, column, event.key === 'ArrowUp' ? -1 : 1);
    }
  };
  const onPaste = (column: Column) => (event: ClipboardEvent<HTMLInputElement>) => {
    if (handlers.paste(index, column, event.clipboardData.getData('text/plain'))) event.preventDefault();
  };
  const input = (column: Column, label: string, extra: { inputMode?: 'numeric'; autoComplete?: string }) => (
    <div className="flex min-w-0 flex-col gap-1">
      {/* The column's name shown on a phone (the rows stack); the label says which row, for screen readers. */}
      <span className="text-sm font-medium md:hidden" aria-hidden="true">
        {label}
      </span>
      <label htmlFor={`${row.id}-${column}`} className="sr-only">{`${label}, row ${n}`}</label>
      <input
        id={`${row.id}-${column}`}
        ref={(el) => handlers.cell(row.id, column, el)}
        type="text"
        className={`input input-bordered input-sm w-full ${invalid === column ? 'input-error' : ''}`}
        value={row[column]}
        onChange={(e) => handlers.change(row.id, column, e.target.value)}
        onKeyDown={onKeyDown(column)}
        onPaste={onPaste(column)}
        aria-invalid={invalid === column ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
        spellCheck={false}
        autoComplete="off"
        {...extra}
      />
    </div>
  );
  return (
    <li
      className="grid grid-cols-[1fr_6rem] gap-2 border-b border-base-300 py-3 md:grid-cols-[2.5rem_minmax(0,14rem)_6rem_minmax(0,1fr)_auto] md:items-start md:gap-3"
      data-testid="quick-order-row"
    >
      <span className="col-span-2 text-sm font-semibold text-base-content/80 md:col-span-1 md:pt-1" aria-hidden="true">
        <span className="md:hidden">Row </span>
        {n}
      </span>
      {input('number', 'Part number', {})}
      {input('quantity', 'Quantity', { inputMode: 'numeric' })}
      <div className="col-span-2 min-w-0 md:col-span-1" aria-live="off">
        {stale && <p className="text-sm text-base-content/80">Changed since the check: check again</p>}
        <Outcome row={row} result={result} problemId={problemId} onUse={(v) => handlers.use(row.id, v)} />
      </div>
      <div className="col-span-2 md:col-span-1">
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => handlers.remove(index)}>
          Remove<span className="sr-only"> row {n}</span>
        </button>
      </div>
    </li>
  );
}
