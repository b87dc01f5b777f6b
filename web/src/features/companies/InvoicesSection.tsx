import { AdminPagination } from '../../components/AdminPagination';
import { formatDollars } from '@partsyard/common';
import { Formik } from 'formik';
import { useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { BusyButton } from '../../components/BusyButton';
import { FormField, ShopForm } from '../../components/form/ShopForm';
import { Cell, StackedTable } from '../../components/StackedTable';
import {
  useCompanyAccountQuery,
  useCompanyInvoicesQuery,
  useRecordInvoicePaymentMutation,
  useSetCompanyTermsMutation,
  type InvoiceRowFragment,
  type InvoiceStatus,
} from '../../generated/invoicing';
import { errorMessage } from '../../lib/apollo';
import { getAccessToken, renewSession } from '../../lib/session';
import { submitted } from './companyForms';
import { dayOf } from './CompanyView';

const pageSize = 20;
const statusLabel: Record<InvoiceStatus, string> = { OPEN: 'Open', OVERDUE: 'Overdue', PAID: 'Paid' };
const statusLook: Record<InvoiceStatus, string> = {
  OPEN: 'badge-info',
  OVERDUE: 'badge-error',
  PAID: 'badge-success',
};

/** The invoice's PDF, fetched with the session's token and saved through the browser. */
async function downloadPdf(invoice: InvoiceRowFragment) {
  const get = () => fetch(invoice.pdfUrl, { headers: { authorization: `Bearer ${getAccessToken() ?? ''}` } });
  let res = await get();
  if (res.status === 401 && (await renewSession()) === 'renewed') res = await get();
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { message?: string };
    throw new Error(body.message ?? `The download failed (${res.status})`);
  }
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `${invoice.reference}.pdf`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="card bg-base-100 shadow-md" aria-label={title}>
      <div className="card-body gap-4 max-sm:px-4">
        <h3 className="card-title">{title}</h3>
        {children}
      </div>
    </section>
  );
}

/** A company's terms and what it owes: read by its members; a shop admin (`manage`) sets them. */
export function AccountSection({ companyId, manage = false }: { companyId: string; manage?: boolean }) {
  const { data, loading } = useCompanyAccountQuery({ variables: { companyId }, fetchPolicy: 'cache-and-network' });
  const [setTerms] = useSetCompanyTermsMutation();
  const account = data?.companyAccount;
  if (loading && !data) return null;
  if (!account && !manage) return null;
  return (
    <Section title="Pay on account">
      {account ? (
        <dl className="grid gap-2 sm:grid-cols-[12rem_1fr]">
          <dt className="font-semibold text-gray-700">Terms</dt>
          <dd>Net {account.termsDays} days</dd>
          <dt className="font-semibold text-gray-700">Credit limit</dt>
          <dd>{formatDollars(account.creditLimit)}</dd>
          <dt className="font-semibold text-gray-700">Owed on open invoices</dt>
          <dd>{formatDollars(account.owed)}</dd>
          <dt className="font-semibold text-gray-700">May still buy on account</dt>
          <dd data-testid="account-available">{formatDollars(account.available)}</dd>
          {account.overdueInvoices > 0 && (
            <>
              <dt className="font-semibold text-red-700">Overdue</dt>
              <dd className="text-red-700">
                {account.overdueInvoices} {account.overdueInvoices === 1 ? 'invoice' : 'invoices'}: no orders on account
                until paid
              </dd>
            </>
          )}
        </dl>
      ) : (
        <p>This company has no terms: its members pay by card.</p>
      )}
      {manage && (
        <Formik
          initialValues={{
            termsDays: account ? String(account.termsDays) : '30',
            creditLimit: account ? String(account.creditLimit) : '',
          }}
          enableReinitialize
          onSubmit={async (values, helpers) => {
            const none = values.termsDays === 'none';
            const ok = await submitted(helpers, () =>
              setTerms({
                variables: {
                  companyId,
                  termsDays: none ? null : Number(values.termsDays),
                  creditLimit: none ? 0 : Number(values.creditLimit),
                },
                refetchQueries: ['CompanyAccount'],
              }),
            );
            if (ok) toast.success(none ? 'Terms taken away.' : 'Terms saved.');
          }}
        >
          {({ isSubmitting, values, handleChange }) => (
            <ShopForm idPrefix="company-terms" className="grid gap-3 sm:grid-cols-2">
              <div className="flex flex-col gap-1">
                <label htmlFor="company-terms-termsDays" className="font-semibold">
                  Terms
                </label>
                <select
                  id="company-terms-termsDays"
                  name="termsDays"
                  className="select w-full"
                  value={values.termsDays}
                  onChange={handleChange}
                >
                  <option value="15">Net 15 days</option>
                  <option value="30">Net 30 days</option>
                  <option value="60">Net 60 days</option>
                  <option value="none">No terms (card only)</option>
                </select>
              </div>
              <FormField name="creditLimit" label="Credit limit in dollars" inputMode="decimal" />
              <BusyButton className="btn btn-primary sm:col-span-2 sm:justify-self-start" busy={isSubmitting}>
                Save terms
              </BusyButton>
            </ShopForm>
          )}
        </Formik>
      )}
    </Section>
  );
}

/** Money received against one invoice (shop admins): part payments up to what is outstanding. */
function PaymentForm({ invoice, onDone }: { invoice: InvoiceRowFragment; onDone: () => void }) {
  const [record] = useRecordInvoicePaymentMutation();
  return (
    <Formik
      initialValues={{
        amount: String(invoice.outstanding),
        receivedOn: new Date().toISOString().slice(0, 10),
        note: '',
      }}
      onSubmit={async (values, helpers) => {
        const ok = await submitted(helpers, () =>
          record({
            variables: {
              invoiceId: invoice.id,
              input: { amount: Number(values.amount), receivedOn: values.receivedOn, note: values.note.trim() },
            },
            refetchQueries: ['CompanyInvoices', 'CompanyAccount'],
          }),
        );
        if (ok) {
          toast.success(`Payment recorded against ${invoice.reference}.`);
          onDone();
        }
      }}
    >
      {({ isSubmitting }) => (
        <ShopForm idPrefix={`payment-${invoice.id}`} className="grid gap-3 sm:grid-cols-3">
          <FormField name="amount" label="Amount in dollars" inputMode="decimal" />
          <FormField name="receivedOn" label="Received on" type="date" />
          <FormField name="note" label="Note (bank reference)" />
          <BusyButton className="btn btn-primary btn-sm sm:col-span-3 sm:justify-self-start" busy={isSubmitting}>
            Record payment
          </BusyButton>
        </ShopForm>
      )}
    </Formik>
  );
}

/**
 * A company's invoices, newest first, with their PDFs: all of them for its company admins and shop admins, a
 * buyer's own for a buyer (the server decides). A shop admin (`manage`) records payments.
 */
export function InvoicesSection({ companyId, manage = false }: { companyId: string; manage?: boolean }) {
  const [status, setStatus] = useState<InvoiceStatus | ''>('');
  const [offset, setOffset] = useState(0);
  const [paying, setPaying] = useState<string | null>(null);
  const [downloading, setDownloading] = useState<string | null>(null);
  const { data, loading, error } = useCompanyInvoicesQuery({
    variables: { companyId, status: status || null, offset, limit: pageSize },
    fetchPolicy: 'cache-and-network',
  });
  const page = data?.companyInvoices;
  const download = async (invoice: InvoiceRowFragment) => {
    setDownloading(invoice.id);
    try {
      await downloadPdf(invoice);
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setDownloading(null);
    }
  };
  return (
    <Section title="Invoices">
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1" htmlFor={`invoices-status-${companyId}`}>
          <span className="font-semibold">Show</span>
          <select
            id={`invoices-status-${companyId}`}
            className="select"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as InvoiceStatus | '');
              setOffset(0);
            }}
          >
            <option value="">All invoices</option>
            <option value="OPEN">Open</option>
            <option value="OVERDUE">Overdue</option>
            <option value="PAID">Paid</option>
          </select>
        </label>
      </div>
      {error && (
        <p role="alert" className="text-red-700">
          {errorMessage(error)}
        </p>
      )}
      {loading && !data ? (
        <span className="loading loading-spinner" aria-label="Loading invoices" />
      ) : !page?.items.length ? (
        <p className="text-base-content/80">No invoices{status ? ` ${statusLabel[status].toLowerCase()}` : ''}.</p>
      ) : (
        <StackedTable>
          <thead>
            <tr>
              <th scope="col">Invoice</th>
              <th scope="col">Ordered by</th>
              <th scope="col">Issued</th>
              <th scope="col">Due</th>
              <th scope="col">Total</th>
              <th scope="col">Outstanding</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((invoice) => (
              <tr key={invoice.id}>
                <Cell label="Invoice" className="font-mono">
                  {invoice.reference}
                </Cell>
                <Cell label="Ordered by" className="[overflow-wrap:anywhere]">
                  {invoice.buyerName}
                </Cell>
                <Cell label="Issued">{dayOf(invoice.issuedAt)}</Cell>
                <Cell label="Due">{dayOf(invoice.dueAt)}</Cell>
                <Cell label="Total">{formatDollars(invoice.total)}</Cell>
                <Cell label="Outstanding">{formatDollars(invoice.outstanding)}</Cell>
                <Cell label="Status">
                  <span className={`badge ${statusLook[invoice.status]}`}>{statusLabel[invoice.status]}</span>
                </Cell>
                <Cell label="">
                  <div className="flex flex-col gap-2">
                    <BusyButton
                      type="button"
                      className="btn btn-outline btn-sm"
                      busy={downloading === invoice.id}
                      onClick={() => void download(invoice)}
                    >
                      Download PDF<span className="sr-only"> of {invoice.reference}</span>
                    </BusyButton>
                    {manage && invoice.status !== 'PAID' && (
                      <button
                        type="button"
                        className="btn btn-outline btn-primary btn-sm"
                        aria-expanded={paying === invoice.id}
                        onClick={() => setPaying((open) => (open === invoice.id ? null : invoice.id))}
                      >
                        Record payment<span className="sr-only"> against {invoice.reference}</span>
                      </button>
                    )}
                    {manage && paying === invoice.id && (
                      <PaymentForm invoice={invoice} onDone={() => setPaying(null)} />
                    )}
                  </div>
                </Cell>
              </tr>
            ))}
          </tbody>
        </StackedTable>
      )}
      {page && (
        <AdminPagination
          page={Math.floor(offset / pageSize) + 1}
          pageSize={pageSize}
          total={page.total}
          onPage={(n) => setOffset((n - 1) * pageSize)}
          label="invoices"
        />
      )}
    </Section>
  );
}
