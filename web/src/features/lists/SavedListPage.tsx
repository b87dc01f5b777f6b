import { formatDollars } from '@partsyard/common';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { Link, useParams } from 'react-router-dom';
import { BusyButton } from '../../components/BusyButton';
import { LineProblem, type CheckedLine } from '../../components/lists/LineProblem';
import { Spinner } from '../../components/Spinner';
import { Cell, StackedTable } from '../../components/StackedTable';
import {
  useRemoveSavedListLineMutation,
  useSavedListQuery,
  useSavedListToCartMutation,
  useSetSavedListLineMutation,
  type SavedListFieldsFragment,
} from '../../generated/lists';
import { errorMessage } from '../../lib/apollo';
import { writeCart } from '../../lib/cart/cartCache';

type ListLine = SavedListFieldsFragment['lines'][number];

/** A line's quantity, sent when it changes (Enter or leaving the field); the server's refusal stays with the row. */
function QuantityField({
  listId,
  line,
  describedBy,
  inputRef,
  onProblem,
  onSaved,
}: {
  listId: string;
  line: ListLine & { part: NonNullable<ListLine['part']> };
  describedBy?: string;
  inputRef?: (el: HTMLInputElement | null) => void;
  onProblem: (message: string | null) => void;
  /** The new quantity was kept: the last check's word on this line no longer holds. */
  onSaved: () => void;
}) {
  const [value, setValue] = useState(String(line.quantity));
  const [setLine, { loading }] = useSetSavedListLineMutation();
  useEffect(() => setValue(String(line.quantity)), [line.quantity]);
  const id = `quantity-${line.part.id}`;
  const commit = async () => {
    const quantity = Number(value);
    if (value.trim() === '' || !Number.isInteger(quantity) || quantity < 1) {
      onProblem('The quantity must be a whole number of at least 1');
      return;
    }
    if (quantity === line.quantity) return;
    onProblem(null);
    try {
      await setLine({ variables: { id: listId, partId: line.part.id, quantity } });
      onSaved();
    } catch (e) {
      onProblem(errorMessage(e));
    }
  };
  return (
    <span className="flex items-center justify-end gap-2 md:justify-start">
      <label htmlFor={id} className="sr-only">
        Quantity of {line.part.name}
      </label>
      <input
        id={id}
        ref={inputRef}
        type="number"
        inputMode="numeric"
        min={1}
        step={Math.max(1, line.part.packSize)}
        className="input input-sm w-24 text-right"
        value={value}
        disabled={loading}
        aria-invalid={describedBy ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => setValue(e.target.value)}
        onBlur={() => void commit()}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            void commit();
          }
        }}
      />
    </span>
  );
}

/** What stands in the way of a line: its check when the list was last put into the cart, else the list's own. */
function RowProblem({ id, line, checked, own }: { id: string; line: ListLine; checked?: CheckedLine; own?: string }) {
  const messages = [own].filter(Boolean);
  if (!checked?.problem && !line.problem && !messages.length) return <span className="text-base-content/60">—</span>;
  return (
    <span id={id} className="flex flex-col gap-1 text-sm text-red-800" data-testid="list-line-problem">
      {messages.map((m) => (
        <span key={m}>{m}</span>
      ))}
      {checked?.problem ? (
        <LineProblem line={checked} />
      ) : (
        line.problem && (
          <span className="flex flex-col gap-0.5">
            <span>{line.problem}</span>
            {line.replacement && (
              <span>
                Replaced by{' '}
                <Link to={`/parts/${line.replacement.id}`} className="link font-semibold">
                  {line.replacement.name}
                </Link>
              </span>
            )}
          </span>
        )
      )}
    </span>
  );
}

/**
 * One saved list (issue 34 point 3): its lines (the part, SKU, quantity to change, unit price at its break, line
 * total, what stands in the way), remove a line, the total, and "Add list to cart": every line at once, or none;
 * when none went in, each row says why, the count is announced and focus goes to the first row with a problem.
 */
export default function SavedListPage() {
  const { listId = '' } = useParams();
  const { data, loading, error } = useSavedListQuery({ variables: { id: listId }, fetchPolicy: 'cache-and-network' });
  const [removeLine] = useRemoveSavedListLineMutation({ refetchQueries: ['SavedLists'] });
  const [setLine] = useSetSavedListLineMutation();
  const [toCart, { loading: adding }] = useSavedListToCartMutation({
    update: (cache, r) => {
      if (r.data?.savedListToCart.added) writeCart(cache, r.data.savedListToCart.cart);
    },
  });
  // The last "Add list to cart" that was refused: each row's check (by its position from 1), and what is announced.
  const [checked, setChecked] = useState<Map<number, CheckedLine>>(new Map());
  const [status, setStatus] = useState('');
  const [own, setOwn] = useState<Record<string, string>>({});
  const [removing, setRemoving] = useState<string | null>(null);
  const rows = useRef<Map<number, HTMLElement>>(new Map());
  const inputs = useRef<Map<number, HTMLInputElement>>(new Map());
  const [focusRow, setFocusRow] = useState<number | null>(null);

  useEffect(() => {
    if (focusRow === null) return;
    (inputs.current.get(focusRow) ?? rows.current.get(focusRow))?.focus();
    setFocusRow(null);
  }, [focusRow]);

  if (loading && !data) return <Spinner centered />;
  const list = data?.savedList;
  if (!list) {
    return (
      <section className="flex flex-col items-start gap-3">
        <h2 className="text-2xl font-bold">List not found</h2>
        <p role="alert">{errorMessage(error)}</p>
        <Link to="/dashboard/lists" className="btn btn-outline btn-sm">
          Back to My Lists
        </Link>
      </section>
    );
  }

  const addToCart = async () => {
    setStatus('');
    try {
      const { data: answer } = await toCart({ variables: { id: list.id } });
      const result = answer?.savedListToCart;
      if (!result) return;
      if (result.added) {
        setChecked(new Map());
        const count = result.check.lines.length;
        toast.success(`Added the ${count} ${count === 1 ? 'part' : 'parts'} of ${list.name} to your cart.`);
        return;
      }
      const bad = result.check.lines.filter((l) => l.problem);
      setChecked(new Map(bad.map((l) => [l.line, l])));
      setStatus(
        `Nothing was added to your cart: ${bad.length} ${bad.length === 1 ? 'line has a problem' : 'lines have a problem'}. Fix or remove ${bad.length === 1 ? 'it' : 'them'} and try again.`,
      );
      if (bad.length) setFocusRow(Math.min(...bad.map((l) => l.line)));
    } catch (e) {
      setStatus(errorMessage(e));
    }
  };

  // A replaced part's line becomes its replacement's, at the same quantity (the replacement first, so a refusal
  // leaves the line as it was).
  const takeReplacement = async (line: ListLine) => {
    if (!line.part || !line.replacement) return;
    setRemoving(line.id);
    try {
      await setLine({ variables: { id: list.id, partId: line.replacement.id, quantity: line.quantity } });
      await removeLine({ variables: { id: list.id, partId: line.part.id } });
      setChecked(new Map());
      toast.success(`${line.replacement.name} replaces ${line.part.name} in ${list.name}.`);
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setRemoving(null);
    }
  };

  // A line whose part was deleted from the catalog is named by its own id (it has no part id).
  const remove = async (line: ListLine) => {
    setRemoving(line.id);
    try {
      await removeLine({
        variables: line.part ? { id: list.id, partId: line.part.id } : { id: list.id, lineId: line.id },
      });
      setChecked(new Map());
      toast.success(`Removed ${line.part?.name ?? line.partName} from ${list.name}.`);
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setRemoving(null);
    }
  };

  return (
    <section className="flex flex-col gap-4">
      <div>
        <Link to="/dashboard/lists" className="link text-sm">
          ← My Lists
        </Link>
        <h2 className="text-2xl font-bold [overflow-wrap:anywhere]">{list.name}</h2>
      </div>
      {list.lines.length === 0 ? (
        <p className="rounded-box bg-base-200 p-6">
          This list is empty. Use &ldquo;Add to a list&rdquo; on a part&apos;s page, in your cart or on a past order.
        </p>
      ) : (
        <StackedTable>
          <thead>
            <tr>
              <th>Part</th>
              <th>SKU</th>
              <th>Quantity</th>
              <th className="text-right">Unit price</th>
              <th className="text-right">Line total</th>
              <th>Problem</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.lines.map((line, index) => {
              const position = index + 1;
              const key = line.id;
              const check = checked.get(position);
              const problemId = `list-line-problem-${position}`;
              const hasProblem = Boolean(check?.problem || line.problem || own[key]);
              const part = line.part;
              return (
                <tr
                  key={key}
                  data-testid="list-line"
                  tabIndex={-1}
                  ref={(el) => {
                    if (el) rows.current.set(position, el);
                    else rows.current.delete(position);
                  }}
                  className={check?.problem ? 'bg-red-50' : undefined}
                >
                  <th scope="row" className="[overflow-wrap:anywhere] md:min-w-40">
                    <span className="stacked-label" aria-hidden="true">
                      Part
                    </span>
                    {part ? (
                      <Link to={`/parts/${part.id}`} className="link font-semibold">
                        {part.name}
                      </Link>
                    ) : (
                      <span>{line.partName}</span>
                    )}
                  </th>
                  <Cell label="SKU" className="font-mono text-sm whitespace-nowrap">
                    {line.sku}
                  </Cell>
                  <Cell label="Quantity">
                    {part ? (
                      <QuantityField
                        listId={list.id}
                        line={{ ...line, part }}
                        describedBy={hasProblem ? problemId : undefined}
                        inputRef={(el) => {
                          if (el) inputs.current.set(position, el);
                          else inputs.current.delete(position);
                        }}
                        onSaved={() =>
                          setChecked((all) => {
                            const next = new Map(all);
                            next.delete(position);
                            return next;
                          })
                        }
                        onProblem={(m) =>
                          setOwn((all) => {
                            const next = { ...all };
                            if (m) next[key] = m;
                            else delete next[key];
                            return next;
                          })
                        }
                      />
                    ) : (
                      line.quantity
                    )}
                  </Cell>
                  <Cell label="Unit price" className="text-right whitespace-nowrap">
                    {line.unitPrice === null || line.unitPrice === undefined ? '—' : formatDollars(line.unitPrice)}
                  </Cell>
                  <Cell label="Line total" className="text-right whitespace-nowrap">
                    {line.lineTotal === null || line.lineTotal === undefined ? '—' : formatDollars(line.lineTotal)}
                  </Cell>
                  <Cell label="Problem" className="md:max-w-64">
                    <RowProblem id={problemId} line={line} checked={check} own={own[key]} />
                  </Cell>
                  <Cell label="">
                    <span className="flex flex-wrap justify-end gap-1 md:justify-start">
                      {part && line.replacement && (
                        <BusyButton
                          type="button"
                          spinner="xs"
                          className="btn btn-outline btn-primary btn-sm bg-base-100"
                          busy={removing === line.id}
                          onClick={() => void takeReplacement(line)}
                        >
                          Take the replacement<span className="sr-only"> for {part.name}</span>
                        </BusyButton>
                      )}
                      <BusyButton
                        type="button"
                        spinner="xs"
                        className="btn btn-ghost btn-sm text-red-700"
                        busy={removing === line.id}
                        onClick={() => void remove(line)}
                      >
                        Remove<span className="sr-only"> {part?.name ?? line.partName}</span>
                      </BusyButton>
                    </span>
                  </Cell>
                </tr>
              );
            })}
          </tbody>
        </StackedTable>
      )}
      <div className="flex flex-col gap-3 rounded-box bg-base-200 p-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-lg">
          Total{' '}
          <span className="font-bold" data-testid="list-total">
            {formatDollars(list.total)}
          </span>
          <span className="block text-xs text-base-content/80">What the lines without a problem cost now.</span>
        </p>
        <BusyButton
          type="button"
          className="btn btn-primary"
          busy={adding}
          disabled={list.lines.length === 0}
          onClick={() => void addToCart()}
        >
          Add list to cart
        </BusyButton>
      </div>
      <p
        role="status"
        aria-live="polite"
        className="text-sm font-semibold text-red-800"
        data-testid="list-to-cart-status"
      >
        {status}
      </p>
    </section>
  );
}
