import { formatDollars, orderNumber, truncate, truncation } from '@partsyard/common';
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
import { useListParams } from '../../lib/useListParams';
import { adminPageSize, adminQueryOptions, useConfirmedDelete } from './useAdminList';
import { ConfirmModal } from '../../components/ConfirmModal';
import { OrderStatusBadge, PaymentAftermath, orderDate } from '../../components/OrderStatusBadge';
import { Cell, RowHeader } from '../../components/StackedTable';

type OrderRow = AllOrdersQuery['orders']['items'][number];

const filters: { value: '' | OrderStatus; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'UNPAID', label: 'Unpaid' },
  { value: 'EXPIRED', label: 'Expired' },
  { value: 'PAID', label: 'Paid' },
  { value: 'SHIPPED', label: 'Shipped' },
  { value: 'AWAITING_APPROVAL', label: 'Awaiting approval' },
  { value: 'DECLINED', label: 'Declined' },
];

const statuses: readonly OrderStatus[] = ['UNPAID', 'EXPIRED', 'PAID', 'SHIPPED', 'AWAITING_APPROVAL', 'DECLINED'];
const asStatus = (value: string): OrderStatus | null => statuses.find((s) => s === value) ?? null;

/**
 * Every order (admin), each with its short number and date, filtered by status. The status is a badge
 * (Pending, Expired, Paid, Shipped), never a button; unpaid orders may be deleted (their stock goes back), and
 * so may expired ones (not paid in time, their stock already back); a paid one is shipped with "Mark shipped"
 * after a confirmation naming the order, which the server saves (the spec's local-only toggle, done properly).
 */
export default function ManageOrdersPage() {
  const list = useListParams(adminPageSize);
  const { offset, limit, filter, setFilter } = list;
  const status = asStatus(filter('status'));
  const query = useAllOrdersQuery({
    variables: { status, offset, limit },
    ...adminQueryOptions,
  });
  const { data, refetch } = query;
  const total = data?.orders.total;

  const [cancelOrder, { loading: deleting }] = useCancelOrderMutation();
  const [markShipped, { loading: shipping }] = useMarkOrderShippedMutation();
  // Shipping is asked for first, naming the order: it cannot be undone.
  const [toShip, setToShip] = useState<OrderRow | null>(null);

  const ship = async (order: OrderRow) => {
    try {
      // The answer carries the order's new status; Apollo's cache updates the row from it.
      await markShipped({ variables: { id: order.id } });
      toast.success('Order marked as shipped.');
      setToShip(null);
      await refetch();
    } catch (e) {
      toast.error(errorMessage(e));
    }
  };

  const { setToDelete, dialog: deleteDialog } = useConfirmedDelete<OrderRow>({
    typename: 'Order',
    remove: (id, update) => cancelOrder({ variables: { id }, update }),
    success: 'Order deleted.',
    refetch,
    title: 'Are you sure you want to delete this order?',
    describe: (row) =>
      row.status === 'DECLINED'
        ? `The declined order ${orderNumber(row.id)} of ${row.email} for ${row.orderAmount} × ${row.partName} is deleted (its stock went back when it was declined).`
        : row.status === 'EXPIRED'
          ? `The expired order ${orderNumber(row.id)} of ${row.email} for ${row.orderAmount} × ${row.partName} is deleted (its stock went back when it expired).`
          : `The unpaid order ${orderNumber(row.id)} of ${row.email} for ${row.orderAmount} × ${row.partName} is deleted and its stock given back.`,
    busy: deleting,
  });

  const rows = data?.orders.items ?? [];

  return (
    <AdminList
      title="Manage All Orders"
      total={total}
      tools={
        // Seven statuses: on a phone they wrap onto a second line rather than run off the screen.
        <div className="flex flex-wrap gap-1" role="group" aria-label="Filter by status">
          {filters.map((f) => (
            <button
              key={f.label}
              type="button"
              aria-pressed={(status ?? '') === f.value}
              className={`btn btn-sm ${(status ?? '') === f.value ? 'btn-primary' : ''}`}
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
      dialog={
        <>
          {deleteDialog}
          <ConfirmModal
            open={toShip !== null}
            title="Mark this order shipped?"
            body={
              toShip && (
                <>
                  <p className="font-semibold">
                    Order {orderNumber(toShip.id)} of {orderDate(toShip.createdAt)}: {toShip.orderAmount} ×{' '}
                    {toShip.partName} for {toShip.email}, paid {formatDollars(toShip.price)}.
                  </p>
                  <p>The customer sees it as Shipped. This cannot be undone.</p>
                </>
              )
            }
            confirmLabel="Mark shipped"
            tone="primary"
            busy={shipping}
            onConfirm={() => toShip && void ship(toShip)}
            onClose={() => setToShip(null)}
          />
        </>
      }
    >
      <AdminTable>
        <thead>
          <tr>
            <th>#</th>
            <th>Order</th>
            <th>Part</th>
            <th>Email</th>
            <th className="text-right">Amount</th>
            <th className="text-right">Total</th>
            <th>Status</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((order, i) => (
            <tr key={order.id} data-testid="order-row">
              <RowHeader>{offset + i + 1}</RowHeader>
              <Cell label="Order">
                <span className="flex flex-col md:items-start">
                  <span className="font-mono text-sm font-semibold">{orderNumber(order.id)}</span>
                  <time dateTime={order.createdAt} className="text-xs whitespace-nowrap text-base-content/80">
                    {orderDate(order.createdAt)}
                  </time>
                </span>
              </Cell>
              <Cell label="Part" className="md:min-w-44" title={order.partName}>
                {truncate(order.partName, truncation.orderTableName)}
              </Cell>
              <Cell label="Email" className="max-md:[overflow-wrap:anywhere]">
                {order.email}
              </Cell>
              <Cell label="Amount" className="text-right">
                {order.orderAmount}
              </Cell>
              <Cell label="Total" className="text-right">
                {formatDollars(order.price)}
              </Cell>
              <Cell label="Status">
                <span
                  className="flex flex-col items-end gap-1 md:items-start"
                  title={order.transactionId ? `Transaction ${order.transactionId}` : undefined}
                >
                  <OrderStatusBadge status={order.status} />
                  <PaymentAftermath price={order.price} refundedAmount={order.refundedAmount} dispute={order.dispute} />
                </span>
              </Cell>
              <Cell label="">
                <span className="ml-auto flex justify-end">
                  {order.status === 'PAID' ? (
                    <button type="button" className="btn btn-primary btn-sm" onClick={() => setToShip(order)}>
                      Mark shipped
                    </button>
                  ) : order.status === 'UNPAID' || order.status === 'EXPIRED' || order.status === 'DECLINED' ? (
                    <button type="button" className="btn btn-error btn-sm" onClick={() => setToDelete(order)}>
                      Delete
                    </button>
                  ) : null}
                </span>
              </Cell>
            </tr>
          ))}
        </tbody>
      </AdminTable>
    </AdminList>
  );
}
