import { formatDollars, orderNumber } from '@partsyard/common';
import { lazy, Suspense, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useClientSettings } from '../../lib/clientSettings';
import { ShoppingFact, ShoppingPartSummary } from '../../components/ShoppingPartSummary';
import { Spinner } from '../../components/Spinner';
import { useConfirmPaymentMutation, useCreatePaymentIntentMutation, useOrderQuery } from '../../generated/graphql';
import { errorCode, errorMessage } from '../../lib/apollo';
import { formatPayBy, useRefetchAtDeadlines } from '../../lib/payBy';
import { useAuth } from '../../lib/auth';
import type { CardPaymentProps } from './cardPayment';
import TestCardForm from './TestCardForm';
import { dayOf, PayOnAccount, type IssuedInvoice } from './PayOnAccount';

// Stripe Elements (and Stripe.js) are fetched only when the server takes payments through Stripe.
const StripeCardForm = lazy(() => import('./StripeCardForm'));

/** Card payment for one of the customer's orders (spec "Payment page"), titled Payment Now. */
/** What is to be paid, and by when while it is unpaid: the same for one order and for a checkout. */
function TotalAndPayBy({ total, order }: { total: number; order: { status: string; expiresAt?: string | null } }) {
  return (
    <>
      <ShoppingFact label="Total">
        <span className="text-lg text-primary" data-testid="order-total">
          {formatDollars(total)}
        </span>
      </ShoppingFact>
      {order.status === 'UNPAID' && order.expiresAt && (
        <ShoppingFact label="Pay by">
          <time dateTime={order.expiresAt} data-testid="pay-by">
            {formatPayBy(order.expiresAt)}
          </time>
        </ShoppingFact>
      )}
    </>
  );
}

export default function PaymentPage() {
  const { orderId = '' } = useParams();
  const { user } = useAuth();
  const settings = useClientSettings();
  const { data, loading, error, refetch } = useOrderQuery({
    variables: { id: orderId },
    fetchPolicy: 'cache-and-network',
  });
  const [createPaymentIntent] = useCreatePaymentIntentMutation();
  const [confirmPayment] = useConfirmPaymentMutation();
  const [paidTxId, setPaidTxId] = useState<string | null>(null);
  const [invoice, setInvoice] = useState<IssuedInvoice | null>(null);
  const order = data?.order;
  // Still on this page when the Pay by time passes: the order is shown as expired once the server says so.
  const payBy =
    (order?.status === 'UNPAID' || order?.status === 'AWAITING_APPROVAL') && !paidTxId && !invoice
      ? order.expiresAt
      : null;
  useRefetchAtDeadlines(payBy ? [payBy] : [], refetch);

  if ((loading && !data) || !settings) return <Spinner centered />;

  if (!order) {
    const missing = ['NOT_FOUND', 'FORBIDDEN'].includes(errorCode(error) ?? '');
    return (
      <section className="mx-auto flex min-h-[50vh] max-w-lg flex-col items-center justify-center gap-4 p-8 text-center">
        <h1 className="text-3xl font-bold">Order not found</h1>
        <p className="text-gray-600">
          {missing || !error ? 'This order does not exist or is not yours.' : errorMessage(error)}
        </p>
        <Link to="/dashboard/my-orders" className="btn btn-primary">
          My Orders
        </Link>
      </section>
    );
  }

  // An order of a checkout is paid with all the others of it: one payment for the checkout's sum.
  const checkout = order.checkout;
  const due = checkout ? checkout.total : order.price;
  const card: CardPaymentProps = {
    billing: { name: order.name || user?.displayName || '', email: user?.email || order.email },
    amountLabel: formatDollars(due),
    async createIntent() {
      const { data: created } = await createPaymentIntent({ variables: { orderId: order.id } });
      if (!created) throw new Error('The payment could not be started');
      return created.createPaymentIntent;
    },
    async confirm(intentId) {
      const { data: confirmed } = await confirmPayment({ variables: { orderId: order.id, paymentIntentId: intentId } });
      setPaidTxId(confirmed?.confirmPayment.transactionId ?? intentId);
    },
  };

  return (
    <section className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-10">
      <h1 className="text-3xl font-bold text-primary">Payment Now</h1>
      <div className="grid gap-6 md:grid-cols-2">
        {checkout ? (
          <div className="card self-start bg-base-100 shadow-md" data-testid="checkout-summary">
            <div className="card-body gap-2">
              <h2 className="card-title text-xl">
                Checkout {orderNumber(checkout.id)}: {checkout.orders.length}{' '}
                {checkout.orders.length === 1 ? 'part' : 'parts'}
              </h2>
              <p className="text-sm text-gray-700">
                Hello {order.name}, one card payment pays every order of this checkout.
              </p>
              <ul className="flex flex-col divide-y divide-base-200 text-sm" aria-label="Orders of this checkout">
                {checkout.orders.map((o) => (
                  <li key={o.id} className="flex justify-between gap-4 py-1">
                    <span className="[overflow-wrap:anywhere]">
                      {o.orderAmount} × {o.partName}{' '}
                      <span className="text-gray-700">at {formatDollars(o.unitPrice)}</span>
                    </span>
                    <span className="font-semibold whitespace-nowrap">{formatDollars(o.price)}</span>
                  </li>
                ))}
              </ul>
              <TotalAndPayBy total={checkout.total} order={order} />
            </div>
          </div>
        ) : (
          <ShoppingPartSummary image={order.partImage} name={order.partName} className="self-start">
            <p className="text-sm text-gray-600">
              Hello {order.name}, please pay for your order of {order.partName}.
            </p>
            <ShoppingFact label="Order amount">{order.orderAmount}</ShoppingFact>
            <ShoppingFact label="Unit price">{formatDollars(order.unitPrice)}</ShoppingFact>
            <TotalAndPayBy total={order.price} order={order} />
          </ShoppingPartSummary>
        )}

        <div className="card self-start bg-base-100 shadow-md">
          <div className="card-body gap-4">
            <h2 className="card-title">Card details</h2>
            {invoice ? (
              <div role="status" className="flex flex-col gap-3">
                <p className="font-semibold text-green-700" data-testid="on-account-success">
                  {`Paid on account: invoice ${invoice.reference} of ${formatDollars(invoice.total)} is due on ${dayOf(invoice.dueAt)}. It is emailed to you and in My Company.`}
                </p>
                <Link to="/dashboard/company" className="btn btn-outline btn-sm self-start">
                  My Company
                </Link>
              </div>
            ) : paidTxId ? (
              <div role="status" className="flex flex-col gap-3">
                <p className="font-semibold break-all text-green-700" data-testid="payment-success">
                  {`Congrats! Your payment is completed. TxID: ${paidTxId}`}
                </p>
                <Link to="/dashboard/my-orders" className="btn btn-outline btn-sm self-start">
                  Back to My Orders
                </Link>
              </div>
            ) : order.paid ? (
              <div className="flex flex-col gap-3">
                <p className="font-semibold">This order is already paid.</p>
                <p className="text-sm break-all">
                  TxID:{' '}
                  <span className="font-mono" data-testid="transaction-id">
                    {order.transactionId}
                  </span>
                </p>
                <Link to="/dashboard/my-orders" className="btn btn-outline btn-sm self-start">
                  Back to My Orders
                </Link>
              </div>
            ) : order.status === 'AWAITING_APPROVAL' ? (
              <div className="flex flex-col gap-3" data-testid="order-awaiting-approval" role="status">
                <p className="font-semibold">Awaiting your company’s approval</p>
                <p className="text-sm">
                  This order is above your limit per order, so a company admin must approve it before it can be paid. We
                  hold its items
                  {order.expiresAt ? ` until ${formatPayBy(order.expiresAt)}` : ''} and email you when it is approved or
                  declined.
                </p>
                <Link to="/dashboard/my-orders" className="btn btn-outline btn-sm self-start">
                  Back to My Orders
                </Link>
              </div>
            ) : order.status === 'DECLINED' ? (
              <div className="flex flex-col gap-3" data-testid="order-declined">
                <p className="font-semibold">Your company declined this order.</p>
                <p className="text-sm">
                  Nothing was charged and its items went back on sale. Ask your company admin, or order less than your
                  limit.
                </p>
                <Link to="/dashboard/my-orders" className="btn btn-outline btn-sm self-start">
                  Back to My Orders
                </Link>
              </div>
            ) : order.status === 'EXPIRED' ? (
              <div className="flex flex-col gap-3" data-testid="order-expired">
                <p className="font-semibold">This order expired before it was paid.</p>
                <p className="text-sm">
                  Its items went back on sale
                  {order.expiresAt ? ` at ${formatPayBy(order.expiresAt)}` : ''}: place a new order to buy them.
                </p>
                <div className="flex flex-wrap gap-2">
                  {order.partId && (
                    <Link to={`/purchase/${order.partId}`} className="btn btn-primary btn-sm">
                      Order again
                    </Link>
                  )}
                  <Link to="/dashboard/my-orders" className="btn btn-outline btn-sm">
                    Back to My Orders
                  </Link>
                </div>
              </div>
            ) : settings.payments.mode === 'STRIPE' && settings.payments.publishableKey ? (
              <Suspense fallback={<Spinner />}>
                <StripeCardForm publishableKey={settings.payments.publishableKey} {...card} />
              </Suspense>
            ) : (
              <TestCardForm {...card} />
            )}
          </div>
        </div>
        {order.status === 'UNPAID' && !paidTxId && !invoice && (
          <div className="md:col-start-2">
            <PayOnAccount
              orderId={order.id}
              total={due}
              onPaid={(issued) => {
                setInvoice(issued);
                void refetch();
              }}
            />
          </div>
        )}
      </div>
    </section>
  );
}
