import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { AddToListButton, type ListSource } from '../../src/components/lists/AddToList';
import {
  AddCartToSavedListDocument,
  AddOrderToSavedListDocument,
  CreateSavedListDocument,
  SetSavedListLineDocument,
} from '../../src/generated/lists';
import { useOptionalAuth } from '../../src/lib/auth';
import { customer, polyfillDialog, renderShopping, signedInAs } from '../shopping/renderShopping';
import { listLine, listsAnswer, meAnswer, part, savedList, summary } from './listMocks';

jest.mock('../../src/lib/auth', () => ({ useAuth: jest.fn(), useOptionalAuth: jest.fn() }));

const plugs = part('p-plugs', 'Iridium Spark Plug CR9EIX', 'NGK-CR9EIX');
const consumables = summary('list-1', 'Workshop consumables', 3);
const brakes = summary('list-2', 'Brake service', 1);
const fromPart: ListSource = { kind: 'part', partId: plugs.id, partName: plugs.name, quantity: 40 };

const renderButton = (source: ListSource, mocks: Parameters<typeof renderShopping>[1]) =>
  renderShopping(<AddToListButton source={source} />, mocks, '/here');

const signIn = () =>
  jest.mocked(useOptionalAuth).mockReturnValue(signedInAs(customer) as unknown as ReturnType<typeof useOptionalAuth>);

beforeAll(polyfillDialog);
beforeEach(signIn);

describe('Add to a list', () => {
  it('is not offered to a visitor, nor to an admin', async () => {
    jest.mocked(useOptionalAuth).mockReturnValue(null);
    const { unmount } = renderButton(fromPart, []);
    expect(screen.queryByRole('button', { name: 'Add to a list' })).toBeNull();
    unmount();
    signIn();
    renderButton(fromPart, [meAnswer(true)]);
    // The me query answered: an admin, so still nothing.
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(screen.queryByRole('button', { name: 'Add to a list' })).toBeNull();
  });

  it("adds a part at the buyer's quantity to a list picked from theirs, and toasts with a link to it", async () => {
    renderButton(fromPart, [
      meAnswer(),
      listsAnswer([consumables, brakes]),
      {
        request: { query: SetSavedListLineDocument, variables: { id: 'list-2', partId: plugs.id, quantity: 40 } },
        result: {
          data: {
            setSavedListLine: savedList([listLine({ part: plugs, quantity: 40 })], {
              id: 'list-2',
              name: 'Brake service',
            }),
          },
        },
      },
    ]);
    await userEvent.click(await screen.findByRole('button', { name: 'Add to a list' }));
    const dialog = screen.getByRole('dialog', { name: 'Add to a list' });
    expect(within(dialog).getByText(`40 × ${plugs.name}`)).toBeInTheDocument();
    const first = await within(dialog).findByRole('radio', { name: 'Workshop consumables (3 parts)' });
    expect(first).toBeChecked();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Brake service (1 part)' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add to list' }));
    expect(await screen.findByText(/Added to Brake service\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View list' })).toHaveAttribute('href', '/dashboard/lists/list-2');
    expect(dialog).not.toHaveAttribute('open');
  });

  it('creates a new list by name first; a taken name is said in the dialog and nothing is added', async () => {
    renderButton({ kind: 'cart' }, [
      meAnswer(),
      listsAnswer([]),
      {
        request: { query: CreateSavedListDocument, variables: { name: 'Workshop consumables' } },
        result: {
          errors: [new GraphQLError('You have a list of this name already', { extensions: { code: 'CONFLICT' } })],
        },
      },
      {
        request: { query: CreateSavedListDocument, variables: { name: 'Garage shelf' } },
        result: { data: { createSavedList: savedList([], { id: 'list-9', name: 'Garage shelf' }) } },
      },
      listsAnswer([summary('list-9', 'Garage shelf', 0)]),
      {
        request: { query: AddCartToSavedListDocument, variables: { id: 'list-9' } },
        result: {
          data: {
            addCartToSavedList: {
              __typename: 'SavedListAddition',
              list: savedList([listLine({ part: plugs })], { id: 'list-9', name: 'Garage shelf' }),
              skipped: [],
            },
          },
        },
      },
      listsAnswer([summary('list-9', 'Garage shelf', 1)]),
    ]);
    await userEvent.click(await screen.findByRole('button', { name: 'Add to a list' }));
    const dialog = screen.getByRole('dialog', { name: 'Add to a list' });
    expect(await within(dialog).findByRole('radio', { name: 'A new list' })).toBeChecked();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add to list' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Name the list');
    const name = within(dialog).getByLabelText('Name of the new list');
    await userEvent.type(name, 'Workshop consumables');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add to list' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You have a list of this name already');
    expect(name).toHaveAccessibleDescription('You have a list of this name already');
    await userEvent.clear(name);
    await userEvent.type(name, 'Garage shelf');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add to list' }));
    expect(await screen.findByText(/Added to Garage shelf\./)).toBeInTheDocument();
  });

  it('adds a past order and says which lines were left out', async () => {
    renderButton({ kind: 'order', from: { orderId: 'order-1' }, label: 'Order #ABCD1234' }, [
      meAnswer(),
      listsAnswer([consumables]),
      {
        request: {
          query: AddOrderToSavedListDocument,
          variables: { id: 'list-1', from: { orderId: 'order-1' } },
        },
        result: {
          data: {
            addOrderToSavedList: {
              __typename: 'SavedListAddition',
              list: savedList([]),
              skipped: [
                { __typename: 'SavedListSkip', line: 1, message: 'Chain Lube: This part is no longer sold; left out' },
              ],
            },
          },
        },
      },
    ]);
    await userEvent.click(await screen.findByRole('button', { name: 'Add to a list' }));
    const dialog = screen.getByRole('dialog', { name: 'Add to a list' });
    await within(dialog).findByRole('radio', { name: 'Workshop consumables (3 parts)' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add to list' }));
    expect(
      await screen.findByText(/1 line was left out: line 1: Chain Lube: This part is no longer sold; left out\./),
    ).toBeInTheDocument();
  });
});
