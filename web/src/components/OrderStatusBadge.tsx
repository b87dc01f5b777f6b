import { formatDollars } from '@partsyard/common';

/** How each order status shows: a label and colours readable on white (WCAG AA). A badge, never a button. */
const looks: Record<string, { label: string; className: string; title: string }> = {
  UNPAID: { label: 'Pending', className: 'border-amber-300 bg-amber-100 text-amber-900', title: 'Not paid yet' },
  PAID: { label: 'Paid', className: 'border-green-300 bg-green-100 text-green-900', title: 'Paid, not shipped yet' },
  SHIPPED: { label: 'Shipped', className: 'border-sky-300 bg-sky-100 text-sky-900', title: 'Paid and sent out' },
  EXPIRED: {
    label: 'Expired',
    className: 'border-gray-300 bg-gray-200 text-gray-800',
    title: 'Not paid in time: its stock went back on sale',
  },
  AWAITING_APPROVAL: {
    label: 'Awaiting approval',
    className: 'border-violet-300 bg-violet-100 text-violet-900',
    title: 'Above your limit per order: a company admin must approve it before it can be paid',
  },
  DECLINED: {
    label: 'Declined',
    className: 'border-gray-300 bg-gray-200 text-gray-800',
    title: 'Declined by a company admin: its stock went back on sale',
  },
};

/** An order's status as a badge (Pending, Paid, Shipped, Expired, Awaiting approval, Declined). */
export function OrderStatusBadge({ status }: { status: string }) {
  const look = looks[status] ?? { label: status, className: 'border-gray-300 bg-gray-100 text-gray-800', title: '' };
  return (
    <span className={`badge whitespace-nowrap ${look.className}`} title={look.title || undefined}>
      {look.label}
    </span>
  );
}

/** When an order was placed, as a date (Nov 23, 2026). */
export const orderDate = (iso: string): string =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

/** What the words of a dispute's state are, for the customer and the admin alike. */
const disputeWords: Record<string, string> = {
  OPEN: 'Payment disputed at the bank',
  WON: 'Dispute closed: the payment stands',
  LOST: 'Dispute closed: the bank returned the payment',
};

/**
 * What happened to an order's payment after it was made, under its status badge: a refund (made in Stripe's
 * dashboard, say), in full or its amount, and a dispute (chargeback) and its outcome. Nothing when neither.
 */
export function PaymentAftermath({
  price,
  refundedAmount,
  dispute,
}: {
  price: number;
  refundedAmount: number;
  dispute?: string | null;
}) {
  if (!refundedAmount && !dispute) return null;
  return (
    <span className="flex flex-col text-xs font-semibold text-red-800" data-testid="payment-aftermath">
      {refundedAmount > 0 && (
        <span>{refundedAmount >= price ? 'Refunded in full' : `Refunded ${formatDollars(refundedAmount)}`}</span>
      )}
      {dispute && <span>{disputeWords[dispute] ?? 'Payment disputed'}</span>}
    </span>
  );
}
