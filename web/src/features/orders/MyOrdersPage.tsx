import { formatDollars, truncate, truncation } from '@partsyard/common';
import { useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { Link } from 'react-router-dom';
import { ConfirmModal } from '../../components/ConfirmModal';
import { Spinner } from '../../components/Spinner';
import { useCancelOrderMutation, useMyOrdersQuery, type MyOrdersQuery } from '../../generated/graphql';
import { errorMessage } from '../../lib/apollo';
import { formatPayBy, useRefetchAtDeadlines } from '../../lib/payBy';

type Order = MyOrdersQuery['myOrders']['items'][number];

/**
 * Payment Status: Paid once a verified payment is recorded; Pending with the time to pay by while the order
 * holds its stock; Expired once that time passed unpaid (its stock went back on sale).
 */
function PaymentStatus({ order }: { order: Order }) {
  if (order.paid) return <span className="badge badge-success whitespace-nowrap">Paid</span>;
  if (order.status === 'EXPIRED') {
    return (
      <div className="flex flex-col items-start gap-1">
        <span className="badge badge-neutral whitespace-nowrap">Expired</span>
        {order.expiresAt && (
          <span className="text-xs whitespace-nowrap text-base-content/70">
            Not paid by {formatPayBy(order.expiresAt)}
          </span>
        )}
      </div>
    );
  }
  return (
    <div className="flex flex-col items-start gap-1">
      <span className="badge badge-warning whitespace-nowrap">Pending</span>
      {order.expiresAt && (
        <span className="text-xs whitespace-nowrap" data-testid="pay-by">
          Pay by <time dateTime={order.expiresAt}>{formatPayBy(order.expiresAt)}</time>
        </span>
      )}
    </div>
  );
}

/**
 * The signed-in customer's orders (spec "My Orders"): pay or cancel unpaid ones before their "Pay by" time,
 * see paid ones' transactions, delete expired ones. The list refreshes itself when a Pay by time passes.
 */
export default function MyOrdersPage() {
  const { data, loading, error, refetch } = useMyOrdersQuery({ fetchPolicy: 'cache-and-network' });
  const pending = (data?.myOrders.items ?? []).filter((o) => o.status === 'UNPAID' && o.expiresAt);
  useRefetchAtDeadlines(
    pending.map((o) => o.expiresAt ?? ''),
    refetch,
  );
  const [cancelOrder, { loading: cancelling }] = useCancelOrderMutation();
  const [toCancel, setToCancel] = useState<Order | null>(null);

  const confirmCancel = async () => {
    if (!toCancel) return;
    try {
      await cancelOrder({ variables: { id: toCancel.id } });
      toast.success(toCancel.status === 'EXPIRED' ? 'Order deleted.' : 'Order cancelled.');
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
        <div className="overflow-x-auto rounded-box border border-base-300 bg-base-100">
          <table className="table table-zebra">
            <thead>
              <tr>
                <th>#</th>
                <th>Part</th>
                <th>Payment Status</th>
                <th>Transaction</th>
                <th className="text-right">Amount</th>
                <th className="text-right">Total</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((order, index) => (
                <tr key={order.id} data-testid="order-row">
                  <th>{index + 1}</th>
                  <td className="min-w-40" title={order.partName}>
                    {truncate(order.partName, truncation.orderTableName)}
                  </td>
                  <td>
                    <PaymentStatus order={order} />
                  </td>
                  <td>
                    {order.paid ? (
                      <span className="font-mono text-xs break-all" data-testid="transaction-id">
                        {order.transactionId}
                      </span>
                    ) : order.status === 'EXPIRED' ? (
                      <button
                        type="button"
                        className="btn btn-outline btn-xs"
                        title="Its stock went back on sale: order again from the part's page"
                        onClick={() => setToCancel(order)}
                      >
                        Delete
                      </button>
                    ) : (
                      <div className="flex flex-nowrap gap-2">
                        <Link to={`/payment/${order.id}`} className="btn btn-primary btn-xs">
                          Pay now
                        </Link>
                        <button
                          type="button"
                          className="btn btn-outline btn-error btn-xs"
                          onClick={() => setToCancel(order)}
                        >
                          Cancel
                        </button>
                      </div>
                    )}
                  </td>
                  <td className="text-right">{order.orderAmount}</td>
                  <td className="text-right whitespace-nowrap">{formatDollars(order.price)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmModal
        open={toCancel !== null}
        title="Are you sure you want to delete this order"
        body="You lose all your order data, this process is irreversible."
        confirmLabel="Delete"
        busy={cancelling}
        onConfirm={() => void confirmCancel()}
        onClose={() => setToCancel(null)}
      />
    </section>
  );
}
