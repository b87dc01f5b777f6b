import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { useClientSettings } from '../../src/lib/clientSettings';
import { useAuth } from '../../src/lib/auth';
import PaymentPage from '../../src/features/payments/PaymentPage';
import { ConfirmPaymentDocument, CreatePaymentIntentDocument, OrderDocument } from '../../src/generated/graphql';
import { customer, order, renderShopping, signedInAs } from './renderShopping';

/** In STRIPE mode the page pays through Stripe Elements; Stripe.js itself is replaced here. */
const confirmCardPayment = jest.fn();
const loadStripe = jest.fn((_key: string) => Promise.resolve({ confirmCardPayment }));

jest.mock('../../src/lib/auth', () => ({ useAuth: jest.fn() }));
jest.mock('../../src/lib/clientSettings', () => ({ useClientSettings: jest.fn() }));
jest.mock('@stripe/stripe-js/pure', () => ({ loadStripe: (key: string) => loadStripe(key) }));
jest.mock('@stripe/react-stripe-js', () => ({
  Elements: ({ children }: { children: ReactNode }) => <>{children}</>,
  CardElement: () => <div data-testid="stripe-card-element" />,
  useStripe: () => ({ confirmCardPayment }),
  useElements: () => ({ getElement: () => ({ card: true }) }),
}));

const unpaid = order({ id: 'order-1' });
const intent = {
  __typename: 'PaymentIntent' as const,
  id: 'pi_3Stripe',
  clientSecret: 'pi_3Stripe_secret_x',
  amount: 490,
  currency: 'usd',
};
const answers = () => [
  { request: { query: OrderDocument, variables: { id: unpaid.id } }, result: { data: { order: unpaid } } },
  {
    request: { query: CreatePaymentIntentDocument, variables: { orderId: unpaid.id } },
    result: { data: { createPaymentIntent: intent } },
  },
];

beforeEach(() => {
  confirmCardPayment.mockReset();
  loadStripe.mockClear();
  jest.mocked(useAuth).mockReturnValue(signedInAs(customer) as unknown as ReturnType<typeof useAuth>);
  jest.mocked(useClientSettings).mockReturnValue({
    demoMode: false,
    firebase: { apiKey: 'k', authDomain: 'd', projectId: 'p', emulatorUrl: null },
    payments: { mode: 'STRIPE', publishableKey: 'pk_test_123' },
  });
});

describe('Payment page in Stripe mode', () => {
  it("uses Stripe Elements with the server's publishable key, not the test card form", async () => {
    renderShopping(<PaymentPage />, answers(), '/payment/:orderId', '/payment/order-1');
    expect(await screen.findByTestId('stripe-card-element')).toBeInTheDocument();
    expect(screen.queryByLabelText('Card number')).not.toBeInTheDocument();
    expect(loadStripe).toHaveBeenCalledWith('pk_test_123');
  });

  it("shows Stripe's error in red under the card form", async () => {
    confirmCardPayment.mockResolvedValue({ error: { message: 'Your card has insufficient funds.' } });
    renderShopping(<PaymentPage />, answers(), '/payment/:orderId', '/payment/order-1');
    await userEvent.click(await screen.findByRole('button', { name: /^Pay / }));
    const error = await screen.findByText('Your card has insufficient funds.');
    expect(error).toHaveClass('text-red-600');
    expect(confirmCardPayment).toHaveBeenCalledWith(intent.clientSecret, {
      payment_method: { card: { card: true }, billing_details: { name: customer.displayName, email: customer.email } },
    });
  });

  it('confirms a succeeded payment with the server and shows the transaction id', async () => {
    confirmCardPayment.mockResolvedValue({ paymentIntent: { id: intent.id, status: 'succeeded' } });
    const paid = { ...unpaid, paid: true, status: 'PAID' as const, transactionId: intent.id };
    renderShopping(
      <PaymentPage />,
      [
        ...answers(),
        {
          request: { query: ConfirmPaymentDocument, variables: { orderId: unpaid.id, paymentIntentId: intent.id } },
          result: { data: { confirmPayment: paid } },
        },
      ],
      '/payment/:orderId',
      '/payment/order-1',
    );
    await userEvent.click(await screen.findByRole('button', { name: /^Pay / }));
    expect(await screen.findByText(`Congrats! Your payment is completed. TxID: ${intent.id}`)).toBeInTheDocument();
  });
});
