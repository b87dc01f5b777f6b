import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { useClientSettings } from '../../src/lib/clientSettings';
import { useAuth } from '../../src/lib/auth';
import PaymentPage from '../../src/features/payments/PaymentPage';
import { OrderDocument } from '../../src/generated/graphql';
import {
  CompanyAccountDocument,
  PayOnAccountDocument,
  PayOnAccountOptionDocument,
} from '../../src/generated/invoicing';
import { customer, order, renderShopping, signedInAs } from './renderShopping';

jest.mock('../../src/lib/auth', () => ({ useAuth: jest.fn() }));
jest.mock('../../src/lib/clientSettings', () => ({ useClientSettings: jest.fn() }));

const unpaid = order({ id: 'order-1' });
const orderAnswer = () => ({
  request: { query: OrderDocument, variables: { id: unpaid.id } },
  result: { data: { order: unpaid } },
});
const inCompany = (company: { id: string; name: string } | null) => ({
  request: { query: PayOnAccountOptionDocument },
  result: { data: { myCompany: company && { __typename: 'Company', ...company } } },
});
const account = (overrides: Record<string, unknown> = {}) => ({
  request: { query: CompanyAccountDocument, variables: { companyId: 'c1' } },
  result: {
    data: {
      companyAccount: {
        __typename: 'CompanyAccount',
        termsDays: 30,
        creditLimit: 5000,
        owed: 1000,
        available: 4000,
        overdueInvoices: 0,
        ...overrides,
      },
    },
  },
});
const renderPayment = (mocks: Parameters<typeof renderShopping>[1]) =>
  renderShopping(<PaymentPage />, mocks, '/payment/:orderId', '/payment/order-1');

beforeEach(() => {
  jest.mocked(useAuth).mockReturnValue(signedInAs(customer) as unknown as ReturnType<typeof useAuth>);
  jest.mocked(useClientSettings).mockReturnValue({
    demoMode: true,
    firebase: { apiKey: 'k', authDomain: 'd', projectId: 'p', emulatorUrl: null },
    payments: { mode: 'TEST', publishableKey: null },
  });
});

describe('Pay on account on the payment page', () => {
  it('is not offered outside a company', async () => {
    renderPayment([orderAnswer(), inCompany(null)]);
    expect(await screen.findByRole('button', { name: 'Pay $490.00' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Pay on account' })).not.toBeInTheDocument();
  });

  it('a member of a company with terms sees the terms and pays on account: the invoice and its due date show', async () => {
    renderPayment([
      orderAnswer(),
      inCompany({ id: 'c1', name: 'Moto Works Ltd' }),
      account(),
      {
        request: { query: PayOnAccountDocument, variables: { orderId: 'order-1' } },
        result: {
          data: {
            payOnAccount: {
              __typename: 'Invoice',
              id: 'inv1',
              reference: 'INV-000042',
              total: 490,
              dueAt: '2026-12-28T10:00:00.000Z',
            },
          },
        },
      },
      orderAnswer(),
    ]);
    expect(await screen.findByRole('heading', { name: 'Pay on account' })).toBeInTheDocument();
    expect(screen.getByText(/net 30 days/)).toBeInTheDocument();
    expect(screen.getByTestId('on-account-available')).toHaveTextContent('Credit left: $4,000.00 of $5,000.00.');
    await userEvent.click(screen.getByRole('button', { name: 'Pay $490.00 on account' }));
    expect(await screen.findByTestId('on-account-success')).toHaveTextContent(
      /Paid on account: invoice INV-000042 of \$490\.00 is due on/,
    );
    expect(screen.queryByRole('button', { name: 'Pay $490.00' })).not.toBeInTheDocument();
  });

  it("the server's refusal (past the credit limit) shows under the button, tied to it", async () => {
    const refusal =
      'This checkout of $490.00 would take your company past its credit limit of $5,000.00 (it owes $4,800.00 on open invoices, so $200.00 is left): pay by card, or ask your company admin to settle invoices first';
    renderPayment([
      orderAnswer(),
      inCompany({ id: 'c1', name: 'Moto Works Ltd' }),
      account({ owed: 4800, available: 200 }),
      {
        request: { query: PayOnAccountDocument, variables: { orderId: 'order-1' } },
        result: { errors: [new GraphQLError(refusal, { extensions: { code: 'CONFLICT' } })] },
      },
      account({ owed: 4800, available: 200 }),
    ]);
    expect(
      await screen.findByText(/more than the \$200\.00 your company may still buy on account/),
    ).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Pay $490.00 on account' });
    await userEvent.click(button);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(refusal);
    expect(button).toHaveAttribute('aria-describedby', alert.id);
    // The card is still there to pay with.
    expect(screen.getByRole('button', { name: 'Pay $490.00' })).toBeInTheDocument();
  });
});
