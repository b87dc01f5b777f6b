import { checkStockAdjustment, stockReasonNames, stockReasons, type StockReason } from '@partsyard/common';
import { Formik, useField, type FormikHelpers } from 'formik';
import { useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { BusyButton } from '../../components/BusyButton';
import { errorAria, FieldFrame, FormField, ShopForm } from '../../components/form/ShopForm';
import { Cell, StackedTable } from '../../components/StackedTable';
import {
  useAdjustStockMutation,
  useStockHistoryQuery,
  type EditablePartFragment,
  type StockReason as ApiReason,
} from '../../generated/partEditing';
import { errorMessage, fieldErrors } from '../../lib/apollo';

interface StockValues {
  reason: StockReason;
  /** Units as typed: how many came in, were counted, damaged or returned; for `other`, the change with its sign. */
  units: number | '';
  note: string;
}

const emptyAdjustment: StockValues = { reason: 'received', units: '', note: '' };

/** What the units field is called for each reason. */
const unitsLabel: Record<StockReason, string> = {
  received: 'Units received',
  counted: 'Units counted',
  damaged: 'Units damaged',
  returned: 'Units returned',
  other: 'Change in units (+ or −)',
};

const unitsRequired = 'Enter how many units (1 or more)';

/** The adjustment the form's values mean, as the API takes it. */
function adjustmentOf({ reason, units, note }: StockValues) {
  const n = units === '' ? undefined : Number(units);
  if (reason === 'counted') return { reason, countedTo: n, note };
  return { reason, delta: n === undefined ? undefined : reason === 'damaged' ? -n : n, note };
}

/** The shared rule (common/inventory.ts) on the form: its messages, keyed by the form's fields. */
function validate(values: StockValues): Record<string, string> {
  const errors: Record<string, string> = {};
  const units = values.units === '' ? NaN : Number(values.units);
  const signed = values.reason === 'other' || values.reason === 'counted';
  if (!Number.isInteger(units) || (!signed && units < 1)) errors.units = unitsRequired;
  const checked = checkStockAdjustment(adjustmentOf(values));
  if (!checked.ok) {
    const { delta, countedTo, ...rest } = checked.errors;
    Object.assign(errors, rest);
    errors.units ??= delta ?? countedTo;
    if (!errors.units) delete errors.units;
  }
  return errors;
}

function ReasonField() {
  const [field, meta] = useField<StockReason>('reason');
  const id = 'stock-reason';
  const error = meta.touched ? meta.error : undefined;
  return (
    <FieldFrame id={id} label="Reason" error={error}>
      <select {...field} id={id} className="select w-full" {...errorAria(id, error)}>
        {stockReasons.map((r) => (
          <option key={r} value={r}>
            {stockReasonNames[r]}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

const historyPageSize = 10;
const when = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';
const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

/**
 * A part's stock (admin): what is in stock, an adjustment with its reason (the API holds the part as orders do,
 * never below zero), and the history of adjustments, newest first.
 */
export function StockPanel({ part }: { part: Pick<EditablePartFragment, 'id' | 'available'> }) {
  const [adjust] = useAdjustStockMutation();
  const [offset, setOffset] = useState(0);
  const history = useStockHistoryQuery({
    variables: { partId: part.id, offset, limit: historyPageSize },
    fetchPolicy: 'cache-and-network',
  });
  const page = history.data?.stockHistory;

  const submit = async (values: StockValues, form: FormikHelpers<StockValues>) => {
    const input = adjustmentOf(values);
    try {
      const { data } = await adjust({
        variables: {
          partId: part.id,
          input: { ...input, reason: input.reason.toUpperCase() as ApiReason },
        },
      });
      toast.success(`Stock adjusted: ${part.available} → ${data?.adjustStock.part.available ?? '?'} units.`);
      form.resetForm();
      setOffset(0);
      await history.refetch({ partId: part.id, offset: 0, limit: historyPageSize });
    } catch (e) {
      const { delta, countedTo, ...fields } = fieldErrors(e);
      const errors = { ...fields, ...(delta || countedTo ? { units: delta ?? countedTo } : {}) };
      form.setErrors(errors);
      void form.setTouched(Object.fromEntries(Object.keys(errors).map((f) => [f, true])), false);
      toast.error(errorMessage(e));
    }
  };

  return (
    <div className="card bg-base-100 shadow">
      <div className="card-body gap-4">
        <h3 className="card-title">Stock</h3>
        <p>
          In stock now: <strong data-testid="in-stock">{part.available}</strong> units. The stock changes only by an
          adjustment with a reason, kept in the history below; orders take from it as they are placed.
        </p>
        <Formik initialValues={emptyAdjustment} validate={validate} onSubmit={submit}>
          {({ isSubmitting, values }) => (
            <ShopForm className="grid gap-3 sm:grid-cols-3" idPrefix="stock" aria-label="Adjust the stock">
              <ReasonField />
              <FormField name="units" label={unitsLabel[values.reason]} type="number" inputMode="numeric" />
              <FormField name="note" label={values.reason === 'other' ? 'Note (why)' : 'Note (optional)'} />
              <div className="sm:col-span-3">
                <BusyButton className="btn btn-primary w-full sm:w-auto" busy={isSubmitting}>
                  Adjust stock
                </BusyButton>
              </div>
            </ShopForm>
          )}
        </Formik>

        <h4 className="mt-2 font-semibold" id="stock-history-heading">
          Stock history {page && <span className="badge">{page.total}</span>}
        </h4>
        {!page ? (
          <p className="text-sm">
            {history.error ? `The history could not load: ${history.error.message}` : 'Loading…'}
          </p>
        ) : page.items.length === 0 ? (
          <p className="text-sm text-gray-700">No adjustments yet.</p>
        ) : (
          <StackedTable>
            <caption className="sr-only">Stock history, newest first</caption>
            <thead>
              <tr>
                <th>When</th>
                <th>Reason</th>
                <th className="text-right">Change</th>
                <th className="text-right">Stock</th>
                <th>Note</th>
                <th>By</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((m) => (
                <tr key={m.id} data-testid="stock-movement">
                  <Cell label="When">{when(m.createdAt)}</Cell>
                  <Cell label="Reason">{stockReasonNames[m.reason.toLowerCase() as StockReason]}</Cell>
                  <Cell label="Change" className="text-right">
                    {signed(m.delta)}
                  </Cell>
                  <Cell label="Stock" className="text-right">
                    {m.before} → {m.after}
                  </Cell>
                  <Cell label="Note" className="[overflow-wrap:anywhere]">
                    {m.note}
                  </Cell>
                  <Cell label="By" className="[overflow-wrap:anywhere]">
                    {m.actor ? m.actor.name || m.actor.email : 'a deleted account'}
                  </Cell>
                </tr>
              ))}
            </tbody>
          </StackedTable>
        )}
        {page && page.total > historyPageSize && (
          <nav className="flex items-center gap-2" aria-label="Stock history pages">
            <button
              type="button"
              className="btn btn-outline btn-sm"
              disabled={offset === 0}
              onClick={() => setOffset(Math.max(0, offset - historyPageSize))}
            >
              Newer
            </button>
            <span className="text-sm">
              {offset + 1}–{Math.min(offset + historyPageSize, page.total)} of {page.total}
            </span>
            <button
              type="button"
              className="btn btn-outline btn-sm"
              disabled={offset + historyPageSize >= page.total}
              onClick={() => setOffset(offset + historyPageSize)}
            >
              Older
            </button>
          </nav>
        )}
      </div>
    </div>
  );
}
