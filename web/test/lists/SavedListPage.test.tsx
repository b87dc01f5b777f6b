import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import SavedListPage from '../../src/features/lists/SavedListPage';
import {
  RemoveSavedListLineDocument,
  SavedListToCartDocument,
  SetSavedListLineDocument,
} from '../../src/generated/lists';
import { renderShopping } from '../shopping/renderShopping';
import { cartFromLines, checkLine, listAnswer, listLine, part, savedList } from './listMocks';

const plugs = part('p-plugs', 'Iridium Spark Plug CR9EIX', 'NGK-CR9EIX');
const oldPads = part('p-pads-old', 'Brake Pads FA196 (old)', 'EBC-FA196');
const newPads = part('p-pads-new', 'Brake Pads FA196HH', 'EBC-FA196HH');
const filter = part('p-filter', 'Oil Filter HF204', 'HF-204');

const lines = [
  listLine({ part: plugs, quantity: 20, unitPrice: 4.2, lineTotal: 84 }),
  listLine({
    part: oldPads,
    quantity: 10,
    unitPrice: 12,
    lineTotal: 120,
    problem: 'EBC-FA196 (Brake Pads FA196 (old)) is replaced by EBC-FA196HH (Brake Pads FA196HH): take the replacement',
    replacement: newPads,
  }),
  listLine({ part: filter, quantity: 30, unitPrice: 5, lineTotal: 150 }),
];
const list = savedList(lines);

const renderList = (mocks: Parameters<typeof renderShopping>[1]) =>
  renderShopping(<SavedListPage />, mocks, '/dashboard/lists/:listId', '/dashboard/lists/list-1');

const rowOf = async (name: string) => (await screen.findByRole('link', { name })).closest('tr') as HTMLElement;

describe('A saved list', () => {
  it("shows each line's part (a link), SKU, quantity, unit price, line total and problem with its replacement", async () => {
    renderList([listAnswer(list)]);
    expect(await screen.findByRole('heading', { name: 'Workshop consumables' })).toBeInTheDocument();
    const row = await rowOf(plugs.name);
    expect(within(row).getByRole('link', { name: plugs.name })).toHaveAttribute('href', '/parts/p-plugs');
    expect(within(row).getByText('NGK-CR9EIX')).toBeInTheDocument();
    expect(within(row).getByLabelText(`Quantity of ${plugs.name}`)).toHaveValue(20);
    expect(within(row).getByText('$4.20')).toBeInTheDocument();
    expect(within(row).getByText('$84.00')).toBeInTheDocument();
    const replaced = await rowOf(oldPads.name);
    expect(within(replaced).getByTestId('list-line-problem')).toHaveTextContent('take the replacement');
    expect(within(replaced).getByRole('link', { name: newPads.name })).toHaveAttribute('href', '/parts/p-pads-new');
    expect(within(replaced).getByLabelText(`Quantity of ${oldPads.name}`)).toHaveAccessibleDescription(
      /is replaced by/,
    );
    expect(screen.getByTestId('list-total')).toHaveTextContent('$234.00');
  });

  it('a gone part keeps its name and SKU, without a link, a price or a quantity field, and is removed by its line', async () => {
    const gone = listLine({
      part: null,
      partName: 'Chain Lube 400 ml',
      sku: 'LUBE-400',
      unitPrice: null,
      lineTotal: null,
      problem: 'This part is no longer sold',
    });
    renderList([
      listAnswer(savedList([gone])),
      {
        request: { query: RemoveSavedListLineDocument, variables: { id: 'list-1', lineId: gone.id } },
        result: { data: { removeSavedListLine: savedList([]) } },
      },
    ]);
    const row = (await screen.findByText('Chain Lube 400 ml', { selector: 'th span:not(.sr-only)' })).closest(
      'tr',
    ) as HTMLElement;
    expect(within(row).queryByRole('link')).toBeNull();
    expect(within(row).queryByRole('spinbutton')).toBeNull();
    expect(within(row).getByText('This part is no longer sold')).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'Remove Chain Lube 400 ml' }));
    expect(await screen.findByText(/This list is empty/)).toBeInTheDocument();
  });

  it('changes a quantity on Enter and keeps the refusal with its row', async () => {
    renderList([
      listAnswer(list),
      {
        request: { query: SetSavedListLineDocument, variables: { id: 'list-1', partId: 'p-plugs', quantity: 40 } },
        result: {
          data: {
            setSavedListLine: savedList([{ ...lines[0], quantity: 40, lineTotal: 168 }, lines[1], lines[2]]),
          },
        },
      },
    ]);
    const row = await rowOf(plugs.name);
    const field = within(row).getByLabelText(`Quantity of ${plugs.name}`);
    await userEvent.clear(field);
    await userEvent.type(field, '40{Enter}');
    expect(await within(row).findByText('$168.00')).toBeInTheDocument();
    await userEvent.clear(field);
    await userEvent.type(field, '0{Enter}');
    expect(within(row).getByTestId('list-line-problem')).toHaveTextContent(
      'The quantity must be a whole number of at least 1',
    );
    expect(field).toHaveAttribute('aria-invalid', 'true');
  });

  it("a replaced part's line takes its replacement in one click, at the same quantity", async () => {
    const taken = listLine({ part: newPads, quantity: 10, unitPrice: 13, lineTotal: 130 });
    renderList([
      listAnswer(list),
      {
        request: { query: SetSavedListLineDocument, variables: { id: 'list-1', partId: newPads.id, quantity: 10 } },
        result: { data: { setSavedListLine: savedList([lines[0], lines[1], lines[2], taken]) } },
      },
      {
        request: { query: RemoveSavedListLineDocument, variables: { id: 'list-1', partId: oldPads.id } },
        result: { data: { removeSavedListLine: savedList([lines[0], lines[2], taken]) } },
      },
    ]);
    const row = await rowOf(oldPads.name);
    await userEvent.click(within(row).getByRole('button', { name: `Take the replacement for ${oldPads.name}` }));
    expect(
      await screen.findByText(`${newPads.name} replaces ${oldPads.name} in Workshop consumables.`),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('link', { name: oldPads.name })).toBeNull());
    expect(within(await rowOf(newPads.name)).getByLabelText(`Quantity of ${newPads.name}`)).toHaveValue(10);
  });

  it('removes a line', async () => {
    renderList([
      listAnswer(list),
      {
        request: { query: RemoveSavedListLineDocument, variables: { id: 'list-1', partId: 'p-filter' } },
        result: { data: { removeSavedListLine: savedList([lines[0], lines[1]]) } },
      },
    ]);
    const row = await rowOf(filter.name);
    await userEvent.click(within(row).getByRole('button', { name: `Remove ${filter.name}` }));
    expect(await screen.findByText(`Removed ${filter.name} from Workshop consumables.`)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('link', { name: filter.name })).toBeNull());
  });

  it('Add list to cart: refused as a whole, each bad row says why, the count is announced, focus on the first bad row', async () => {
    const stock = { kind: 'NOT_ENOUGH_STOCK', message: 'Only 12 items available' };
    const superseded = { kind: 'SUPERSEDED', message: lines[1].problem ?? '' };
    renderList([
      listAnswer(list),
      {
        request: { query: SavedListToCartDocument, variables: { id: 'list-1' } },
        result: {
          data: {
            savedListToCart: cartFromLines([
              checkLine(1, plugs),
              checkLine(2, oldPads, superseded, newPads),
              checkLine(3, filter, stock),
            ]),
          },
        },
      },
      {
        request: { query: SetSavedListLineDocument, variables: { id: 'list-1', partId: 'p-filter', quantity: 12 } },
        result: {
          data: { setSavedListLine: savedList([lines[0], lines[1], { ...lines[2], quantity: 12, lineTotal: 60 }]) },
        },
      },
    ]);
    await userEvent.click(await screen.findByRole('button', { name: 'Add list to cart' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Nothing was added to your cart: 2 lines have a problem. Fix or remove them and try again.',
    );
    const filterRow = await rowOf(filter.name);
    expect(within(filterRow).getByTestId('list-line-problem')).toHaveTextContent('Only 12 items available');
    const padsField = within(await rowOf(oldPads.name)).getByLabelText(`Quantity of ${oldPads.name}`);
    await waitFor(() => expect(padsField).toHaveFocus());
    expect(within(await rowOf(plugs.name)).getByText('—')).toBeInTheDocument();
    // A new quantity kept: the row's word from that check no longer holds.
    const filterField = within(filterRow).getByLabelText(`Quantity of ${filter.name}`);
    await userEvent.clear(filterField);
    await userEvent.type(filterField, '12{Enter}');
    await waitFor(() => expect(within(filterRow).queryByTestId('list-line-problem')).toBeNull());
  });

  it('Add list to cart: every line in, a toast', async () => {
    renderList([
      listAnswer(savedList([lines[0], lines[2]])),
      {
        request: { query: SavedListToCartDocument, variables: { id: 'list-1' } },
        result: { data: { savedListToCart: cartFromLines([checkLine(1, plugs), checkLine(2, filter)]) } },
      },
    ]);
    await userEvent.click(await screen.findByRole('button', { name: 'Add list to cart' }));
    expect(await screen.findByText('Added the 2 parts of Workshop consumables to your cart.')).toBeInTheDocument();
    expect(screen.getByTestId('list-to-cart-status')).toBeEmptyDOMElement();
  });
});
