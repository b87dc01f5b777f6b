import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import MyOrdersPage from '../../src/features/orders/MyOrdersPage';
import { CancelOrderDocument, MyOrdersDocument } from '../../src/generated/graphql';
import { formatPayBy } from '../../src/lib/payBy';
import { inTwoHours, order, polyfillDialog, renderShopping } from './renderShopping';

const longName = 'Adjustable Rear Shock Absorber 320 mm with Remote Preload';
const unpaid = order({ id: 'order-unpaid', partName: longName });
const paid = order({
  id: 'order-paid',
  partName: 'Iridium Spark Plug CR9EIX',
  paid: true,
  status: 'PAID',
  transactionId: 'pi_test_abc123',
});

const ordersAnswer = (items: ReturnType<typeof order>[], { offset = 0, total = items.length } = {}) => ({
  request: { query: MyOrdersDocument, variables: { offset, limit: 20 } },
  result: { data: { myOrders: { __typename: 'OrderPage', items, total } } },
});

const renderOrders = (mocks: Parameters<typeof renderShopping>[1], path = '/dashboard/my-orders') =>
  renderShopping(<MyOrdersPage />, mocks, '/dashboard/my-orders', path);

const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr') as HTMLElement;

beforeAll(polyfillDialog);

describe('My Orders', () => {
  it('tells the customer of a refund made at the gateway and of a dispute and its outcome (issue 32)', async () => {
    const refunded = order({ ...paid, id: 'order-refunded', partName: 'Clutch cable', refundedAmount: 490 });
    const partly = order({ ...paid, id: 'order-partly', partName: 'Air filter', refundedAmount: 100 });
    const disputed = order({ ...paid, id: 'order-disputed', partName: 'Chain lube', dispute: 'LOST' });
    renderOrders([ordersAnswer([refunded, partly, disputed, paid])]);
    expect(within(await rowOf('Clutch cable')).getByText('Refunded in full')).toBeInTheDocument();
    expect(within(await rowOf('Air filter')).getByText('Refunded $100.00')).toBeInTheDocument();
    expect(
      within(await rowOf('Chain lube')).getByText('Dispute closed: the bank returned the payment'),
    ).toBeInTheDocument();
    expect(within(await rowOf('Iridium Spark Plug CR9EIX')).queryByTestId('payment-aftermath')).toBeNull();
  });

  it("shows index, the part name cut to 30 characters plus '...', and Pending or Paid badges", async () => {
    renderOrders([ordersAnswer([unpaid, paid])]);
    const first = await rowOf(`${longName.slice(0, 30)}...`);
    expect(within(first).getByText('1')).toBeInTheDocument();
    expect(within(first).getByText('Pending')).toBeInTheDocument();
    const second = await rowOf('Iridium Spark Plug CR9EIX');
    expect(within(second).getByText('2')).toBeInTheDocument();
    expect(within(second).getByText('Paid')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Status' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Transaction' })).toBeInTheDocument();
  });

  it('unpaid orders offer Pay now (to /payment/{id}) and Cancel; paid ones show the transaction id', async () => {
    renderOrders([ordersAnswer([unpaid, paid])]);
    const pending = await rowOf(`${longName.slice(0, 30)}...`);
    expect(within(pending).getByRole('link', { name: 'Pay now' })).toHaveAttribute('href', '/payment/order-unpaid');
    expect(within(pending).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    const done = await rowOf('Iridium Spark Plug CR9EIX');
    expect(within(done).getByText('pi_test_abc123')).toBeInTheDocument();
    expect(within(done).queryByRole('link', { name: 'Pay now' })).not.toBeInTheDocument();
    expect(within(done).queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
  });

  it("Cancel asks first, naming the order; 'Cancel order' cancels, toasts 'Order cancelled.' and refreshes the list", async () => {
    renderOrders([
      ordersAnswer([unpaid, paid]),
      {
        request: { query: CancelOrderDocument, variables: { id: 'order-unpaid' } },
        result: { data: { cancelOrder: 'order-unpaid' } },
      },
      ordersAnswer([paid]),
    ]);
    const pending = await rowOf(`${longName.slice(0, 30)}...`);
    await userEvent.click(within(pending).getByRole('button', { name: 'Cancel' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete this order')).toBeInTheDocument();
    expect(within(dialog).getByText('You lose all your order data, this process is irreversible.')).toBeInTheDocument();
    expect(dialog).toHaveTextContent(`Order #ORDERUNP of Jan 1, 2026: 20 × ${longName}, $490.00.`);
    // No two buttons say Cancel: the dialog keeps the order or cancels it, and keeping it is where focus starts.
    expect(within(dialog).getByRole('button', { name: 'Keep order' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByText('Order cancelled.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(`${longName.slice(0, 30)}...`)).not.toBeInTheDocument());
    expect(screen.getByText('Iridium Spark Plug CR9EIX')).toBeInTheDocument();
  });

  it("a refused cancel toasts the server's message", async () => {
    renderOrders([
      ordersAnswer([unpaid]),
      {
        request: { query: CancelOrderDocument, variables: { id: 'order-unpaid' } },
        result: {
          errors: [new GraphQLError('A paid order cannot be cancelled', { extensions: { code: 'CONFLICT' } })],
        },
      },
    ]);
    const pending = await rowOf(`${longName.slice(0, 30)}...`);
    await userEvent.click(within(pending).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByText('A paid order cannot be cancelled')).toBeInTheDocument();
  });

  it('each order shows its short number and date; a shipped order shows Shipped', async () => {
    const shipped = order({
      id: 'a1b2c3d4-0000-4000-8000-000000000000',
      partName: 'O-Ring Drive Chain',
      paid: true,
      status: 'SHIPPED',
      transactionId: 'pi_test_shipped',
      createdAt: '2026-03-14T10:00:00.000Z',
    });
    renderOrders([ordersAnswer([shipped])]);
    const row = await rowOf('O-Ring Drive Chain');
    expect(within(row).getByText('#A1B2C3D4')).toBeInTheDocument();
    expect(within(row).getByText('Mar 14, 2026')).toHaveAttribute('datetime', shipped.createdAt);
    expect(within(row).getByText('Shipped')).toBeInTheDocument();
  });

  it('an unpaid order shows the time to pay it by; a paid one does not', async () => {
    renderOrders([ordersAnswer([unpaid, paid])]);
    const pending = await rowOf(`${longName.slice(0, 30)}...`);
    const payBy = within(pending).getByTestId('pay-by');
    expect(payBy).toHaveTextContent(`Pay by ${formatPayBy(inTwoHours)}`);
    expect(within(payBy).getByText(formatPayBy(inTwoHours))).toHaveAttribute('datetime', inTwoHours);
    expect(within(await rowOf('Iridium Spark Plug CR9EIX')).queryByTestId('pay-by')).not.toBeInTheDocument();
  });

  it('an expired order shows Expired, when it was due, no Pay now, and may be deleted', async () => {
    const expired = order({
      id: 'order-expired',
      partName: 'Chain Lube 400 ml',
      status: 'EXPIRED',
      expiresAt: '2026-01-01T01:00:00.000Z',
    });
    renderOrders([
      ordersAnswer([expired, paid]),
      {
        request: { query: CancelOrderDocument, variables: { id: 'order-expired' } },
        result: { data: { cancelOrder: 'order-expired' } },
      },
      ordersAnswer([paid]),
    ]);
    const row = await rowOf('Chain Lube 400 ml');
    expect(within(row).getByText('Expired')).toBeInTheDocument();
    expect(within(row).getByText(`Not paid by ${formatPayBy('2026-01-01T01:00:00.000Z')}`)).toBeInTheDocument();
    expect(within(row).queryByText('Pending')).not.toBeInTheDocument();
    expect(within(row).queryByRole('link', { name: 'Pay now' })).not.toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('Delete this expired order?')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete order' }));
    expect(await screen.findByText('Order deleted.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Chain Lube 400 ml')).not.toBeInTheDocument());
  });

  it('when the Pay by time passes, the list is asked again and the order shows as Expired, without a reload', async () => {
    const soon = new Date(Date.now() + 800).toISOString();
    const due = order({ id: 'order-due', partName: 'Fork Seal Kit', expiresAt: soon });
    renderOrders([ordersAnswer([due]), ordersAnswer([{ ...due, status: 'EXPIRED' }])]);
    const row = await rowOf('Fork Seal Kit');
    expect(within(row).getByText('Pending')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Pay now' })).toBeInTheDocument();
    await waitFor(() => expect(within(row).getByText('Expired')).toBeInTheDocument(), { timeout: 4000 });
    expect(within(row).queryByRole('link', { name: 'Pay now' })).not.toBeInTheDocument();
  });

  it('the orders of one checkout are grouped under one row (checkout-group): its number, parts, sum and payment', async () => {
    const paidCheckout = 'c0ffee00-0000-4000-8000-000000000001';
    const openCheckout = 'beef0000-0000-4000-8000-000000000002';
    const line = (id: string, partName: string, price: number, more: Partial<ReturnType<typeof order>>) =>
      order({ id, partName, price, orderAmount: 10, ...more });
    const paidLine = { paid: true, status: 'PAID' as const, transactionId: 'pi_test_one', checkoutId: paidCheckout };
    // Newest first, as the API lists them: an order placed alone, an unpaid checkout, a paid one.
    const items = [
      line('order-alone', 'Iridium Spark Plug CR9EIX', 45, {}),
      line('order-open-1', 'Chain Lube 400 ml', 60, { checkoutId: openCheckout }),
      line('order-open-2', 'Fork Seal Kit', 120, { checkoutId: openCheckout }),
      line('order-paid-1', 'O-Ring Drive Chain', 400, paidLine),
      line('order-paid-2', 'Sintered Front Brake Pads', 245, paidLine),
      line('order-paid-3', 'Oil Filter HF204', 52.5, paidLine),
    ];
    renderOrders([ordersAnswer(items)]);
    await rowOf('O-Ring Drive Chain');
    const groups = screen.getAllByTestId('checkout-group');
    const summary = (g: HTMLElement) => g.querySelector('th')?.textContent?.replace(/\s+/g, ' ').trim();
    expect(groups.map(summary)).toEqual([
      'Checkout #BEEF0000: 2 parts, $180.00 · paid together with one payment',
      'Checkout #C0FFEE00: 3 parts, $697.50 · paid with one payment',
    ]);
    // Each group's row heads the orders of its checkout (a row group for screen readers), and an order placed
    // alone has none; the orders keep their places and numbers.
    expect(within(groups[1]).getByRole('rowheader')).toHaveAttribute('scope', 'rowgroup');
    const body = groups[0].parentElement as HTMLElement;
    const rows = Array.from(body.children).map((row) =>
      row.getAttribute('data-testid') === 'checkout-group'
        ? `group ${(row.textContent ?? '').slice(9, 18)}`
        : `${within(row as HTMLElement)
            .getByRole('rowheader')
            .textContent?.replace(/\D/g, '')} ${items.find((o) => row.textContent?.includes(o.partName))?.partName}`,
    );
    expect(rows).toEqual([
      '1 Iridium Spark Plug CR9EIX',
      'group #BEEF0000',
      '2 Chain Lube 400 ml',
      '3 Fork Seal Kit',
      'group #C0FFEE00',
      '4 O-Ring Drive Chain',
      '5 Sintered Front Brake Pads',
      '6 Oil Filter HF204',
    ]);
    // A checkout's orders are set apart from orders placed alone.
    expect((await rowOf('Iridium Spark Plug CR9EIX')).className).not.toContain('checkout-line');
    expect((await rowOf('Fork Seal Kit')).className).toContain('checkout-line');
    // The paid checkout's orders all show its one transaction id.
    expect(screen.getAllByTestId('transaction-id').map((t) => t.textContent)).toEqual([
      'pi_test_one',
      'pi_test_one',
      'pi_test_one',
    ]);
  });

  it('with no orders says so and links to the parts', async () => {
    renderOrders([ordersAnswer([])]);
    expect(await screen.findByText("You haven't ordered anything yet.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse parts' })).toHaveAttribute('href', '/parts');
  });

  it('pages through every order, 20 a page, the page in the address (?page=2): numbers go on from the page before', async () => {
    const many = Array.from({ length: 20 }, (_, i) => order({ id: `order-${i}`, partName: `Part number ${i}` }));
    const last = order({ id: 'order-20', partName: 'The oldest part' });
    renderOrders(
      [ordersAnswer([last], { offset: 20, total: 21 }), ordersAnswer(many, { offset: 0, total: 21 })],
      '/dashboard/my-orders?page=2',
    );
    const row = await rowOf('The oldest part');
    expect(within(row).getByRole('rowheader')).toHaveTextContent('21');
    expect(screen.getByText('Showing 21–21 of 21')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(within(await rowOf('Part number 0')).getByRole('rowheader')).toHaveTextContent('1');
    expect(screen.getByText('Showing 1–20 of 21')).toBeInTheDocument();
  });
});
