import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ManagePartsPage from '../../src/features/admin/ManagePartsPage';
import { CatalogDocument, DeletePartDocument } from '../../src/generated/graphql';
import { polyfillDialog, renderAdmin } from './renderAdmin';

const part = (id: string, name: string) => ({
  __typename: 'Part' as const,
  id,
  name,
  description: 'A part',
  image: '/images/parts/chain.svg',
  price: 12.5,
  minOrder: 10,
  available: 300,
  priceTiers: [],
  packSize: 1,
});

const chain = part('7d4c7a52-0000-4000-8000-000000000001', 'Heavy-duty O-ring drive chain');
const pads = part('7d4c7a52-0000-4000-8000-000000000002', 'Brake pads');

const catalog = (items: ReturnType<typeof part>[], search: string | null = null) => ({
  request: { query: CatalogDocument, variables: { search, offset: 0, limit: 20 } },
  result: { data: { parts: { __typename: 'PartPage', items, total: items.length, offset: 0, limit: 20 } } },
});

beforeAll(polyfillDialog);

describe('Manage Parts', () => {
  it('shows image, name cut to 20 characters with the id, price and available', async () => {
    renderAdmin(<ManagePartsPage />, [catalog([chain, pads])]);
    const row = (await screen.findByText('Heavy-duty O-ring dr...')).closest('tr') as HTMLElement;
    expect(within(row).getByText(chain.id)).toBeInTheDocument();
    expect(within(row).getByText('$12.50')).toBeInTheDocument();
    expect(within(row).getByText('300')).toBeInTheDocument();
    expect(row.querySelector('img')).toHaveAttribute('src', chain.image);
  });

  it('Delete opens the confirm modal; confirming deletes the part, toasts and refreshes the list', async () => {
    renderAdmin(<ManagePartsPage />, [
      catalog([chain, pads]),
      { request: { query: DeletePartDocument, variables: { id: pads.id } }, result: { data: { deletePart: pads.id } } },
      catalog([chain]),
    ]);
    const row = (await screen.findByText('Brake pads')).closest('tr') as HTMLElement;
    await userEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveAttribute('open');
    expect(within(dialog).getByRole('heading')).toHaveTextContent(/^Are you sure you want to delete this part\?$/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Part deleted.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Brake pads')).not.toBeInTheDocument());
    expect(dialog).not.toHaveAttribute('open');
  });

  it('Cancel closes the modal and deletes nothing', async () => {
    renderAdmin(<ManagePartsPage />, [catalog([chain, pads])]);
    const row = (await screen.findByText('Brake pads')).closest('tr') as HTMLElement;
    await userEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Are you sure you want to delete this part?').closest('dialog')).not.toHaveAttribute(
      'open',
    );
    expect(screen.getByText('Brake pads')).toBeInTheDocument();
  });

  it('a failed delete shows a toast', async () => {
    renderAdmin(<ManagePartsPage />, [
      catalog([pads]),
      { request: { query: DeletePartDocument, variables: { id: pads.id } }, error: new Error('Network down') },
    ]);
    const row = (await screen.findByText('Brake pads')).closest('tr') as HTMLElement;
    await userEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.getByText('Brake pads')).toBeInTheDocument();
  });

  it('searches by name', async () => {
    renderAdmin(<ManagePartsPage />, [catalog([chain, pads]), catalog([pads], 'brake')]);
    await screen.findByText('Brake pads');
    // One change (as when pasting), so only the settled search reaches the server.
    await userEvent.click(screen.getByRole('searchbox', { name: 'Search parts' }));
    await userEvent.paste('brake');
    // The searched page has come when the chain is gone and the pads are shown again (not the loading state between).
    await waitFor(() => {
      expect(screen.queryByText('Heavy-duty O-ring dr...')).not.toBeInTheDocument();
      expect(screen.getByText('Brake pads')).toBeInTheDocument();
    });
  });
});
