import { useId, useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { BusyButton } from '../../components/BusyButton';
import { useAddQuickOrderToSavedListMutation, useQuickOrderSavedListsQuery } from '../../generated/quickOrder';
import { errorMessage } from '../../lib/apollo';
import { linesOf } from './checkResults';
import type { GridRow } from './gridRows';

/**
 * The grid's rows into one of the customer's saved lists (issue 34 point 3): a list picked, the rows sent; rows that
 * name no one part are left out and said. Lists are made and edited on their own pages; without one, nothing shows.
 */
export function SaveToList({ rows }: { rows: GridRow[] }) {
  const { data } = useQuickOrderSavedListsQuery({ fetchPolicy: 'cache-and-network' });
  const [addToList, { loading }] = useAddQuickOrderToSavedListMutation();
  const [chosen, setChosen] = useState('');
  const [said, setSaid] = useState('');
  const id = useId();
  const lists = data?.savedLists ?? [];
  if (!lists.length) return null;
  const listId = chosen || lists[0].id;

  const onSave = async () => {
    const { lines } = linesOf(rows);
    if (!lines.length) {
      setSaid('Enter at least one part number and quantity');
      return;
    }
    try {
      const { data: answer } = await addToList({ variables: { id: listId, lines } });
      const result = answer?.addQuickOrderToSavedList;
      if (!result) return;
      const added = lines.length - result.skipped.length;
      const sentence = `${added.toLocaleString('en-US')} ${added === 1 ? 'row' : 'rows'} saved to ${result.list.name}`;
      toast.success(sentence);
      setSaid(
        result.skipped.length
          ? `${sentence}; left out: ${result.skipped.map((s) => `row ${s.line} (${s.message})`).join('; ')}`
          : `${sentence}.`,
      );
    } catch (e) {
      toast.error(errorMessage(e));
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex flex-col gap-1">
          <label htmlFor={id} className="text-sm font-semibold">
            Save the rows to a list
          </label>
          <select
            id={id}
            className="select select-bordered select-sm"
            value={listId}
            onChange={(e) => setChosen(e.target.value)}
          >
            {lists.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
        </div>
        <BusyButton type="button" busy={loading} className="btn btn-outline btn-sm" onClick={() => void onSave()}>
          Save to list
        </BusyButton>
      </div>
      <p role="status" className="text-sm">
        {said}
      </p>
    </div>
  );
}
