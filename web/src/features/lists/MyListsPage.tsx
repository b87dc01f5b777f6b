import { useId, useState, type FormEvent } from 'react';
import { toast } from 'react-hot-toast/headless';
import { Link } from 'react-router-dom';
import { BusyButton } from '../../components/BusyButton';
import { ConfirmModal } from '../../components/ConfirmModal';
import { Modal } from '../../components/Modal';
import { orderDate } from '../../components/OrderStatusBadge';
import { Spinner } from '../../components/Spinner';
import { Cell, StackedTable } from '../../components/StackedTable';
import {
  useCreateSavedListMutation,
  useDeleteSavedListMutation,
  useRenameSavedListMutation,
  useSavedListsQuery,
  type SavedListsQuery,
} from '../../generated/lists';
import { errorMessage } from '../../lib/apollo';

type ListSummary = SavedListsQuery['savedLists'][number];

/** A list's name, asked for by a form: creating one, or renaming one (the server's message under the field). */
function NameForm({
  label,
  submitLabel,
  initial = '',
  busy,
  problem,
  onSubmit,
  autoFocus = false,
}: {
  label: string;
  submitLabel: string;
  initial?: string;
  busy: boolean;
  problem: string | null;
  onSubmit: (name: string) => void;
  autoFocus?: boolean;
}) {
  const id = useId();
  const [name, setName] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(name.trim());
  };
  return (
    <form className="flex flex-col gap-1" onSubmit={submit} noValidate>
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={id}
          className={`input min-w-0 flex-1 ${problem ? 'input-error' : ''}`}
          value={name}
          maxLength={100}
          placeholder="Workshop consumables"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          data-autofocus={autoFocus ? true : undefined}
          onChange={(e) => setName(e.target.value)}
        />
        <BusyButton className="btn btn-primary" busy={busy}>
          {submitLabel}
        </BusyButton>
      </div>
      {problem && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
    </form>
  );
}

/** The rename dialog: the list's name in a field, the server's refusal (a name taken) under it. */
function RenameDialog({ list, onClose }: { list: ListSummary | null; onClose: () => void }) {
  const titleId = useId();
  const [rename, { loading }] = useRenameSavedListMutation({ refetchQueries: ['SavedLists'] });
  const [problem, setProblem] = useState<string | null>(null);
  const close = () => {
    setProblem(null);
    onClose();
  };
  const submit = async (name: string) => {
    if (!list) return;
    setProblem(null);
    try {
      await rename({ variables: { id: list.id, name } });
      toast.success(`Renamed to ${name}.`);
      close();
    } catch (e) {
      setProblem(errorMessage(e));
    }
  };
  return (
    <Modal open={list !== null} onClose={close} labelledBy={titleId} className="modal modal-bottom sm:modal-middle">
      <div className="modal-box flex flex-col gap-4">
        <h2 id={titleId} className="text-lg font-bold [overflow-wrap:anywhere]">
          Rename {list?.name}
        </h2>
        {list && (
          <NameForm
            key={list.id}
            label="New name"
            submitLabel="Rename"
            initial={list.name}
            busy={loading}
            problem={problem}
            onSubmit={(name) => void submit(name)}
            autoFocus
          />
        )}
        <div className="modal-action mt-0">
          <button type="button" className="btn" onClick={close}>
            Cancel
          </button>
        </div>
      </div>
    </Modal>
  );
}

/**
 * My Lists (issue 34 point 3): the customer's saved lists (name, how many parts, when last changed), a new list
 * by name, and each list's rename and delete. One card per list on a phone.
 */
export default function MyListsPage() {
  const { data, loading, error } = useSavedListsQuery({ fetchPolicy: 'cache-and-network' });
  const [create, { loading: creating }] = useCreateSavedListMutation({ refetchQueries: ['SavedLists'] });
  const [remove, { loading: deleting }] = useDeleteSavedListMutation({ refetchQueries: ['SavedLists'] });
  const [createProblem, setCreateProblem] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [toRename, setToRename] = useState<ListSummary | null>(null);
  const [toDelete, setToDelete] = useState<ListSummary | null>(null);

  const createList = async (name: string) => {
    setCreateProblem(null);
    try {
      await create({ variables: { name } });
      toast.success(`Created the list ${name}.`);
      setFormKey((k) => k + 1);
    } catch (e) {
      setCreateProblem(errorMessage(e));
    }
  };
  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await remove({ variables: { id: toDelete.id } });
      toast.success(`Deleted the list ${toDelete.name}.`);
    } catch (e) {
      toast.error(errorMessage(e));
    }
    setToDelete(null);
  };

  if (loading && !data) return <Spinner centered />;
  if (!data) {
    return (
      <p role="alert" className="text-red-600">
        {errorMessage(error)}
      </p>
    );
  }
  const lists = data.savedLists;
  return (
    <section className="flex flex-col gap-4">
      <h2 className="text-2xl font-bold">My Lists</h2>
      <p className="text-sm text-base-content/80">
        Keep the parts you order often, with their quantities, and put a whole list into the cart in one step.
      </p>
      <div className="rounded-box bg-base-200 p-4">
        <NameForm
          key={formKey}
          label="Name of a new list"
          submitLabel="Create list"
          busy={creating}
          problem={createProblem}
          onSubmit={(name) => void createList(name)}
        />
      </div>
      {lists.length === 0 ? (
        <p className="rounded-box bg-base-200 p-6">
          You have no lists yet. Name one above, or use &ldquo;Add to a list&rdquo; on a part, your cart or a past
          order.
        </p>
      ) : (
        <StackedTable>
          <thead>
            <tr>
              <th>List</th>
              <th className="text-right">Parts</th>
              <th>Last changed</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {lists.map((list) => (
              <tr key={list.id} data-testid="saved-list-row">
                <th scope="row" className="[overflow-wrap:anywhere]">
                  <span className="stacked-label" aria-hidden="true">
                    List
                  </span>
                  <Link to={`/dashboard/lists/${list.id}`} className="link font-semibold">
                    {list.name}
                  </Link>
                </th>
                <Cell label="Parts" className="text-right">
                  {list.lineCount}
                </Cell>
                <Cell label="Last changed">
                  <time dateTime={list.updatedAt}>{orderDate(list.updatedAt)}</time>
                </Cell>
                <Cell label="">
                  <span className="flex flex-wrap justify-end gap-2 md:justify-start">
                    <button
                      type="button"
                      className="btn btn-outline btn-sm"
                      aria-haspopup="dialog"
                      onClick={() => setToRename(list)}
                    >
                      Rename<span className="sr-only"> {list.name}</span>
                    </button>
                    <button
                      type="button"
                      className="btn btn-outline btn-error btn-sm"
                      aria-haspopup="dialog"
                      onClick={() => setToDelete(list)}
                    >
                      Delete<span className="sr-only"> {list.name}</span>
                    </button>
                  </span>
                </Cell>
              </tr>
            ))}
          </tbody>
        </StackedTable>
      )}
      <RenameDialog list={toRename} onClose={() => setToRename(null)} />
      <ConfirmModal
        open={toDelete !== null}
        title={`Delete the list ${toDelete?.name ?? ''}?`}
        body={
          toDelete && (
            <p>
              Its {toDelete.lineCount} {toDelete.lineCount === 1 ? 'part' : 'parts'} are taken off the list; your cart
              and your orders stay as they are.
            </p>
          )
        }
        cancelLabel="Keep list"
        confirmLabel="Delete list"
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onClose={() => setToDelete(null)}
      />
    </section>
  );
}
