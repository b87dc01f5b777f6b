import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import AllUsersPage from '../../src/features/admin/AllUsersPage';
import {
  DeleteUserDocument,
  GrantAdminDocument,
  MeDocument,
  RevokeAdminDocument,
  UsersDocument,
} from '../../src/generated/graphql';
import { me, polyfillDialog, renderAdmin } from './renderAdmin';

jest.mock('../../src/lib/auth', () => ({
  useAuth: () => ({ status: 'signedIn', user: jest.requireActual('./renderAdmin').me }),
}));

const user = (id: string, email: string, name: string, admin: boolean, emailVerified = true) => ({
  __typename: 'User' as const,
  id,
  email,
  name,
  avatar: '',
  phone: '',
  education: '',
  location: '',
  linkedIn: '',
  role: admin ? ('ADMIN' as const) : ('CUSTOMER' as const),
  isAdmin: admin,
  emailVerified,
});

const myself = user('u1', me.email, 'Ada Admin', true);
const otherAdmin = user('u2', 'boss@partsyard.test', 'Bo Boss', true);
const customer = user('u3', 'rider@example.test', 'Rita Rider', false);

const newcomer = user('u4', 'new@example.test', 'Nia New', false, false);

const usersPage = (items: ReturnType<typeof user>[]) => ({
  request: { query: UsersDocument, variables: { offset: 0, limit: 20 } },
  result: { data: { users: { __typename: 'UserPage', items, total: items.length } } },
});
/** Who the signed-in admin is (the page tells "you" by the account's id, not by an email). */
const meAnswer = { request: { query: MeDocument, variables: {} }, result: { data: { me: myself } } };

const rowOf = async (email: string) => (await screen.findByText(email)).closest('tr') as HTMLElement;

beforeAll(polyfillDialog);

describe('All Users', () => {
  it('shows each user with email, name and role; Make Admin only for those not admin yet', async () => {
    renderAdmin(<AllUsersPage />, [usersPage([myself, otherAdmin, customer]), meAnswer]);
    const customerRow = await rowOf(customer.email);
    expect(within(customerRow).getByText('Rita Rider')).toBeInTheDocument();
    expect(within(customerRow).getByText('Customer')).toBeInTheDocument();
    expect(within(customerRow).getByRole('button', { name: 'Make Admin' })).toBeInTheDocument();

    for (const admin of [myself, otherAdmin]) {
      const row = await rowOf(admin.email);
      expect(within(row).getByText('Admin')).toBeInTheDocument();
      expect(within(row).queryByRole('button', { name: 'Make Admin' })).not.toBeInTheDocument();
    }
    expect(screen.getAllByRole('button', { name: 'Make Admin' })).toHaveLength(1);
  });

  it('never lets the signed-in admin delete their own account or remove their own admin rights', async () => {
    renderAdmin(<AllUsersPage />, [usersPage([myself, otherAdmin, customer]), meAnswer]);
    await waitFor(async () =>
      expect(within(await rowOf(me.email)).getByRole('button', { name: 'Delete' })).toBeDisabled(),
    );
    expect(within(await rowOf(me.email)).queryByRole('button', { name: 'Remove admin' })).not.toBeInTheDocument();
    expect(within(await rowOf(otherAdmin.email)).getByRole('button', { name: 'Delete' })).toBeEnabled();
    expect(within(await rowOf(customer.email)).getByRole('button', { name: 'Delete' })).toBeEnabled();
  });

  it('making a customer admin asks first, naming the user; confirmed, it toasts, refetches, and the button disappears', async () => {
    renderAdmin(<AllUsersPage />, [
      meAnswer,
      usersPage([myself, customer]),
      {
        request: { query: GrantAdminDocument, variables: { email: customer.email } },
        result: { data: { grantAdmin: { ...customer, role: 'ADMIN', isAdmin: true } } },
      },
      usersPage([myself, { ...customer, role: 'ADMIN', isAdmin: true }]),
    ]);
    await userEvent.click(within(await rowOf(customer.email)).getByRole('button', { name: 'Make Admin' }));
    const dialog = screen.getByRole('dialog', { name: 'Make this user an admin?' });
    expect(dialog).toHaveTextContent(customer.email);
    // Nothing is granted until confirmed; the safe choice has the focus.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Make admin' }));
    expect(await screen.findByText(`Made ${customer.email} an admin.`)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Make Admin' })).not.toBeInTheDocument());
  });

  it('a refused grant (403) toasts and logs that you are not admin', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderAdmin(<AllUsersPage />, [
      meAnswer,
      usersPage([myself, customer]),
      {
        request: { query: GrantAdminDocument, variables: { email: customer.email } },
        result: { errors: [new GraphQLError('Admins only', { extensions: { code: 'FORBIDDEN' } })] },
      },
    ]);
    await userEvent.click(within(await rowOf(customer.email)).getByRole('button', { name: 'Make Admin' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Make admin' }));
    expect(await screen.findByText('Admins only')).toBeInTheDocument();
    expect(logged).toHaveBeenCalledWith('Failed to make admin. You are not admin');
    logged.mockRestore();
  });

  it('a grant that is not confirmed changes nothing', async () => {
    renderAdmin(<AllUsersPage />, [usersPage([myself, customer]), meAnswer]);
    await userEvent.click(within(await rowOf(customer.email)).getByRole('button', { name: 'Make Admin' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(await rowOf(customer.email)).getByRole('button', { name: 'Make Admin' })).toBeInTheDocument();
  });

  it('a customer whose email is not verified yet is marked so, and cannot be made admin', async () => {
    renderAdmin(<AllUsersPage />, [usersPage([myself, newcomer]), meAnswer]);
    const row = await rowOf(newcomer.email);
    expect(within(row).getByText('(not verified)')).toBeInTheDocument();
    const button = within(row).getByRole('button', { name: 'Make Admin' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('title', 'Only accounts with a verified email can be admins');
  });

  it('removing another admin asks first, then toasts and refetches the list', async () => {
    renderAdmin(<AllUsersPage />, [
      meAnswer,
      usersPage([myself, otherAdmin]),
      {
        request: { query: RevokeAdminDocument, variables: { email: otherAdmin.email } },
        result: { data: { revokeAdmin: { ...otherAdmin, role: 'CUSTOMER', isAdmin: false } } },
      },
      usersPage([myself, { ...otherAdmin, role: 'CUSTOMER', isAdmin: false }]),
    ]);
    await userEvent.click(within(await rowOf(otherAdmin.email)).getByRole('button', { name: 'Remove admin' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove admin rights?' });
    expect(
      within(dialog).getByText(/boss@partsyard.test will no longer manage users, orders and parts/),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove admin' }));
    expect(await screen.findByText(`${otherAdmin.email} is no longer an admin.`)).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getAllByTestId('user-row')[1]).getByText('Customer')).toBeInTheDocument());
  });

  it('deleting a user asks first, then toasts and refetches the list', async () => {
    renderAdmin(<AllUsersPage />, [
      meAnswer,
      usersPage([myself, customer]),
      {
        request: { query: DeleteUserDocument, variables: { id: customer.id } },
        result: { data: { deleteUser: customer.id } },
      },
      usersPage([myself]),
    ]);
    await userEvent.click(within(await rowOf(customer.email)).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Are you sure you want to delete this user?' });
    expect(dialog).toHaveAttribute('open');
    expect(within(dialog).getByText('Are you sure you want to delete this user?')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User deleted.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(customer.email)).not.toBeInTheDocument());
  });
});
