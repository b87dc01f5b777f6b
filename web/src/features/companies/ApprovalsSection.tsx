import { formatDollars, orderNumber } from '@partsyard/common';
import { useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { AdminPagination } from '../../components/AdminPagination';
import { ConfirmModal } from '../../components/ConfirmModal';
import { Spinner } from '../../components/Spinner';
import {
  useApproveCheckoutMutation,
  useCompanyApprovalsQuery,
  useDeclineCheckoutMutation,
  type AwaitingApprovalDetailsFragment,
} from '../../generated/companies';
import { errorMessage } from '../../lib/apollo';
import { formatPayBy } from '../../lib/payBy';

type Awaiting = AwaitingApprovalDetailsFragment;

/** How many checkouts awaiting approval one page shows. */
export const approvalsPageSize = 20;

/**
 * The company's checkouts awaiting approval (its buyers' orders above their limits), newest first: who placed
 * each, its lines and total, and by when to decide; Approve at once, Decline after a confirm. The server decides
 * who gets there first: a decision that came second (another admin, the buyer's cancel, the expiry) is toasted
 * with the server's words and the list is read again.
 */
export function ApprovalsSection({ companyId }: { companyId: string }) {
  const [offset, setOffset] = useState(0);
  const { data, loading, error, refetch } = useCompanyApprovalsQuery({
    variables: { id: companyId, offset, limit: approvalsPageSize },
    fetchPolicy: 'cache-and-network',
  });
  const [approve] = useApproveCheckoutMutation();
  const [decline, { loading: declining }] = useDeclineCheckoutMutation();
  const [busy, setBusy] = useState<string | null>(null);
  const [toDecline, setToDecline] = useState<Awaiting | null>(null);

  const who = (a: Awaiting) => a.buyer.name || a.buyer.email || 'A buyer';
  const decide = async (a: Awaiting, how: 'approve' | 'decline') => {
    setBusy(a.id);
    try {
      if (how === 'approve') await approve({ variables: { id: a.id } });
      else await decline({ variables: { id: a.id } });
      toast.success(
        how === 'approve'
          ? `Approved: ${who(a)} can pay for it now.`
          : `Declined: its parts went back on sale and ${who(a)} is told.`,
      );
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusy(null);
      setToDecline(null);
      await refetch();
    }
  };

  const page = data?.companyApprovals;
  return (
    <section className="card bg-base-100 shadow-md" aria-label="Awaiting approval">
      <div className="card-body gap-4 max-sm:px-4">
        <h3 className="card-title">Awaiting approval</h3>
        {loading && !data ? (
          <Spinner />
        ) : !page ? (
          <p role="alert" className="text-red-700">
            {errorMessage(error)}
          </p>
        ) : page.items.length === 0 ? (
          <p className="text-base-content/80">No orders await your approval.</p>
        ) : (
          <ul className="flex flex-col gap-3" aria-label="Orders awaiting approval">
            {page.items.map((a) => (
              <li key={a.id} className="rounded-box border border-base-300 p-3" data-testid="awaiting-approval">
                <p className="font-semibold [overflow-wrap:anywhere]">
                  {who(a)}: {formatDollars(a.total)}
                  {a.buyer.orderLimit != null && (
                    <span className="font-normal"> (their limit: {formatDollars(a.buyer.orderLimit)})</span>
                  )}
                </p>
                <p className="text-sm">
                  {a.orders.length > 1 ? `Checkout ${orderNumber(a.id)}` : `Order ${orderNumber(a.id)}`}, decide by{' '}
                  <time dateTime={a.expiresAt}>{formatPayBy(a.expiresAt)}</time>
                </p>
                <ul className="mt-2 text-sm" aria-label={`Lines of ${orderNumber(a.id)}`}>
                  {a.orders.map((o) => (
                    <li key={o.id} className="flex justify-between gap-4">
                      <span className="[overflow-wrap:anywhere]">
                        {o.orderAmount} × {o.partName} at {formatDollars(o.unitPrice)}
                      </span>
                      <span className="whitespace-nowrap">{formatDollars(o.price)}</span>
                    </li>
                  ))}
                </ul>
                <div className="mt-3 flex flex-wrap gap-2">
                  <button
                    type="button"
                    className="btn btn-primary btn-sm"
                    disabled={busy === a.id}
                    onClick={() => void decide(a, 'approve')}
                  >
                    Approve
                    <span className="sr-only">
                      {' '}
                      the order of {formatDollars(a.total)} by {who(a)}
                    </span>
                  </button>
                  <button
                    type="button"
                    className="btn btn-outline btn-error btn-sm"
                    disabled={busy === a.id}
                    onClick={() => setToDecline(a)}
                  >
                    Decline
                    <span className="sr-only">
                      {' '}
                      the order of {formatDollars(a.total)} by {who(a)}
                    </span>
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
        {page && (
          <AdminPagination
            page={Math.floor(offset / approvalsPageSize) + 1}
            pageSize={approvalsPageSize}
            total={page.total}
            onPage={(n) => setOffset((n - 1) * approvalsPageSize)}
            label="orders awaiting approval"
          />
        )}
      </div>
      <ConfirmModal
        open={toDecline !== null}
        title="Decline this order?"
        body={
          toDecline
            ? `${who(toDecline)}'s order of ${formatDollars(toDecline.total)} is declined: nothing is charged, its parts go back on sale, and ${who(toDecline)} is emailed.`
            : undefined
        }
        confirmLabel="Decline order"
        cancelLabel="Keep it"
        busy={declining}
        onConfirm={() => {
          if (toDecline) void decide(toDecline, 'decline');
        }}
        onClose={() => setToDecline(null)}
      />
    </section>
  );
}
