import { useId, useState, type FormEvent } from 'react';
import { toast } from 'react-hot-toast/headless';
import { useNavigate } from 'react-router-dom';
import {
  useAddCartToSavedListMutation,
  useAddOrderToSavedListMutation,
  useCreateSavedListMutation,
  useSavedListsQuery,
  useSetSavedListLineMutation,
} from '../../generated/lists';
import { errorMessage } from '../../lib/apollo';
import { BusyButton } from '../BusyButton';
import { Modal } from '../Modal';
import { useIsCustomer } from './useIsCustomer';

/** What goes into the list: one part at a quantity, the whole cart, or a past order (or its whole checkout). */
export type ListSource =
  | { kind: 'part'; partId: string; partName: string; quantity: number }
  | { kind: 'cart' }
  | { kind: 'order'; from: { orderId: string } | { checkoutId: string }; label: string };

const newList = 'new';

const describe = (source: ListSource): string =>
  source.kind === 'part'
    ? `${source.quantity} × ${source.partName}`
    : source.kind === 'cart'
      ? 'Every part in your cart, at its amount.'
      : `${source.label}, at the amounts ordered.`;

interface Added {
  listId: string;
  listName: string;
  skipped: { line: number; message: string }[];
}

/** The one mutation that adds `source` to list `id`. */
function useAddSource(source: ListSource): (id: string) => Promise<Added> {
  const refetchQueries = ['SavedLists'];
  const [setLine] = useSetSavedListLineMutation({ refetchQueries });
  const [addCart] = useAddCartToSavedListMutation({ refetchQueries });
  const [addOrder] = useAddOrderToSavedListMutation({ refetchQueries });
  return async (id) => {
    if (source.kind === 'part') {
      const { data } = await setLine({ variables: { id, partId: source.partId, quantity: source.quantity } });
      const list = data?.setSavedListLine;
      return { listId: id, listName: list?.name ?? '', skipped: [] };
    }
    const { data } =
      source.kind === 'cart'
        ? await addCart({ variables: { id } }).then((r) => ({ data: r.data?.addCartToSavedList }))
        : await addOrder({ variables: { id, from: source.from } }).then((r) => ({ data: r.data?.addOrderToSavedList }));
    return { listId: id, listName: data?.list.name ?? '', skipped: data?.skipped ?? [] };
  };
}

/**
 * The dialog: pick one of your lists or name a new one, then add. The list is created first (a name taken or
 * the 50 lists reached is said under the name), then the lines go in; lines left out are said in the toast.
 */
function AddToListDialog({ source, open, onClose }: { source: ListSource; open: boolean; onClose: () => void }) {
  const titleId = useId();
  const nameId = useId();
  const errorId = useId();
  const navigate = useNavigate();
  const { data, loading } = useSavedListsQuery({ skip: !open, fetchPolicy: 'cache-and-network' });
  const lists = data?.savedLists ?? [];
  const [choice, setChoice] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [createList] = useCreateSavedListMutation({ refetchQueries: ['SavedLists'] });
  const add = useAddSource(source);
  // The first list until the buyer picks; a new one when there is none.
  const picked = choice ?? (lists[0]?.id || newList);

  const close = () => {
    setProblem(null);
    setChoice(null);
    setName('');
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (picked === newList && !name.trim()) {
      setProblem('Name the list');
      return;
    }
    setBusy(true);
    try {
      let listId = picked;
      if (picked === newList) {
        const created = await createList({ variables: { name: name.trim() } });
        listId = created.data?.createSavedList.id ?? '';
        // Asked again (the add failed), the list just made is the one to add to.
        setChoice(listId);
        setName('');
      }
      const added = await add(listId);
      const left = added.skipped.length;
      toast.success(
        <span>
          Added to {added.listName}.
          {left > 0 && (
            <>
              {' '}
              {left} {left === 1 ? 'line was' : 'lines were'} left out:{' '}
              {added.skipped.map((s) => `line ${s.line}: ${s.message}`).join('; ')}.
            </>
          )}{' '}
          <a
            href={`/dashboard/lists/${added.listId}`}
            className="link font-semibold"
            onClick={(e) => {
              e.preventDefault();
              void navigate(`/dashboard/lists/${added.listId}`);
            }}
          >
            View list
          </a>
        </span>,
      );
      close();
    } catch (e) {
      setProblem(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} onClose={close} labelledBy={titleId} className="modal modal-bottom sm:modal-middle">
      <form className="modal-box flex flex-col gap-4" onSubmit={(e) => void submit(e)} noValidate>
        <h2 id={titleId} className="text-lg font-bold">
          Add to a list
        </h2>
        <p className="[overflow-wrap:anywhere]">{describe(source)}</p>
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 font-semibold">Which list</legend>
          {loading && !data && <p className="text-sm">Loading your lists…</p>}
          {lists.map((list, index) => (
            <label key={list.id} className="flex cursor-pointer items-center gap-2">
              <input
                type="radio"
                name="saved-list"
                className="radio radio-sm"
                value={list.id}
                checked={picked === list.id}
                onChange={() => setChoice(list.id)}
                data-autofocus={index === 0 ? true : undefined}
              />
              <span className="[overflow-wrap:anywhere]">
                {list.name}{' '}
                <span className="text-sm text-base-content/80">
                  ({list.lineCount} {list.lineCount === 1 ? 'part' : 'parts'})
                </span>
              </span>
            </label>
          ))}
          <label className="flex cursor-pointer items-center gap-2">
            <input
              type="radio"
              name="saved-list"
              className="radio radio-sm"
              value={newList}
              checked={picked === newList}
              onChange={() => setChoice(newList)}
              data-autofocus={lists.length === 0 ? true : undefined}
            />
            <span>A new list</span>
          </label>
          {picked === newList && (
            <div className="flex flex-col gap-1 pl-7">
              <label htmlFor={nameId} className="text-sm font-semibold">
                Name of the new list
              </label>
              <input
                id={nameId}
                className={`input w-full ${problem ? 'input-error' : ''}`}
                value={name}
                maxLength={100}
                placeholder="Workshop consumables"
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? errorId : undefined}
                onChange={(e) => setName(e.target.value)}
              />
            </div>
          )}
        </fieldset>
        {problem && (
          <p id={errorId} role="alert" className="text-sm text-red-700" data-testid="add-to-list-problem">
            {problem}
          </p>
        )}
        <div className="modal-action mt-0 flex-wrap">
          <button type="button" className="btn" onClick={close}>
            Cancel
          </button>
          <BusyButton className="btn btn-primary" busy={busy}>
            Add to list
          </BusyButton>
        </div>
      </form>
    </Modal>
  );
}

/**
 * "Add to a list" for a signed-in customer (nothing for a visitor or an admin): opens the dialog that picks or
 * names a list. `what` ends the button's accessible name when several such buttons share a page.
 */
export function AddToListButton({
  source,
  what,
  className = 'btn btn-outline btn-sm',
}: {
  source: ListSource;
  what?: string;
  className?: string;
}) {
  const customer = useIsCustomer();
  const [open, setOpen] = useState(false);
  // The dialog is made when first asked for (a page of 20 orders holds 20 buttons), then kept for its focus return.
  const [wanted, setWanted] = useState(false);
  if (!customer) return null;
  return (
    <>
      <button
        type="button"
        className={className}
        aria-haspopup="dialog"
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        Add to a list{what && <span className="sr-only"> {what}</span>}
      </button>
      {wanted && <AddToListDialog source={source} open={open} onClose={() => setOpen(false)} />}
    </>
  );
}
