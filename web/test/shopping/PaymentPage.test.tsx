import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useClientSettings } from '../../src/lib/clientSettings';
import { useAuth } from '../../src/lib/auth';
import PaymentPage from '../../src/features/payments/PaymentPage';
import {
  ConfirmPaymentDocument,
  CreatePaymentIntentDocument,
  OrderDocument,
  PayWithTestCardDocument,
} from '../../src/generated/graphql';
import { formatPayBy } from '../../src/lib/payBy';
import { customer, order, renderShopping, signedInAs } from './renderShopping';

jest.mock('../../src/lib/auth', () => ({ useAuth: jest.fn() }));
jest.mock('../../src/lib/clientSettings', () => ({ useClientSettings: jest.fn() }));

const unpaid = order({ id: 'order-1' });
const intent = {
  __typename: 'PaymentIntent' as const,
  id: 'pi_test_123',
  clientSecret: 'pi_test_123_secret_x',
  amount: 490,
  currency: 'usd',
};

const orderAnswer = (o = unpaid) => ({
  request: { query: OrderDocument, variables: { id: o.id } },
  result: { data: { order: o } },
});
const intentAnswer = () => ({
  request: { query: CreatePaymentIntentDocument, variables: { orderId: 'order-1' } },
  result: { data: { createPaymentIntent: intent } },
});
const cardAnswer = (number: string, error: string | null) => ({
  request: {
    query: PayWithTestCardDocument,
    variables: { paymentIntentId: intent.id, card: { number, expMonth: 12, expYear: 2034, cvc: '123' } },
  },
  result: {
    data: {
      payWithTestCard: { __typename: 'CardPaymentResult', succeeded: !error, paymentIntentId: intent.id, error },
    },
  },
});

const renderPayment = (mocks: Parameters<typeof renderShopping>[1], id = 'order-1') =>
  renderShopping(<PaymentPage />, mocks, '/payment/:orderId', `/payment/${id}`);

async function payWith(number: string) {
  await userEvent.type(await screen.findByLabelText('Card number'), number);
  await userEvent.type(screen.getByLabelText('Expiry (MM/YY)'), '1234');
  await userEvent.type(screen.getByLabelText('CVC'), '123');
  await userEvent.click(screen.getByRole('button', { name: /^Pay / }));
}

beforeEach(() => {
  jest.mocked(useAuth).mockReturnValue(signedInAs(customer) as unknown as ReturnType<typeof useAuth>);
  jest.mocked(useClientSettings).mockReturnValue({
    demoMode: true,
    firebase: { apiKey: 'k', authDomain: 'd', projectId: 'p', emulatorUrl: null },
    payments: { mode: 'TEST', publishableKey: null },
  });
});

describe('Payment page', () => {
  it('is titled Payment Now, sums up the order and marks the card form as test mode', async () => {
    renderPayment([orderAnswer()]);
    expect(await screen.findByRole('heading', { name: 'Payment Now' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: unpaid.partName })).toBeInTheDocument();
    expect(screen.getByTestId('order-total')).toHaveTextContent('$490.00');
    expect(screen.getByText('Test mode — use 4242 4242 4242 4242')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay $490.00' })).toBeInTheDocument();
  });

  it("a declined card shows the provider's message as red text under the form", async () => {
    renderPayment([orderAnswer(), intentAnswer(), cardAnswer('4000000000000002', 'Your card was declined.')]);
    await payWith('4000000000000002');
    const error = await screen.findByText('Your card was declined.');
    expect(error).toHaveClass('text-red-600');
    expect(screen.queryByText(/Congrats!/)).not.toBeInTheDocument();
  });

  it("a good card is charged, confirmed with the server, and shows 'Congrats! ... TxID: {id}'", async () => {
    renderPayment([
      orderAnswer(),
      intentAnswer(),
      cardAnswer('4242424242424242', null),
      {
        request: { query: ConfirmPaymentDocument, variables: { orderId: 'order-1', paymentIntentId: intent.id } },
        result: { data: { confirmPayment: { ...unpaid, paid: true, status: 'PAID', transactionId: intent.id } } },
      },
    ]);
    await payWith('4242424242424242');
    expect(await screen.findByText('Congrats! Your payment is completed. TxID: pi_test_123')).toBeInTheDocument();
    expect(screen.queryByLabelText('Card number')).not.toBeInTheDocument();
  });

  it('an incomplete card is not sent', async () => {
    renderPayment([orderAnswer()]);
    await userEvent.type(await screen.findByLabelText('Card number'), '4242');
    await userEvent.click(screen.getByRole('button', { name: /^Pay / }));
    expect(await screen.findByText('Your card number is incomplete.')).toHaveClass('text-red-600');
  });

  it('an already paid order shows its transaction id instead of the form', async () => {
    const paid = order({ id: 'order-1', paid: true, status: 'PAID', transactionId: 'pi_test_paid' });
    renderPayment([orderAnswer(paid)]);
    expect(await screen.findByText('pi_test_paid')).toBeInTheDocument();
    expect(screen.getByText('This order is already paid.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Card number')).not.toBeInTheDocument();
  });

  it('an unpaid order shows the time to pay by', async () => {
    renderPayment([orderAnswer()]);
    const payBy = await screen.findByTestId('pay-by');
    expect(payBy).toHaveAttribute('datetime', unpaid.expiresAt);
    expect(payBy).toHaveTextContent(formatPayBy(unpaid.expiresAt ?? ''));
  });

  it('an expired order says so, offers to order again, and shows no card form', async () => {
    const expired = order({ id: 'order-1', status: 'EXPIRED', expiresAt: '2026-01-01T01:00:00.000Z' });
    renderPayment([orderAnswer(expired)]);
    expect(await screen.findByText('This order expired before it was paid.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Order again' })).toHaveAttribute('href', `/purchase/${expired.partId}`);
    expect(screen.queryByLabelText('Card number')).not.toBeInTheDocument();
    expect(screen.queryByTestId('pay-by')).not.toBeInTheDocument();
  });

  it('an order that is not found (or not yours) says so', async () => {
    renderPayment([{ request: { query: OrderDocument, variables: { id: 'nope' } }, error: new Error('x') }], 'nope');
    expect(await screen.findByText('Order not found')).toBeInTheDocument();
  });
});
