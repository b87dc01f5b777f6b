import { csvCell, formatDollars, maxQuickOrderLines, parsePastedLines, quickOrderMessages } from '@partsyard/common';
import { useApolloClient } from '@apollo/client';
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { toast } from 'react-hot-toast/headless';
import { Link, useLocation } from 'react-router-dom';
import { BusyButton } from '../../components/BusyButton';
import {
  QuickOrderCheckDocument,
  useAddQuickOrderToCartMutation,
  type QuickOrderCheckQuery,
  type QuickOrderCheckQueryVariables,
} from '../../generated/quickOrder';
import { errorMessage } from '../../lib/apollo';
import { useOptionalAuth } from '../../lib/auth';
import { writeCart } from '../../lib/cart/cartCache';
import {
  freshResult,
  linesOf,
  outcomeSentence,
  problemField,
  resultsFrom,
  tally,
  type Results,
  type RowResult,
} from './checkResults';
import {
  addRowAfter,
  append,
  blankRows,
  isBlank,
  isSelection,
  loadRows,
  pasteAt,
  saveRows,
  type GridRow,
  type RowsChange,
} from './gridRows';
import { maxFileBytes, quickOrderFileMessages, readQuickOrderFile } from './quickOrderFile';
import { QuickOrderRow, type Column, type RowHandlers } from './QuickOrderRow';
import { SaveToList } from './SaveToList';

const Row = memo(QuickOrderRow);

/** This tab's storage, when the browser lets the page use it. */
function tabStorage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** Saves `text` as a file named `name` (the browser's download). */
function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * The rows with a problem as CSV, numbered as the grid shows them now, in the server's layout (line, number,
 * quantity, problem) and written by the shop's one CSV writer: a formula-looking cell stays text.
 */
function problemsCsv(rows: GridRow[], results: Results): string {
  const lines = rows.flatMap((row, i) => {
    const problem = freshResult(results, row)?.outcome.problem;
    return problem ? [[String(i + 1), row.number, row.quantity, problem.message]] : [];
  });
  return (
    [['line', 'number', 'quantity', 'problem'], ...lines].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n'
  );
}

/** Where a pasted text or a file put its rows, said once they are in. */
const addedSentence = (count: number, headerSkipped: boolean, from: string) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? 'row' : 'rows'} added from ${from}${headerSkipped ? ' (its header row skipped)' : ''}. Check them when you are ready.`;

/**
 * Quick order (issue 34 points 1, 5, 7): a grid of part numbers and quantities, typed, pasted from a spreadsheet
 * or read from a CSV file, checked by the server in one request (each row's part and price, or its problem and
 * the fix), and the good rows put into the cart at once. A visitor fills and checks the grid; adding asks them to
 * log in, and the grid is kept for this tab meanwhile.
 */
export default function QuickOrderPage() {
  const auth = useOptionalAuth();
  const signedIn = auth?.status === 'signedIn';
  const location = useLocation();
  const client = useApolloClient();
  const [rows, setRows] = useState<GridRow[]>(() => loadRows(tabStorage()) ?? blankRows());
  const [results, setResults] = useState<Results>(new Map());
  /** What the last action found (announced politely): "3 of 30 rows need attention". */
  const [status, setStatus] = useState('');
  /** Why a paste or a file was refused (announced at once); the grid is unchanged. */
  const [refusal, setRefusal] = useState('');
  const [busy, setBusy] = useState<'check' | 'cart' | null>(null);
  const [pasteText, setPasteText] = useState('');
  const [focusNext, setFocusNext] = useState<{ id: string; column: Column } | null>(null);
  const [addToCart] = useAddQuickOrderToCartMutation({
    update: (cache, r) => writeCart(cache, r.data?.addQuickOrderToCart.cart),
  });
  const cells = useRef(new Map<string, HTMLInputElement>());
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const pasteId = useId();
  const fileId = useId();

  useEffect(() => saveRows(tabStorage(), rows), [rows]);
  useEffect(() => {
    if (!focusNext) return;
    cells.current.get(`${focusNext.id}:${focusNext.column}`)?.focus();
    setFocusNext(null);
  }, [focusNext]);

  /** Applies a change of the rows, or says why it was refused (nothing changes). */
  const apply = useCallback((change: RowsChange, then?: (rows: GridRow[]) => void): boolean => {
    if (!change.ok) {
      setRefusal(change.error);
      return false;
    }
    setRefusal('');
    setRows(change.rows);
    then?.(change.rows);
    return true;
  }, []);

  const handlers = useMemo<RowHandlers>(
    () => ({
      change(id, column, value) {
        setRows((rs) => rs.map((r) => (r.id === id ? { ...r, [column]: value } : r)));
      },
      use(id, number) {
        setRows((rs) => rs.map((r) => (r.id === id ? { ...r, number } : r)));
        setFocusNext({ id, column: 'number' });
      },
      remove(index) {
        const rs = rowsRef.current;
        const next = rs.filter((_, i) => i !== index);
        if (!next.length) next.push(...blankRows(1));
        setRows(next);
        const neighbour = next[Math.min(index, next.length - 1)];
        setFocusNext({ id: neighbour.id, column: 'number' });
      },
      addAfter(index) {
        apply(addRowAfter(rowsRef.current, index), (rs) => setFocusNext({ id: rs[index + 1].id, column: 'number' }));
      },
      move(index, column, by) {
        const target = rowsRef.current[index + by];
        if (target) cells.current.get(`${target.id}:${column}`)?.focus();
      },
      paste(index, column, text) {
        if (!isSelection(text, column)) return false;
        const { lines, headerSkipped } = parsePastedLines(text);
        if (!lines.length) {
          setRefusal('The pasted text holds no part numbers (a header row alone?)');
          return true;
        }
        const before = rowsRef.current.slice(0, index).filter((r) => !isBlank(r)).length;
        apply(pasteAt(rowsRef.current, index, lines), (rs) => {
          setStatus(addedSentence(lines.length, headerSkipped, 'the pasted selection'));
          setFocusNext({ id: rs[before].id, column });
        });
        return true;
      },
      cell(id, column, element) {
        if (element) cells.current.set(`${id}:${column}`, element);
        else cells.current.delete(`${id}:${column}`);
      },
    }),
    [apply],
  );

  /** Focus on the first row with a problem: on the input its problem is about. */
  const focusFirstProblem = (rs: GridRow[], rsResults: Results) => {
    for (const row of rs) {
      const problem = freshResult(rsResults, row)?.outcome.problem;
      if (problem) {
        setFocusNext({ id: row.id, column: problemField(problem.kind) });
        return;
      }
    }
  };

  /** Checks every filled row in one request; answers the results, or null when nothing was checked. */
  const check = async (): Promise<Map<string, RowResult> | null> => {
    const { rows: sent, lines } = linesOf(rowsRef.current);
    if (!lines.length) {
      setStatus('');
      setRefusal(quickOrderMessages.noLines);
      return null;
    }
    setRefusal('');
    const { data } = await client.query<QuickOrderCheckQuery, QuickOrderCheckQueryVariables>({
      query: QuickOrderCheckDocument,
      variables: { lines },
      fetchPolicy: 'no-cache',
    });
    return resultsFrom(results, sent, lines, data.quickOrderCheck.lines);
  };

  const onCheck = async () => {
    setBusy('check');
    try {
      const next = await check();
      if (!next) return;
      setResults(next);
      const t = tally(rowsRef.current, next);
      setStatus(outcomeSentence(t.filled, t.problems));
      focusFirstProblem(rowsRef.current, next);
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusy(null);
    }
  };

  /** The good rows into the cart at once: checked first when anything changed since; the others stay to fix. */
  const onAddToCart = async () => {
    setBusy('cart');
    try {
      let current: Results = results;
      const before = tally(rowsRef.current, current);
      if (before.unchecked) {
        const next = await check();
        if (!next) return;
        current = next;
        setResults(next);
      }
      const t = tally(rowsRef.current, current);
      if (!t.ready.length) {
        setStatus(`Nothing was added: ${outcomeSentence(t.filled, t.problems).toLowerCase()}`);
        focusFirstProblem(rowsRef.current, current);
        return;
      }
      // Only the ready rows go (the server adds all it is sent or none), each with its place in the grid.
      const readyIds = new Set(t.ready.map((r) => r.id));
      const filled = linesOf(rowsRef.current);
      const sent = filled.rows.map((row, i) => ({ row, line: filled.lines[i] })).filter((s) => readyIds.has(s.row.id));
      const sentRows = sent.map((s) => s.row);
      const sentLines = sent.map((s) => s.line);
      const { data } = await addToCart({ variables: { lines: sentLines } });
      const answer = data?.addQuickOrderToCart;
      if (!answer) return;
      const next = resultsFrom(current, sentRows, sentLines, answer.check.lines);
      setResults(next);
      if (!answer.added) {
        const after = tally(rowsRef.current, next);
        setStatus(`Nothing was added to the cart: ${outcomeSentence(after.filled, after.problems).toLowerCase()}`);
        focusFirstProblem(rowsRef.current, next);
        return;
      }
      const left = rowsRef.current.filter((r) => !readyIds.has(r.id) && !isBlank(r));
      const remaining = left.length ? left : blankRows(1);
      setRows(remaining);
      const added = sentRows.length;
      const sentence = `${added.toLocaleString('en-US')} ${added === 1 ? 'row' : 'rows'} added to your cart (${formatDollars(answer.check.total)})`;
      toast.success(sentence);
      const after = tally(remaining, next);
      setStatus(left.length ? `${sentence}. ${outcomeSentence(after.filled, after.problems)}.` : `${sentence}.`);
      if (left.length) focusFirstProblem(remaining, next);
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusy(null);
    }
  };

  const onPasteBox = () => {
    const { lines, headerSkipped } = parsePastedLines(pasteText);
    if (!lines.length) {
      setRefusal('Paste part numbers and quantities into the box first');
      return;
    }
    apply(append(rowsRef.current, lines), () => {
      setPasteText('');
      setStatus(addedSentence(lines.length, headerSkipped, 'the pasted text'));
    });
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    // A file too large is refused before it is read into memory.
    const read =
      file.size > maxFileBytes
        ? ({ ok: false, error: quickOrderFileMessages.tooBig(file.name) } as const)
        : await file.arrayBuffer().then(
            (buffer) => readQuickOrderFile(file.name, new Uint8Array(buffer)),
            () => ({ ok: false, error: quickOrderFileMessages.unreadable(file.name) }) as const,
          );
    if (!read.ok) {
      setStatus('');
      setRefusal(read.error);
      return;
    }
    apply(append(rowsRef.current, read.lines), () =>
      setStatus(addedSentence(read.lines.length, read.headerSkipped, file.name)),
    );
  };

  const t = tally(rows, results);
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-2xl font-bold text-primary sm:text-3xl">Quick order</h1>
      <p className="mt-2 max-w-3xl text-base-content/80">
        Order by part number: type our SKU or any number a part carries (a maker&apos;s, an OEM number) and a quantity,
        paste rows from a spreadsheet, or upload a CSV file; up to {maxQuickOrderLines.toLocaleString('en-US')} rows.
        Check them, fix what needs it, and add the rows that are ready to your cart at once.
      </p>

      <section aria-labelledby={`${pasteId}-heading`} className="mt-6 grid gap-4 md:grid-cols-2">
        <h2 id={`${pasteId}-heading`} className="sr-only">
          Paste or upload
        </h2>
        <div className="flex flex-col gap-2">
          <label htmlFor={pasteId} className="font-semibold">
            Paste from a spreadsheet
          </label>
          <textarea
            id={pasteId}
            className="textarea textarea-bordered h-28 font-mono text-sm"
            value={pasteText}
            onChange={(e) => setPasteText(e.target.value)}
            placeholder={'FA185HH\t20\n520VX3-120\t10'}
            aria-describedby={`${pasteId}-hint`}
            spellCheck={false}
          />
          <p id={`${pasteId}-hint`} className="text-sm text-base-content/80">
            Part number, then quantity: separated by tabs, commas, semicolons or spaces. A header row is skipped.
          </p>
          <button type="button" className="btn btn-outline btn-sm self-start" onClick={onPasteBox}>
            Add these rows
          </button>
        </div>
        <div className="flex flex-col gap-2">
          <label htmlFor={fileId} className="font-semibold">
            Upload a CSV file
          </label>
          <input
            id={fileId}
            type="file"
            accept=".csv,.txt,.tsv,text/csv,text/plain"
            className="file-input file-input-bordered file-input-sm w-full max-w-sm"
            aria-describedby={`${fileId}-hint`}
            onChange={(e) => void onFile(e)}
          />
          <p id={`${fileId}-hint`} className="text-sm text-base-content/80">
            A .csv or .txt file of up to {maxQuickOrderLines.toLocaleString('en-US')} rows, part number then quantity
            (UTF-8 or Windows Latin-1).
          </p>
        </div>
      </section>

      <div
        role="alert"
        className={refusal ? 'alert mt-4 border-red-300 bg-red-50 text-red-900' : ''}
        data-testid="quick-order-refusal"
      >
        {refusal}
      </div>

      <section aria-labelledby={`${pasteId}-rows`} className="mt-6">
        <h2 id={`${pasteId}-rows`} className="text-xl font-bold">
          Rows
        </h2>
        <div
          className="hidden grid-cols-[2.5rem_minmax(0,14rem)_6rem_minmax(0,1fr)_auto] gap-3 border-b border-base-300 pb-2 text-sm font-semibold md:grid"
          aria-hidden="true"
        >
          <span>#</span>
          <span>Part number</span>
          <span>Quantity</span>
          <span>Part and price</span>
          <span />
        </div>
        <ol className="list-none p-0" data-testid="quick-order-rows">
          {rows.map((row, i) => {
            const fresh = freshResult(results, row);
            return (
              <Row
                key={row.id}
                row={row}
                index={i}
                result={fresh}
                stale={!fresh && results.has(row.id)}
                handlers={handlers}
              />
            );
          })}
        </ol>
        <button type="button" className="btn btn-ghost btn-sm mt-2" onClick={() => handlers.addAfter(rows.length - 1)}>
          Add row
        </button>
      </section>

      <div className="mt-6 flex flex-col gap-4 rounded-box bg-base-200 p-4">
        <p role="status" aria-live="polite" className="font-semibold" data-testid="quick-order-status">
          {status}
        </p>
        <p data-testid="quick-order-total">
          Total of the rows ready: <span className="font-bold">{formatDollars(t.total)}</span>
          {t.unchecked > 0 && t.filled > 0 && (
            <span className="text-base-content/80">
              {' '}
              ({t.unchecked.toLocaleString('en-US')} {t.unchecked === 1 ? 'row' : 'rows'} not checked yet)
            </span>
          )}
        </p>
        <div className="flex flex-wrap gap-2">
          <BusyButton
            type="button"
            busy={busy === 'check'}
            disabled={busy !== null}
            className="btn btn-outline"
            onClick={() => void onCheck()}
          >
            Check
          </BusyButton>
          {signedIn ? (
            <BusyButton
              type="button"
              busy={busy === 'cart'}
              disabled={busy !== null}
              className="btn btn-primary"
              onClick={() => void onAddToCart()}
            >
              Add to cart
            </BusyButton>
          ) : (
            <Link to="/login" state={{ from: location }} className="btn btn-primary">
              Log in to add to the cart
            </Link>
          )}
          {t.problems > 0 && (
            <button
              type="button"
              className="btn btn-ghost"
              onClick={() => download('quick-order-problems.csv', problemsCsv(rows, results))}
            >
              Download problems (CSV)
            </button>
          )}
        </div>
        {!signedIn && <p className="text-sm text-base-content/80">Your rows are kept in this tab while you log in.</p>}
        {signedIn && <SaveToList rows={rows} />}
      </div>
    </div>
  );
}
