import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import MyListsPage from '../../src/features/lists/MyListsPage';
import { CreateSavedListDocument, DeleteSavedListDocument, RenameSavedListDocument } from '../../src/generated/lists';
import { polyfillDialog, renderShopping } from '../shopping/renderShopping';
import { listsAnswer, savedList, summary } from './listMocks';

const consumables = summary('list-1', 'Workshop consumables', 3);
const brakes = summary('list-2', 'Brake service', 1);

const renderLists = (mocks: Parameters<typeof renderShopping>[1]) =>
  renderShopping(<MyListsPage />, mocks, '/dashboard/lists');

const refused = (code: string, message: string) => ({ errors: [new GraphQLError(message, { extensions: { code } })] });

beforeAll(polyfillDialog);

describe('My Lists', () => {
  it("shows each list's name (a link to it), how many parts and when it last changed", async () => {
    renderLists([listsAnswer([consumables, brakes])]);
    const link = await screen.findByRole('link', { name: 'Workshop consumables' });
    expect(link).toHaveAttribute('href', '/dashboard/lists/list-1');
    const row = link.closest('tr') as HTMLElement;
    expect(within(row).getByText('3')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Rename Workshop consumables' })).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Delete Workshop consumables' })).toBeInTheDocument();
    expect(within(row).getByText((_, el) => el?.tagName === 'TIME')).toHaveAttribute('datetime', consumables.updatedAt);
  });

  it('creates a list by name, toasts, and lists it', async () => {
    renderLists([
      listsAnswer([]),
      {
        request: { query: CreateSavedListDocument, variables: { name: 'Brake service' } },
        result: { data: { createSavedList: savedList([], { id: 'list-2', name: 'Brake service' }) } },
      },
      listsAnswer([brakes]),
    ]);
    expect(await screen.findByText(/You have no lists yet/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Name of a new list'), '  Brake service ');
    await userEvent.click(screen.getByRole('button', { name: 'Create list' }));
    expect(await screen.findByText('Created the list Brake service.')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Brake service' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name of a new list')).toHaveValue('');
  });

  it("says the server's message under the name when the name is taken or 50 lists are kept", async () => {
    renderLists([
      listsAnswer([consumables]),
      {
        request: { query: CreateSavedListDocument, variables: { name: 'workshop CONSUMABLES' } },
        result: refused('CONFLICT', 'You have a list of this name already'),
      },
      {
        request: { query: CreateSavedListDocument, variables: { name: 'One more' } },
        result: refused('BAD_USER_INPUT', 'You can keep at most 50 lists: delete one first'),
      },
    ]);
    const field = await screen.findByLabelText('Name of a new list');
    await userEvent.type(field, 'workshop CONSUMABLES{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('You have a list of this name already');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription('You have a list of this name already');
    await userEvent.clear(field);
    await userEvent.type(field, 'One more{Enter}');
    expect(await screen.findByText('You can keep at most 50 lists: delete one first')).toBeInTheDocument();
  });

  it('renames a list in a dialog that starts on the name; a taken name is said there', async () => {
    renderLists([
      listsAnswer([consumables, brakes]),
      {
        request: { query: RenameSavedListDocument, variables: { id: 'list-2', name: 'Workshop consumables' } },
        result: refused('CONFLICT', 'You have a list of this name already'),
      },
      {
        request: { query: RenameSavedListDocument, variables: { id: 'list-2', name: 'Brakes, front' } },
        result: { data: { renameSavedList: savedList([], { id: 'list-2', name: 'Brakes, front' }) } },
      },
      listsAnswer([consumables, summary('list-2', 'Brakes, front', 1)]),
    ]);
    await userEvent.click(await screen.findByRole('button', { name: 'Rename Brake service' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename Brake service' });
    const field = within(dialog).getByLabelText('New name');
    expect(field).toHaveFocus();
    await userEvent.clear(field);
    await userEvent.type(field, 'Workshop consumables{Enter}');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You have a list of this name already');
    await userEvent.clear(field);
    await userEvent.type(field, 'Brakes, front{Enter}');
    expect(await screen.findByText('Renamed to Brakes, front.')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Brakes, front' })).toBeInTheDocument();
  });

  it('deletes a list after asking (Keep list is the safe choice, focused first)', async () => {
    renderLists([
      listsAnswer([consumables, brakes]),
      {
        request: { query: DeleteSavedListDocument, variables: { id: 'list-1' } },
        result: { data: { deleteSavedList: 'list-1' } },
      },
      listsAnswer([brakes]),
    ]);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Workshop consumables' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete the list Workshop consumables?' });
    expect(within(dialog).getByRole('button', { name: 'Keep list' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete list' }));
    expect(await screen.findByText('Deleted the list Workshop consumables.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Workshop consumables' })).toBeNull());
  });
});
