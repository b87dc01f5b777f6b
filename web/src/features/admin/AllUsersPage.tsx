import { useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { useDeleteUserMutation, useGrantAdminMutation, useUsersQuery, type UsersQuery } from '../../generated/graphql';
import { errorCode, errorMessage } from '../../lib/apollo';
import { useAuth } from '../auth/AuthProvider';
import { AdminList, AdminTable } from './AdminList';
import { adminQueryOptions, useAdminList, useConfirmedDelete } from './useAdminList';
import { BusyButton } from '../../components/BusyButton';

type UserRow = UsersQuery['users']['items'][number];

const isForbidden = (error: unknown) =>
  errorCode(error) === 'FORBIDDEN' ||
  (error as { networkError?: { statusCode?: number } })?.networkError?.statusCode === 403;

/** All users (admin): make a customer an admin, or delete an account other than your own. */
export default function AllUsersPage() {
  const { user } = useAuth();
  const myEmail = user?.email.toLowerCase() ?? '';
  const list = useAdminList();
  const { offset, limit } = list;
  const query = useUsersQuery({
    variables: { offset, limit },
    ...adminQueryOptions,
  });
  const { data, refetch } = query;
  const total = data?.users.total;

  const [grantAdmin] = useGrantAdminMutation();
  const [deleteUser, { loading: deleting }] = useDeleteUserMutation();
  const [granting, setGranting] = useState<string | null>(null);

  const makeAdmin = async (row: UserRow) => {
    setGranting(row.id);
    try {
      await grantAdmin({ variables: { email: row.email } });
      toast.success(`Made ${row.email} an admin.`);
      await refetch();
    } catch (e) {
      if (isForbidden(e)) console.error('Failed to make admin. You are not admin');
      toast.error(errorMessage(e));
    } finally {
      setGranting(null);
    }
  };

  const { setToDelete, dialog: deleteDialog } = useConfirmedDelete<UserRow>({
    typename: 'User',
    remove: (id, update) => deleteUser({ variables: { id }, update }),
    success: 'User deleted.',
    refetch,
    title: 'Are you sure you want to delete this user?',
    describe: (row) => `${row.email} loses their account. Their unpaid orders are cancelled; paid orders are kept.`,
    busy: deleting,
  });

  const rows = data?.users.items ?? [];

  return (
    <AdminList
      title="All Users"
      total={total}
      rowCount={rows.length}
      emptyText="No users yet."
      query={query}
      paging={list}
      noun="users"
      dialog={deleteDialog}
    >
      <AdminTable>
        <thead>
          <tr>
            <th>#</th>
            <th>Email</th>
            <th>Name</th>
            <th>Role</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => {
            const isMe = row.email.toLowerCase() === myEmail;
            return (
              <tr key={row.id} data-testid="user-row">
                <th>{offset + i + 1}</th>
                <td className="whitespace-nowrap">
                  {row.email}
                  {isMe && <span className="ml-2 text-xs text-base-content/80">(you)</span>}
                </td>
                <td>{row.name}</td>
                <td>
                  {row.isAdmin ? (
                    <span className="badge badge-primary">Admin</span>
                  ) : (
                    <span className="badge badge-ghost">Customer</span>
                  )}
                </td>
                <td>
                  <div className="flex justify-end gap-2">
                    {!row.isAdmin && (
                      <BusyButton
                        type="button"
                        className="btn btn-outline btn-xs btn-primary"
                        busy={granting === row.id}
                        spinner="xs"
                        disabled={granting !== null}
                        onClick={() => void makeAdmin(row)}
                      >
                        Make Admin
                      </BusyButton>
                    )}
                    <button
                      type="button"
                      className="btn btn-xs btn-error"
                      disabled={isMe}
                      title={isMe ? 'You cannot delete your own account' : undefined}
                      onClick={() => setToDelete(row)}
                    >
                      Delete
                    </button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </AdminTable>
    </AdminList>
  );
}
