import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import MyOrdersPage from '../../src/features/orders/MyOrdersPage';
import PaymentPage from '../../src/features/payments/PaymentPage';
import { CancelOrderDocument, MyOrdersDocument, OrderDocument } from '../../src/generated/graphql';
import { useAuth } from '../../src/lib/auth';
import { useClientSettings } from '../../src/lib/clientSettings';
import { customer, order, polyfillDialog, renderShopping, signedInAs } from '../shopping/renderShopping';

jest.mock('../../src/lib/auth', () => ({
  ...jest.requireActual<typeof import('../../src/lib/auth')>('../../src/lib/auth'),
  useAuth: jest.fn(),
  useOptionalAuth: jest.fn(() => null),
}));
jest.mock('../../src/lib/clientSettings', () => ({ useClientSettings: jest.fn() }));

/** A buyer's order above their limit (issue 35 point 2), and one their company declined. */
const waiting = order({ id: 'order-waiting', partName: 'Rear shock', status: 'AWAITING_APPROVAL' });
const declined = order({ id: 'order-declined', partName: 'Front fork', status: 'DECLINED' });

const ordersAnswer = (items: ReturnType<typeof order>[]) => ({
  request: { query: MyOrdersDocument, variables: { offset: 0, limit: 20 } },
  result: { data: { myOrders: { __typename: 'OrderPage', items, total: items.length } } },
});
const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr') as HTMLElement;

beforeAll(polyfillDialog);
beforeEach(() => {
  jest.mocked(useAuth).mockReturnValue(signedInAs(customer) as unknown as ReturnType<typeof useAuth>);
  jest.mocked(useClientSettings).mockReturnValue({
    demoMode: true,
    firebase: { apiKey: 'k', authDomain: 'd', projectId: 'p', emulatorUrl: null },
    payments: { mode: 'TEST', publishableKey: null },
  });
});

describe("a buyer's order awaiting approval", () => {
  it('My Orders shows Awaiting approval with the decide-by time instead of Pay now; Declined can be deleted', async () => {
    renderShopping(<MyOrdersPage />, [ordersAnswer([waiting, declined])], '/dashboard/my-orders');
    const row = await rowOf('Rear shock');
    expect(within(row).getByText('Awaiting approval')).toBeInTheDocument();
    expect(within(row).getByTestId('awaiting-approval')).toHaveTextContent('Above your limit: your company decides by');
    expect(within(row).getByText('You can pay once it is approved.')).toBeInTheDocument();
    expect(within(row).queryByRole('link', { name: /Pay now/ })).toBeNull();
    expect(within(row).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    const gone = await rowOf('Front fork');
    expect(within(gone).getByText('Declined')).toBeInTheDocument();
    expect(within(gone).queryByRole('link', { name: /Pay now/ })).toBeNull();
    expect(within(gone).getByRole('button', { name: 'Delete' })).toBeInTheDocument();
  });

  it('the buyer may cancel it: the dialog says the items go back and no one need decide', async () => {
    renderShopping(
      <MyOrdersPage />,
      [
        ordersAnswer([waiting]),
        {
          request: { query: CancelOrderDocument, variables: { id: 'order-waiting' } },
          result: { data: { cancelOrder: 'order-waiting' } },
        },
        ordersAnswer([]),
      ],
      '/dashboard/my-orders',
    );
    await userEvent.click(within(await rowOf('Rear shock')).getByRole('button', { name: 'Cancel' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('Cancel this order awaiting approval?');
    expect(dialog).toHaveTextContent('Its items go back on sale and your company no longer needs to decide on it.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByText('Order cancelled.')).toBeInTheDocument();
  });

  it('the payment page says it awaits approval, with no card form', async () => {
    renderShopping(
      <PaymentPage />,
      [{ request: { query: OrderDocument, variables: { id: waiting.id } }, result: { data: { order: waiting } } }],
      '/payment/:orderId',
      `/payment/${waiting.id}`,
    );
    const status = await screen.findByTestId('order-awaiting-approval');
    expect(status).toHaveTextContent('Awaiting your company’s approval');
    expect(status).toHaveTextContent('a company admin must approve it before it can be paid');
    expect(screen.queryByLabelText('Card number')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Pay / })).toBeNull();
  });

  it('the payment page of a declined order says so, with no card form', async () => {
    renderShopping(
      <PaymentPage />,
      [{ request: { query: OrderDocument, variables: { id: declined.id } }, result: { data: { order: declined } } }],
      '/payment/:orderId',
      `/payment/${declined.id}`,
    );
    expect(await screen.findByTestId('order-declined')).toHaveTextContent('Your company declined this order.');
    expect(screen.queryByLabelText('Card number')).toBeNull();
  });
});
