import { messages } from '@partsyard/common';
import type { MockedResponse } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import EditPartPage from '../../src/features/admin/EditPartPage';
import {
  AdjustStockDocument,
  EditableBrandsDocument,
  EditableCategoriesDocument,
  EditPartDocument,
  PartFitmentDocument,
  StockHistoryDocument,
  UpdatePartDocument,
  VehicleMakesDocument,
} from '../../src/generated/partEditing';
import { renderAdmin } from './renderAdmin';

/** Issue 33 point 5: every field of a part is editable from Manage Parts, and its stock by adjustments. */

const id = '7d4c7a52-0000-4000-8000-000000000001';
const ebc = { __typename: 'Brand' as const, id: '7d4c7a52-0000-4000-8000-0000000000b1', name: 'EBC' };
const pads = {
  __typename: 'Category' as const,
  id: '7d4c7a52-0000-4000-8000-0000000000c2',
  name: 'Brake pads',
  parent: { __typename: 'Category' as const, id: '7d4c7a52-0000-4000-8000-0000000000c1' },
};
const brakes = { __typename: 'Category' as const, id: pads.parent.id, name: 'Brakes', parent: null };

const part = {
  __typename: 'Part' as const,
  id,
  name: 'Sintered brake pads',
  description: 'For twin-disc calipers.',
  image: '/images/parts/pads.svg',
  price: 12.5,
  minOrder: 10,
  available: 40,
  priceTiers: [],
  packSize: 1,
  sku: 'PY-000001',
  universal: false,
  brand: { __typename: 'Brand' as const, id: ebc.id, name: ebc.name },
  category: null,
  replacedBy: null,
  numbers: [{ __typename: 'PartNumber' as const, kind: 'MANUFACTURER' as const, raw: 'FA185HH', brand: ebc }],
};

const page = <T,>(typename: string, items: T[]) => ({ __typename: typename, total: items.length, offset: 0, items });

const movement = (reason: string, delta: number, before: number, note: string) => ({
  __typename: 'StockMovement' as const,
  id: `m-${reason}-${before}`,
  reason,
  delta,
  before,
  after: before + delta,
  note,
  createdAt: '2026-11-20T09:30:00.000Z',
  actor: { __typename: 'StockActor' as const, name: 'Ada Admin', email: 'admin@partsyard.test' },
});

const basics = (history: ReturnType<typeof movement>[] = []): MockedResponse[] => [
  {
    request: { query: EditPartDocument, variables: { id } },
    result: { data: { part } },
  },
  { request: { query: EditableBrandsDocument }, result: { data: { brands: [ebc] } } },
  { request: { query: EditableCategoriesDocument }, result: { data: { categories: [pads, brakes] } } },
  {
    request: { query: StockHistoryDocument, variables: { partId: id, offset: 0, limit: 10 } },
    result: { data: { stockHistory: { ...page('StockMovementPage', history), limit: 10 } } },
  },
  {
    request: { query: PartFitmentDocument, variables: { id, offset: 0, limit: 20, search: null } },
    result: { data: { part: { __typename: 'Part', id, fitment: { ...page('FitmentPage', []), limit: 20 } } } },
  },
  { request: { query: VehicleMakesDocument }, result: { data: { makes: [] } } },
];

/** The patch the form sends for `part` with `changes`. */
const patchOf = (changes: Record<string, unknown>) => ({
  name: part.name,
  description: part.description,
  image: part.image,
  price: part.price,
  minOrder: part.minOrder,
  priceTiers: [],
  packSize: 1,
  sku: part.sku,
  brandId: ebc.id,
  categoryId: null,
  universal: false,
  replacedBySku: '',
  numbers: [{ kind: 'MANUFACTURER', raw: 'FA185HH', brandId: ebc.id }],
  ...changes,
});

const renderPage = (mocks: MockedResponse[]) =>
  renderAdmin(
    <Routes>
      <Route path="/dashboard/manage-parts/:partId" element={<EditPartPage />} />
    </Routes>,
    mocks,
    `/dashboard/manage-parts/${id}`,
  );

const details = () => screen.getByRole('form', { name: 'Details' });

describe('Edit a part', () => {
  it('shows every field of the part; saving sends the changed price, category and numbers', async () => {
    const saved = { ...part, price: 11, category: { __typename: 'Category' as const, id: pads.id, name: pads.name } };
    renderPage([
      ...basics(),
      {
        request: {
          query: UpdatePartDocument,
          variables: {
            id,
            patch: patchOf({
              price: 11,
              categoryId: pads.id,
              numbers: [
                { kind: 'MANUFACTURER', raw: 'FA185HH', brandId: ebc.id },
                { kind: 'OEM', raw: '06455-MEN-A71', brandId: null },
              ],
            }),
          },
        },
        result: { data: { updatePart: saved } },
      },
    ]);
    expect(await screen.findByRole('heading', { name: `Edit ${part.name}` })).toBeInTheDocument();
    const form = details();
    expect(within(form).getByLabelText('Part Name')).toHaveValue(part.name);
    expect(within(form).getByLabelText('Price')).toHaveValue(12.5);
    expect(within(form).getByLabelText('Brand')).toHaveValue(ebc.id);
    // Categories are named with the ones above them.
    expect(within(form).getByRole('option', { name: 'Brakes › Brake pads' })).toBeInTheDocument();
    expect(within(form).getByLabelText('Number 1')).toHaveValue('FA185HH');

    await userEvent.clear(within(form).getByLabelText('Price'));
    await userEvent.type(within(form).getByLabelText('Price'), '11');
    await userEvent.selectOptions(within(form).getByLabelText('Category'), pads.id);
    await userEvent.click(within(form).getByRole('button', { name: 'Add a number' }));
    await userEvent.type(within(form).getByLabelText('Number 2'), '06455-MEN-A71');
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Part saved.')).toBeInTheDocument();
  });

  it('shows the rules’ messages under their fields, and the server’s too, tied to them', async () => {
    const refused = {
      message: 'PY-000002 (Chain) has this SKU already',
      extensions: {
        code: 'BAD_USER_INPUT',
        fields: { sku: 'PY-000002 (Chain) has this SKU already', 'numbers.0.raw': 'Listed twice' },
      },
    };
    renderPage([
      ...basics(),
      {
        request: { query: UpdatePartDocument, variables: { id, patch: patchOf({ sku: 'PY-000002' }) } },
        result: { errors: [refused] as never },
      },
    ]);
    await screen.findByRole('heading', { name: `Edit ${part.name}` });
    const form = details();
    await userEvent.clear(within(form).getByLabelText('Part Name'));
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    const name = within(form).getByLabelText('Part Name');
    expect(await within(form).findByText(messages.partNameRequired)).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription(messages.partNameRequired);

    await userEvent.type(name, part.name);
    await userEvent.clear(within(form).getByLabelText('SKU'));
    await userEvent.type(within(form).getByLabelText('SKU'), 'PY-000002');
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(within(form).getByLabelText('SKU')).toHaveAccessibleDescription('PY-000002 (Chain) has this SKU already'),
    );
    expect(within(form).getByLabelText('Number 1')).toHaveAccessibleDescription('Listed twice');
  });

  it('adjusts the stock with a reason and lists the history, newest first', async () => {
    renderPage([
      ...basics([movement('RECEIVED', 30, 10, 'Delivery 1187')]),
      {
        request: {
          query: AdjustStockDocument,
          variables: { partId: id, input: { reason: 'DAMAGED', delta: -3, note: 'Bent in the rack' } },
        },
        result: {
          data: {
            adjustStock: {
              __typename: 'StockAdjustmentResult',
              movement: { __typename: 'StockMovement', id: 'm-new' },
              part: { __typename: 'Part', id, available: 37 },
            },
          },
        },
      },
      {
        request: { query: StockHistoryDocument, variables: { partId: id, offset: 0, limit: 10 } },
        result: {
          data: {
            stockHistory: {
              ...page('StockMovementPage', [
                movement('DAMAGED', -3, 40, 'Bent in the rack'),
                movement('RECEIVED', 30, 10, 'Delivery 1187'),
              ]),
              limit: 10,
            },
          },
        },
      },
    ]);
    const stock = await screen.findByRole('form', { name: 'Adjust the stock' });
    expect(screen.getByTestId('in-stock')).toHaveTextContent('40');
    expect(await screen.findAllByTestId('stock-movement')).toHaveLength(1);

    // Units are required, and a reason says what they mean.
    await userEvent.click(within(stock).getByRole('button', { name: 'Adjust stock' }));
    expect(await within(stock).findByText('Enter how many units (1 or more)')).toBeInTheDocument();
    await userEvent.selectOptions(within(stock).getByLabelText('Reason'), 'damaged');
    await userEvent.type(within(stock).getByLabelText('Units damaged'), '3');
    await userEvent.type(within(stock).getByLabelText('Note (optional)'), 'Bent in the rack');
    await userEvent.click(within(stock).getByRole('button', { name: 'Adjust stock' }));
    expect(await screen.findByText('Stock adjusted: 40 → 37 units.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('stock-movement')).toHaveLength(2));
    const [newest] = screen.getAllByTestId('stock-movement');
    expect(newest).toHaveTextContent('Damaged');
    expect(newest).toHaveTextContent('−3');
    expect(newest).toHaveTextContent('40 → 37');
    expect(screen.getByTestId('in-stock')).toHaveTextContent('37');
  });

  it('says so when the stock cannot take an adjustment, under the units', async () => {
    renderPage([
      ...basics(),
      {
        request: {
          query: AdjustStockDocument,
          variables: { partId: id, input: { reason: 'DAMAGED', delta: -50, note: '' } },
        },
        result: {
          errors: [
            {
              message: 'Only 40 units are in stock now: at most 40 can be taken off',
              extensions: {
                code: 'BAD_USER_INPUT',
                fields: { delta: 'Only 40 units are in stock now: at most 40 can be taken off' },
              },
            },
          ] as never,
        },
      },
    ]);
    const stock = await screen.findByRole('form', { name: 'Adjust the stock' });
    await userEvent.selectOptions(within(stock).getByLabelText('Reason'), 'damaged');
    await userEvent.type(within(stock).getByLabelText('Units damaged'), '50');
    await userEvent.click(within(stock).getByRole('button', { name: 'Adjust stock' }));
    await waitFor(() =>
      expect(within(stock).getByLabelText('Units damaged')).toHaveAccessibleDescription(
        'Only 40 units are in stock now: at most 40 can be taken off',
      ),
    );
    expect(screen.getByTestId('in-stock')).toHaveTextContent('40');
  });
});
