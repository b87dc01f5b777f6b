import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import CompanyAdminPage from '../../src/features/companies/CompanyAdminPage';
import { CompanyDocument } from '../../src/generated/companies';
import {
  CompanyAccountDocument,
  CompanyInvoicesDocument,
  RecordInvoicePaymentDocument,
  SetCompanyTermsDocument,
} from '../../src/generated/invoicing';
import { polyfillDialog, renderAdmin } from '../admin/renderAdmin';
import { company } from './fixtures';

const accountOf = (termsDays: number, creditLimit: number, owed = 0) => ({
  __typename: 'CompanyAccount' as const,
  termsDays,
  creditLimit,
  owed,
  available: creditLimit - owed,
  overdueInvoices: 0,
});
const invoice = (overrides: Record<string, unknown> = {}) => ({
  __typename: 'Invoice' as const,
  id: 'inv1',
  reference: 'INV-000007',
  buyerName: 'Ben Buyer',
  issuedAt: '2026-11-01T10:00:00.000Z',
  dueAt: '2026-12-01T10:00:00.000Z',
  total: 125,
  paid: 0,
  outstanding: 125,
  status: 'OPEN',
  pdfUrl: '/api/invoices/inv1.pdf',
  ...overrides,
});
const invoicesAnswer = (items: unknown[]) => ({
  request: { query: CompanyInvoicesDocument, variables: { companyId: 'c1', status: null, offset: 0, limit: 20 } },
  result: { data: { companyInvoices: { __typename: 'InvoicePage', total: items.length, items } } },
});
const accountAnswer = (account: unknown) => ({
  request: { query: CompanyAccountDocument, variables: { companyId: 'c1' } },
  result: { data: { companyAccount: account } },
});

beforeAll(polyfillDialog);

describe("Pay on account on a company's page (shop admins)", () => {
  it('a shop admin grants terms, sees the invoices and records a part payment', async () => {
    renderAdmin(
      <Routes>
        <Route path="/dashboard/companies/:companyId" element={<CompanyAdminPage />} />
      </Routes>,
      [
        {
          request: { query: CompanyDocument, variables: { id: 'c1' } },
          result: { data: { company: company({ myRole: null }) } },
        },
        accountAnswer(null),
        invoicesAnswer([invoice()]),
        {
          request: { query: SetCompanyTermsDocument, variables: { companyId: 'c1', termsDays: 60, creditLimit: 2500 } },
          result: { data: { setCompanyTerms: accountOf(60, 2500) } },
        },
        accountAnswer(accountOf(60, 2500)),
        {
          request: {
            query: RecordInvoicePaymentDocument,
            variables: { invoiceId: 'inv1', input: { amount: 25, receivedOn: '2026-11-20', note: 'Bank 1' } },
          },
          result: { data: { recordInvoicePayment: invoice({ paid: 25, outstanding: 100 }) } },
        },
        invoicesAnswer([invoice({ paid: 25, outstanding: 100 })]),
        accountAnswer(accountOf(60, 2500, 100)),
      ],
      '/dashboard/companies/c1',
    );
    const terms = await screen.findByRole('region', { name: 'Pay on account' });
    expect(within(terms).getByText('This company has no terms: its members pay by card.')).toBeInTheDocument();
    await userEvent.selectOptions(within(terms).getByLabelText('Terms'), '60');
    await userEvent.type(within(terms).getByLabelText('Credit limit in dollars'), '2500');
    await userEvent.click(within(terms).getByRole('button', { name: 'Save terms' }));
    expect(await screen.findByText('Terms saved.')).toBeInTheDocument();
    expect(await within(terms).findByText('Net 60 days', { selector: 'dd' })).toBeInTheDocument();

    const invoices = screen.getByRole('region', { name: 'Invoices' });
    expect(within(invoices).getByText('INV-000007')).toBeInTheDocument();
    expect(within(invoices).getByRole('button', { name: 'Download PDF of INV-000007' })).toBeInTheDocument();
    await userEvent.click(within(invoices).getByRole('button', { name: 'Record payment against INV-000007' }));
    const amount = within(invoices).getByLabelText('Amount in dollars');
    await userEvent.clear(amount);
    await userEvent.type(amount, '25');
    const day = within(invoices).getByLabelText('Received on');
    await userEvent.clear(day);
    await userEvent.type(day, '2026-11-20');
    await userEvent.type(within(invoices).getByLabelText('Note (bank reference)'), 'Bank 1');
    await userEvent.click(within(invoices).getByRole('button', { name: 'Record payment' }));
    expect(await screen.findByText('Payment recorded against INV-000007.')).toBeInTheDocument();
    await waitFor(() => expect(within(invoices).getByText('$100.00')).toBeInTheDocument());
  });
});
