import { formatDollars, truncate, truncation } from '@partsyard/common';
import { useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import {
  useAllOrdersQuery,
  useCancelOrderMutation,
  useMarkOrderShippedMutation,
  type AllOrdersQuery,
  type OrderStatus,
} from '../../generated/graphql';
import { errorMessage } from '../../lib/apollo';
import { AdminList, AdminTable } from './AdminList';
import { adminQueryOptions, useAdminList, useConfirmedDelete } from './useAdminList';
import { BusyButton } from '../../components/BusyButton';

type OrderRow = AllOrdersQuery['orders']['items'][number];

const filters: { value: '' | OrderStatus; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'UNPAID', label: 'Unpaid' },
  { value: 'PAID', label: 'Paid' },
  { value: 'SHIPPED', label: 'Shipped' },
];

const asStatus = (value: string): OrderStatus | null =>
  value === 'UNPAID' || value === 'PAID' || value === 'SHIPPED' ? value : null;

/**
 * Every order (admin). Unpaid orders show a Pending badge and may be deleted; a paid order's Pending button
 * ships it, which the server saves (the spec's local-only toggle, done properly).
 */
export default function ManageOrdersPage() {
  const list = useAdminList();
  const { offset, limit, filter, setFilter } = list;
  const status = asStatus(filter('status'));
  const query = useAllOrdersQuery({
    variables: { status, offset, limit },
    ...adminQueryOptions,
  });
  const { data, refetch } = query;
  const total = data?.orders.total;

  const [cancelOrder, { loading: deleting }] = useCancelOrderMutation();
  const [markShipped] = useMarkOrderShippedMutation();
  const [shipping, setShipping] = useState<string | null>(null);

  const ship = async (order: OrderRow) => {
    setShipping(order.id);
    try {
      // The answer carries the order's new status; Apollo's cache updates the row from it.
      await markShipped({ variables: { id: order.id } });
      toast.success('Order marked as shipped.');
      await refetch();
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setShipping(null);
    }
  };

  const { setToDelete, dialog: deleteDialog } = useConfirmedDelete<OrderRow>({
    typename: 'Order',
    remove: (id, update) => cancelOrder({ variables: { id }, update }),
    success: 'Order deleted.',
    refetch,
    title: 'Are you sure you want to delete this order?',
    describe: (row) =>
      `The unpaid order of ${row.email} for ${row.orderAmount} × ${row.partName} is deleted and its stock given back.`,
    busy: deleting,
  });

  const rows = data?.orders.items ?? [];

  return (
    <AdminList
      title="Manage All Orders"
      total={total}
      tools={
        <div className="join" role="group" aria-label="Filter by status">
          {filters.map((f) => (
            <button
              key={f.label}
              type="button"
              aria-pressed={(status ?? '') === f.value}
              className={`btn join-item btn-sm ${(status ?? '') === f.value ? 'btn-primary' : ''}`}
              onClick={() => setFilter('status', f.value)}
            >
              {f.label}
            </button>
          ))}
        </div>
      }
      rowCount={rows.length}
      emptyText={status ? 'No orders with this status.' : 'No orders yet.'}
      query={query}
      paging={list}
      noun="orders"
      dialog={deleteDialog}
    >
      <AdminTable>
        <thead>
          <tr>
            <th>#</th>
            <th>Part</th>
            <th>Email</th>
            <th className="text-right">Amount</th>
            <th className="text-right">Total</th>
            <th>Payment</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((order, i) => (
            <tr key={order.id} data-testid="order-row">
              <th>{offset + i + 1}</th>
              <td className="min-w-44" title={order.partName}>
                {truncate(order.partName, truncation.orderTableName)}
              </td>
              <td className="whitespace-nowrap">{order.email}</td>
              <td className="text-right">{order.orderAmount}</td>
              <td className="text-right">{formatDollars(order.price)}</td>
              <td>
                {order.paid ? (
                  <span className="text-success" title={order.transactionId ?? undefined}>
                    Paid
                  </span>
                ) : (
                  <span className="text-base-content/80">Unpaid</span>
                )}
              </td>
              <td>
                <OrderStatusControl
                  order={order}
                  shipping={shipping === order.id}
                  busy={shipping !== null}
                  onShip={() => void ship(order)}
                  onDelete={() => setToDelete(order)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </AdminTable>
    </AdminList>
  );
}

interface OrderStatusControlProps {
  order: OrderRow;
  shipping: boolean;
  busy: boolean;
  onShip(): void;
  onDelete(): void;
}

/** Unpaid: Pending badge and Delete. Paid: a Pending button that ships it. Shipped: a Shipped badge. */
function OrderStatusControl({ order, shipping, busy, onShip, onDelete }: OrderStatusControlProps) {
  if (order.status === 'SHIPPED') return <span className="badge whitespace-nowrap badge-success">Shipped</span>;
  if (order.status === 'PAID')
    return (
      <BusyButton
        type="button"
        className="btn btn-warning btn-xs"
        title="Paid, not shipped yet: click to mark it shipped"
        busy={shipping}
        spinner="xs"
        disabled={busy}
        onClick={onShip}
      >
        Pending
      </BusyButton>
    );
  return (
    <div className="flex items-center gap-2">
      <span className="badge whitespace-nowrap badge-outline badge-warning" title="Not paid yet">
        Pending
      </span>
      <button type="button" className="btn btn-error btn-xs" onClick={onDelete}>
        Delete
      </button>
    </div>
  );
}
