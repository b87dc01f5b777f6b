import { formatDollars, truncate, truncation } from '@partsyard/common';
import { useEffect, useState } from 'react';
import { useDebouncedCallback } from 'use-debounce';
import { PartImage } from '../../components/PartImage';
import { useCatalogQuery, useDeletePartMutation, type CatalogQuery } from '../../generated/graphql';
import { Cell, RowHeader } from '../../components/StackedTable';
import { AdminList, AdminTable } from './AdminList';
import { useListParams } from '../../lib/useListParams';
import { adminPageSize, adminQueryOptions, useConfirmedDelete } from './useAdminList';

type PartRow = CatalogQuery['parts']['items'][number];

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
      dialog={deleteDialog}
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
                <button type="button" className="btn btn-error btn-sm ml-auto" onClick={() => setToDelete(part)}>
                  Delete
                </button>
              </Cell>
            </tr>
          ))}
        </tbody>
      </AdminTable>
    </AdminList>
  );
}
