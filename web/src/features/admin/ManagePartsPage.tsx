import { formatDollars, truncate, truncation } from '@partsyard/common';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { Link } from 'react-router-dom';
import { useDebouncedCallback } from 'use-debounce';
import { BusyButton } from '../../components/BusyButton';
import { Modal } from '../../components/Modal';
import { errorMessage, fieldErrors } from '../../lib/apollo';
import { emptyPricing, pricingErrors, pricingInput, PriceTiersEditor, type PricingDraft } from './PriceTiersEditor';
import { PartImage } from '../../components/PartImage';
import {
  useCatalogQuery,
  useDeletePartMutation,
  useSetPartPricingMutation,
  type CatalogQuery,
} from '../../generated/graphql';
import { Cell, RowHeader } from '../../components/StackedTable';
import { AdminList, AdminTable } from './AdminList';
import { useListParams } from '../../lib/useListParams';
import { adminPageSize, adminQueryOptions, useConfirmedDelete } from './useAdminList';

type PartRow = CatalogQuery['parts']['items'][number];

/** A part's quantity breaks and pack size, edited in a dialog (setPartPricing); open while `part` is set. */
function PricingDialog({ part, onClose }: { part: PartRow | null; onClose: () => void }) {
  const headingId = useId();
  const [draft, setDraft] = useState<PricingDraft>(emptyPricing);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [save, { loading }] = useSetPartPricingMutation();
  // After a save that found errors (the rules' or the server's), focus goes to the first field in error, as
  // in every form of the shop (ShopForm); counted, so that the same errors found twice move it again.
  const box = useRef<HTMLDivElement>(null);
  const [refusedSaves, setRefusedSaves] = useState(0);
  useEffect(() => {
    if (refusedSaves) box.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusedSaves]);
  useEffect(() => {
    setErrors({});
    setDraft(
      part
        ? {
            tiers: part.priceTiers.map((t) => ({ minUnits: String(t.minUnits), price: String(t.price) })),
            packSize: String(part.packSize),
          }
        : emptyPricing,
    );
  }, [part]);
  const submit = async () => {
    if (!part) return;
    const problems = pricingErrors(draft, part.price, part.minOrder);
    setErrors(problems);
    if (Object.keys(problems).length) {
      setRefusedSaves((n) => n + 1);
      return;
    }
    try {
      await save({ variables: { id: part.id, ...pricingInput(draft) } });
      toast.success('Pricing saved.');
      onClose();
    } catch (e) {
      setErrors(fieldErrors(e));
      setRefusedSaves((n) => n + 1);
      toast.error(errorMessage(e));
    }
  };
  return (
    <Modal open={part !== null} onClose={onClose} labelledBy={headingId} className="modal">
      <div ref={box} className="modal-box flex flex-col gap-3">
        <h3 id={headingId} className="text-lg font-bold">
          Pricing of {part?.name}
        </h3>
        <p className="text-sm text-gray-700">
          Base price {part ? formatDollars(part.price) : ''} per unit, minimum order {part?.minOrder}.
        </p>
        <PriceTiersEditor value={draft} onChange={setDraft} errors={errors} />
        <div className="modal-action">
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <BusyButton
            type="button"
            className="btn btn-primary"
            busy={loading}
            onClick={() => void submit()}
            data-autofocus
          >
            Save pricing
          </BusyButton>
        </div>
      </div>
    </Modal>
  );
}

/** Typing settles for this long before the list is searched. */
const searchDelayMs = 300;

/** Every part (admin), searchable by name; a part is deleted after a confirm. */
export default function ManagePartsPage() {
  const list = useListParams(adminPageSize);
  const { offset, limit, filter, setFilter } = list;
  const search = filter('q');
  const [typed, setTyped] = useState(search);

  const applySearch = useDebouncedCallback((value: string) => {
    if (value !== search) setFilter('q', value);
  }, searchDelayMs);
  // Back/forward changes the address: the box follows, and a search still waiting for the pause is dropped.
  useEffect(() => {
    applySearch.cancel();
    setTyped((current) => (current.trim() === search ? current : search));
  }, [search, applySearch]);

  const query = useCatalogQuery({
    variables: { search: search || null, offset, limit },
    ...adminQueryOptions,
  });
  const { data, refetch } = query;
  const total = data?.parts.total;

  const [deletePart, { loading: deleting }] = useDeletePartMutation();

  const { setToDelete, dialog: deleteDialog } = useConfirmedDelete<PartRow>({
    typename: 'Part',
    remove: (id, update) => deletePart({ variables: { id }, update }),
    success: 'Part deleted.',
    refetch,
    title: 'Are you sure you want to delete this part?',
    describe: (row) =>
      `${row.name} is removed from the shop and its unpaid orders are cancelled. Paid orders are kept.`,
    busy: deleting,
  });

  const rows = data?.parts.items ?? [];
  const [pricingOf, setPricingOf] = useState<PartRow | null>(null);

  return (
    <AdminList
      title="Manage Parts"
      total={total}
      tools={
        <label className="input input-sm w-full sm:w-72">
          <span className="sr-only">Search parts</span>
          <input
            type="search"
            placeholder="Search by name"
            value={typed}
            onChange={(e) => {
              setTyped(e.target.value);
              applySearch(e.target.value.trim());
            }}
            aria-label="Search parts"
          />
        </label>
      }
      rowCount={rows.length}
      emptyText={search ? `No parts match "${search}".` : 'No parts yet.'}
      query={query}
      paging={list}
      noun="parts"
      dialog={
        <>
          {deleteDialog}
          {/* Always on the page, like the other dialogs: closing it (saved, Cancel, Escape) closes the <dialog>,
              which gives focus back to the Pricing button; taken off the page while open, it could not. */}
          <PricingDialog part={pricingOf} onClose={() => setPricingOf(null)} />
        </>
      }
    >
      <AdminTable>
        <thead>
          <tr>
            <th>#</th>
            <th>Image</th>
            <th>Name</th>
            <th className="text-right">Price</th>
            <th className="text-right">Available</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((part, i) => (
            <tr key={part.id} data-testid="part-row">
              <RowHeader>{offset + i + 1}</RowHeader>
              <Cell label="Image">
                <div className="avatar">
                  <div className="mask mask-squircle h-12 w-12 bg-base-200">
                    <PartImage src={part.image} alt="" width={48} height={48} loading="lazy" decoding="async" />
                  </div>
                </div>
              </Cell>
              <Cell label="Name">
                <div className="min-w-0">
                  <div className="font-semibold" title={part.name}>
                    {truncate(part.name, truncation.partsTableName)}
                  </div>
                  <div className="font-mono text-xs [overflow-wrap:anywhere] text-base-content/80">{part.id}</div>
                </div>
              </Cell>
              <Cell label="Price" className="text-right">
                {formatDollars(part.price)}
              </Cell>
              <Cell label="Available" className="text-right">
                {part.available}
              </Cell>
              <Cell label="">
                <span className="ml-auto flex flex-wrap gap-2">
                  <Link
                    to={`/dashboard/manage-parts/${part.id}`}
                    className="btn btn-primary btn-sm"
                    aria-label={`Edit ${part.name}`}
                  >
                    Edit
                  </Link>
                  <button type="button" className="btn btn-outline btn-sm" onClick={() => setPricingOf(part)}>
                    Pricing<span className="sr-only"> of {part.name}</span>
                  </button>
                  <button type="button" className="btn btn-error btn-sm" onClick={() => setToDelete(part)}>
                    Delete
                  </button>
                </span>
              </Cell>
            </tr>
          ))}
        </tbody>
      </AdminTable>
    </AdminList>
  );
}
