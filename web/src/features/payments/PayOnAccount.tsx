import { formatDollars } from '@partsyard/common';
import { useId, useState } from 'react';
import { BusyButton } from '../../components/BusyButton';
import {
  useCompanyAccountQuery,
  usePayOnAccountMutation,
  usePayOnAccountOptionQuery,
  type PayOnAccountMutation,
} from '../../generated/invoicing';
import { errorMessage } from '../../lib/apollo';

/** A date of the API (ISO 8601) as the visitor's locale writes a day. */
export const dayOf = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

export type IssuedInvoice = PayOnAccountMutation['payOnAccount'];

/**
 * "Pay on account" beside the card (issue 35 point 4): shown to a member of a company the shop granted terms. It
 * says the terms and when the invoice would be due, and what the company may still buy on account; the server
 * decides (a limit passed, an overdue invoice: its message shows under the button, nothing changes).
 */
export function PayOnAccount({
  orderId,
  total,
  onPaid,
}: {
  orderId: string;
  total: number;
  onPaid: (invoice: IssuedInvoice) => void;
}) {
  const errorId = useId();
  const option = usePayOnAccountOptionQuery({ fetchPolicy: 'cache-and-network' });
  const companyId = option.data?.myCompany?.id ?? '';
  const { data, refetch } = useCompanyAccountQuery({
    variables: { companyId },
    skip: !companyId,
    fetchPolicy: 'cache-and-network',
  });
  const [pay, { loading }] = usePayOnAccountMutation();
  const [error, setError] = useState<string | null>(null);
  const account = data?.companyAccount;
  if (!companyId || !account) return null;

  const due = new Date(Date.now() + account.termsDays * 86_400_000).toISOString();
  const blocked =
    account.overdueInvoices > 0
      ? `Your company has ${account.overdueInvoices === 1 ? 'an overdue invoice' : `${account.overdueInvoices} overdue invoices`}: no orders on account until it is paid.`
      : total > account.available
        ? `This costs ${formatDollars(total)}, more than the ${formatDollars(account.available)} your company may still buy on account.`
        : null;

  const submit = async () => {
    setError(null);
    try {
      const { data: paid } = await pay({ variables: { orderId } });
      if (paid) onPaid(paid.payOnAccount);
    } catch (e) {
      setError(errorMessage(e));
      await refetch().catch(() => undefined);
    }
  };

  return (
    <section className="card self-start bg-base-100 shadow-md" aria-labelledby={`${errorId}-title`}>
      <div className="card-body gap-3">
        <h2 id={`${errorId}-title`} className="card-title">
          Pay on account
        </h2>
        <p className="text-sm">
          {option.data?.myCompany?.name} pays on an invoice, net {account.termsDays} days: paid now, the invoice is due
          on <strong>{dayOf(due)}</strong>. We ship the parts as soon as it is issued.
        </p>
        <p className="text-sm text-gray-700" data-testid="on-account-available">
          Credit left: {formatDollars(account.available)} of {formatDollars(account.creditLimit)}.
        </p>
        {blocked && <p className="text-sm text-gray-700">{blocked}</p>}
        <BusyButton
          type="button"
          className="btn btn-secondary self-start"
          busy={loading}
          aria-describedby={error ? errorId : undefined}
          onClick={() => void submit()}
        >
          Pay {formatDollars(total)} on account
        </BusyButton>
        {error && (
          <p id={errorId} role="alert" className="text-sm text-red-700" data-testid="on-account-error">
            {error}
          </p>
        )}
      </div>
    </section>
  );
}
