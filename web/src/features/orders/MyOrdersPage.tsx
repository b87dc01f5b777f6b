import { formatDollars, orderNumber, truncate, truncation } from '@partsyard/common';
import { Fragment, useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { Link } from 'react-router-dom';
import { ConfirmModal } from '../../components/ConfirmModal';
import { AddToListButton } from '../../components/lists/AddToList';
import { OrderAgainButton, OrderAgainRefusal, useOrderAgain, type PastOrder } from '../../components/lists/OrderAgain';
import { OrderStatusBadge, PaymentAftermath, orderDate } from '../../components/OrderStatusBadge';
import { Spinner } from '../../components/Spinner';
import { Cell, RowHeader, StackedTable } from '../../components/StackedTable';
import { useCancelOrderMutation, useMyOrdersQuery, type MyOrdersQuery } from '../../generated/graphql';
import { AdminPagination as Pagination } from '../../components/AdminPagination';
import { errorMessage } from '../../lib/apollo';
import { useListParams, useStayInRange } from '../../lib/useListParams';
import { formatPayBy, useRefetchAtDeadlines } from '../../lib/payBy';

type Order = MyOrdersQuery['myOrders']['items'][number];

/** Orders per page of My Orders (the page number is in the address, `?page=2`). */
export const myOrdersPageSize = 20;

/**
 * The row above the orders of one checkout (issue 14): its number, how many parts, the sum one payment pays,
 * and where they stand together.
 */
function CheckoutHeading({
  orders,
  orderingAgain,
  onOrderAgain,
}: {
  orders: Order[];
  orderingAgain: string | null;
  onOrderAgain: (from: PastOrder, label: string) => void;
}) {
  const total = orders.reduce((sum, o) => sum + Math.round(o.price * 100), 0) / 100;
  const id = orders[0].checkoutId ?? '';
  const label = `Checkout ${orderNumber(id)}`;
  return (
    <tr className="bg-base-200" data-testid="checkout-group">
      <th colSpan={orders.length > 1 ? 6 : 8} scope="rowgroup" className="text-left font-semibold">
        Checkout {orderNumber(id)}: {orders.length} {orders.length === 1 ? 'part' : 'parts'}, {formatDollars(total)}{' '}
        {orders.every((o) => o.paid)
          ? '· paid with one payment'
          : orders.some((o) => o.status === 'AWAITING_APPROVAL')
            ? '· awaiting your company’s approval'
            : orders.some((o) => o.status === 'UNPAID')
              ? '· paid together with one payment'
              : ''}
      </th>
      {orders.length > 1 && (
        // Every order of the checkout back into the cart at once (issue 34 point 2).
        <td colSpan={2}>
          <span className="flex flex-wrap gap-2">
            <OrderAgainButton
              from={{ checkoutId: id }}
              label={label}
              busy={orderingAgain === id}
              onOrderAgain={onOrderAgain}
            >
              Order the whole checkout again
            </OrderAgainButton>
            <AddToListButton
              source={{ kind: 'order', from: { checkoutId: id }, label: `The ${orders.length} parts of ${label}` }}
              what={`: the whole checkout ${orderNumber(id)}`}
            />
          </span>
        </td>
      )}
    </tr>
  );
}

/** An order whose stock already went back (expired, or declined by the company): it can only be deleted. */
const deletesOnly = (status: string) => status === 'EXPIRED' || status === 'DECLINED';

/**
 * The signed-in customer's orders (spec "My Orders"): each with its short number and date, so identical
 * orders can be told apart, and its status (Pending with the time to pay by, Paid, Shipped, Expired); pay or
 * cancel unpaid ones, see paid ones' transactions, delete expired ones. The list asks again when a Pay by time
 * passes, so an order that expires turns Expired on screen. One card per order on a phone.
 */
export default function MyOrdersPage() {
  const list = useListParams(myOrdersPageSize);
  const { data, loading, error, refetch } = useMyOrdersQuery({
    variables: { offset: list.offset, limit: list.limit },
    fetchPolicy: 'cache-and-network',
  });
  useStayInRange(list.page, list.limit, data?.myOrders.total, list.setPage);
  const pending = (data?.myOrders.items ?? []).filter(
    (o) => (o.status === 'UNPAID' || o.status === 'AWAITING_APPROVAL') && o.expiresAt,
  );
  useRefetchAtDeadlines(
    pending.map((o) => o.expiresAt ?? ''),
    refetch,
  );
  const [cancelOrder, { loading: cancelling }] = useCancelOrderMutation();
  const [toCancel, setToCancel] = useState<Order | null>(null);
  const again = useOrderAgain();

  const confirmCancel = async () => {
    if (!toCancel) return;
    try {
      await cancelOrder({ variables: { id: toCancel.id } });
      toast.success(deletesOnly(toCancel.status) ? 'Order deleted.' : 'Order cancelled.');
      setToCancel(null);
      await refetch();
    } catch (e) {
      toast.error(errorMessage(e));
      setToCancel(null);
    }
  };

  if (loading && !data) return <Spinner centered />;
  if (!data) {
    return (
      <p role="alert" className="text-red-600">
        {errorMessage(error)}
      </p>
    );
  }

  const orders = data.myOrders.items;
  return (
    <section className="flex flex-col gap-4">
      <h2 className="text-2xl font-bold">My Orders</h2>
      {orders.length === 0 ? (
        <div className="flex flex-col items-start gap-3 rounded-box bg-base-200 p-6">
          <p>You haven&apos;t ordered anything yet.</p>
          <Link to="/parts" className="btn btn-primary btn-sm">
            Browse parts
          </Link>
        </div>
      ) : (
        <StackedTable>
          <thead>
            <tr>
              <th>#</th>
              <th>Order</th>
              <th>Part</th>
              <th>Status</th>
              <th>Transaction</th>
              <th className="text-right">Amount</th>
              <th className="text-right">Total</th>
              <th>Order again</th>
            </tr>
          </thead>
          <tbody>
            {orders.map((order, index) => (
              <Fragment key={order.id}>
                {order.checkoutId && orders.findIndex((o) => o.checkoutId === order.checkoutId) === index && (
                  <CheckoutHeading
                    orders={orders.filter((o) => o.checkoutId === order.checkoutId)}
                    orderingAgain={again.busy}
                    onOrderAgain={(from, label) => void again.run(from, label)}
                  />
                )}
                <tr data-testid="order-row" className={order.checkoutId ? 'checkout-line bg-base-200/40' : undefined}>
                  <RowHeader>{list.offset + index + 1}</RowHeader>
                  <Cell label="Order">
                    <span className="flex flex-col md:items-start">
                      <span className="font-mono text-sm font-semibold" data-testid="order-number">
                        {orderNumber(order.id)}
                      </span>
                      <time dateTime={order.createdAt} className="text-xs whitespace-nowrap text-base-content/80">
                        {orderDate(order.createdAt)}
                      </time>
                    </span>
                  </Cell>
                  <Cell label="Part" className="md:min-w-40" title={order.partName}>
                    {truncate(order.partName, truncation.orderTableName)}
                  </Cell>
                  <Cell label="Status">
                    <span className="flex flex-col items-end gap-1 md:items-start">
                      <OrderStatusBadge status={order.status} />
                      <PaymentAftermath
                        price={order.price}
                        refundedAmount={order.refundedAmount}
                        dispute={order.dispute}
                      />
                      {order.status === 'UNPAID' && order.expiresAt && (
                        <span className="text-xs whitespace-nowrap" data-testid="pay-by">
                          Pay by <time dateTime={order.expiresAt}>{formatPayBy(order.expiresAt)}</time>
                        </span>
                      )}
                      {order.status === 'AWAITING_APPROVAL' && order.expiresAt && (
                        <span className="text-xs" data-testid="awaiting-approval">
                          Above your limit: your company decides by{' '}
                          <time dateTime={order.expiresAt}>{formatPayBy(order.expiresAt)}</time>
                        </span>
                      )}
                      {order.status === 'DECLINED' && (
                        <span className="text-xs text-base-content/80">Declined by your company: not charged</span>
                      )}
                      {order.status === 'EXPIRED' && order.expiresAt && (
                        <span className="text-xs whitespace-nowrap text-base-content/80">
                          Not paid by {formatPayBy(order.expiresAt)}
                        </span>
                      )}
                    </span>
                  </Cell>
                  <Cell label="Transaction">
                    {order.paid ? (
                      <span className="font-mono text-xs [overflow-wrap:anywhere]" data-testid="transaction-id">
                        {order.transactionId}
                      </span>
                    ) : order.status === 'AWAITING_APPROVAL' ? (
                      <span className="flex flex-wrap items-center justify-end gap-2 md:justify-start">
                        <span className="text-xs">You can pay once it is approved.</span>
                        <button
                          type="button"
                          className="btn btn-outline btn-error btn-sm"
                          onClick={() => setToCancel(order)}
                        >
                          Cancel
                          {order.checkoutId && <span className="sr-only"> (the whole checkout)</span>}
                        </button>
                      </span>
                    ) : deletesOnly(order.status) ? (
                      <span className="flex justify-end md:justify-start">
                        <button type="button" className="btn btn-outline btn-sm" onClick={() => setToCancel(order)}>
                          Delete
                        </button>
                      </span>
                    ) : (
                      <span className="flex flex-wrap justify-end gap-2 md:justify-start">
                        <Link to={`/payment/${order.id}`} className="btn btn-primary btn-sm">
                          Pay now
                          {order.checkoutId && <span className="sr-only"> (the whole checkout)</span>}
                        </Link>
                        <button
                          type="button"
                          className="btn btn-outline btn-error btn-sm"
                          onClick={() => setToCancel(order)}
                        >
                          Cancel
                        </button>
                      </span>
                    )}
                  </Cell>
                  <Cell label="Amount" className="text-right">
                    {order.orderAmount}
                  </Cell>
                  <Cell label="Total" className="text-right whitespace-nowrap">
                    {formatDollars(order.price)}
                  </Cell>
                  <Cell label="Order again">
                    <span className="flex flex-wrap justify-end gap-2 md:justify-start">
                      <OrderAgainButton
                        from={{ orderId: order.id }}
                        label={`Order ${orderNumber(order.id)}`}
                        what={`${orderNumber(order.id)}: ${order.partName}`}
                        busy={again.busy === order.id}
                        onOrderAgain={(from, label) => void again.run(from, label)}
                      >
                        Order again
                      </OrderAgainButton>
                      <AddToListButton
                        source={{
                          kind: 'order',
                          from: { orderId: order.id },
                          label: `Order ${orderNumber(order.id)} (${order.orderAmount} × ${order.partName})`,
                        }}
                        what={`: order ${orderNumber(order.id)}, ${order.partName}`}
                      />
                    </span>
                  </Cell>
                </tr>
              </Fragment>
            ))}
          </tbody>
        </StackedTable>
      )}
      <Pagination
        page={list.page}
        pageSize={list.limit}
        total={data.myOrders.total}
        onPage={list.setPage}
        label="your orders"
      />
      <OrderAgainRefusal refusal={again.refusal} onClose={again.dismiss} />
      <ConfirmModal
        open={toCancel !== null}
        title={
          toCancel?.status === 'EXPIRED'
            ? 'Delete this expired order?'
            : toCancel?.status === 'DECLINED'
              ? 'Delete this declined order?'
              : toCancel?.status === 'AWAITING_APPROVAL'
                ? 'Cancel this order awaiting approval?'
                : 'Are you sure you want to delete this order'
        }
        body={
          toCancel && (
            <>
              <p className="font-semibold">
                Order {orderNumber(toCancel.id)} of {orderDate(toCancel.createdAt)}: {toCancel.orderAmount} ×{' '}
                {toCancel.partName}, {formatDollars(toCancel.price)}.
              </p>
              <p>
                {toCancel.status === 'EXPIRED'
                  ? 'It was not paid in time and its items went back on sale. It is removed from your orders.'
                  : toCancel.status === 'DECLINED'
                    ? 'Your company declined it and its items went back on sale. It is removed from your orders.'
                    : toCancel.status === 'AWAITING_APPROVAL'
                      ? `Its items go back on sale and your company no longer needs to decide on it.${toCancel.checkoutId ? ' Every order of its checkout is cancelled with it.' : ''}`
                      : 'You lose all your order data, this process is irreversible.'}
              </p>
            </>
          )
        }
        cancelLabel="Keep order"
        confirmLabel={toCancel && deletesOnly(toCancel.status) ? 'Delete order' : 'Cancel order'}
        busy={cancelling}
        onConfirm={() => void confirmCancel()}
        onClose={() => setToCancel(null)}
      />
    </section>
  );
}
