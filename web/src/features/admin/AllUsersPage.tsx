import { useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { ConfirmModal } from '../../components/ConfirmModal';
import { Cell, RowHeader } from '../../components/StackedTable';
import {
  useDeleteUserMutation,
  useGrantAdminMutation,
  useMeQuery,
  useRevokeAdminMutation,
  useUsersQuery,
  type UsersQuery,
} from '../../generated/graphql';
import { errorCode, errorMessage } from '../../lib/apollo';
import { AdminList, AdminTable } from './AdminList';
import { useListParams } from '../../lib/useListParams';
import { adminPageSize, adminQueryOptions, useConfirmedDelete } from './useAdminList';

type UserRow = UsersQuery['users']['items'][number];

const isForbidden = (error: unknown) =>
  errorCode(error) === 'FORBIDDEN' ||
  (error as { networkError?: { statusCode?: number } })?.networkError?.statusCode === 403;

/**
 * All users (admin): make a verified customer an admin, take admin away from another admin, or delete an account
 * other than your own, each after a confirmation naming the user. The server decides each of these; the page
 * only leaves out what it would refuse. One card per user on a phone.
 */
export default function AllUsersPage() {
  const myId = useMeQuery({ fetchPolicy: 'cache-first' }).data?.me.id;
  const list = useListParams(adminPageSize);
  const { offset, limit } = list;
  const query = useUsersQuery({
    variables: { offset, limit },
    ...adminQueryOptions,
  });
  const { data, refetch } = query;
  const total = data?.users.total;

  const [grantAdmin, { loading: granting }] = useGrantAdminMutation();
  const [revokeAdmin, { loading: revoking }] = useRevokeAdminMutation();
  const [deleteUser, { loading: deleting }] = useDeleteUserMutation();
  // Granting admin is asked for first, naming the user: it hands over every admin right.
  const [toGrant, setToGrant] = useState<UserRow | null>(null);
  const [toRevoke, setToRevoke] = useState<UserRow | null>(null);

  const confirmRevoke = async () => {
    if (!toRevoke) return;
    try {
      await revokeAdmin({ variables: { email: toRevoke.email } });
      toast.success(`${toRevoke.email} is no longer an admin.`);
      setToRevoke(null);
      await refetch();
    } catch (e) {
      toast.error(errorMessage(e));
    }
  };

  const makeAdmin = async (row: UserRow) => {
    try {
      await grantAdmin({ variables: { email: row.email } });
      toast.success(`Made ${row.email} an admin.`);
      setToGrant(null);
      await refetch();
    } catch (e) {
      if (isForbidden(e)) console.error('Failed to make admin. You are not admin');
      toast.error(errorMessage(e));
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
      dialog={
        <>
          {deleteDialog}
          <ConfirmModal
            open={toGrant !== null}
            title="Make this user an admin?"
            body={
              toGrant && (
                <p>
                  <strong>{toGrant.email}</strong> {toGrant.name && `(${toGrant.name}) `}will be able to manage users,
                  orders and parts, and to make others admin.
                </p>
              )
            }
            confirmLabel="Make admin"
            tone="primary"
            busy={granting}
            onConfirm={() => toGrant && void makeAdmin(toGrant)}
            onClose={() => setToGrant(null)}
          />
          <ConfirmModal
            open={toRevoke !== null}
            title="Remove admin rights?"
            body={
              toRevoke
                ? `${toRevoke.email} will no longer manage users, orders and parts. They keep their account and orders.`
                : undefined
            }
            confirmLabel="Remove admin"
            busy={revoking}
            onConfirm={() => void confirmRevoke()}
            onClose={() => setToRevoke(null)}
          />
        </>
      }
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
            const isMe = row.id === myId;
            return (
              <tr key={row.id} data-testid="user-row">
                <RowHeader>{offset + i + 1}</RowHeader>
                <Cell label="Email" className="max-md:[overflow-wrap:anywhere]">
                  <span>
                    {row.email || <span className="text-base-content/80">(address moved to another account)</span>}
                    {isMe && <span className="ml-2 text-xs text-base-content/80">(you)</span>}
                    {row.email && !row.emailVerified && (
                      <span className="ml-2 text-xs text-base-content/80">(not verified)</span>
                    )}
                  </span>
                </Cell>
                <Cell label="Name">{row.name}</Cell>
                <Cell label="Role">
                  {row.isAdmin ? (
                    <span className="badge badge-primary">Admin</span>
                  ) : (
                    <span className="badge border-base-300 bg-base-200 text-base-content">Customer</span>
                  )}
                </Cell>
                <Cell label="">
                  <span className="flex w-full flex-wrap justify-end gap-2">
                    {!row.isAdmin && (
                      <button
                        type="button"
                        className="btn btn-outline btn-sm btn-primary"
                        disabled={!row.emailVerified}
                        title={row.emailVerified ? undefined : 'Only accounts with a verified email can be admins'}
                        onClick={() => setToGrant(row)}
                      >
                        Make Admin
                      </button>
                    )}
                    {row.isAdmin && !isMe && (
                      <button type="button" className="btn btn-outline btn-sm" onClick={() => setToRevoke(row)}>
                        Remove admin
                      </button>
                    )}
                    <button
                      type="button"
                      className="btn btn-sm btn-error"
                      disabled={isMe}
                      title={isMe ? 'You cannot delete your own account' : undefined}
                      onClick={() => setToDelete(row)}
                    >
                      Delete
                    </button>
                  </span>
                </Cell>
              </tr>
            );
          })}
        </tbody>
      </AdminTable>
    </AdminList>
  );
}
