import { orderNumber } from '@partsyard/common';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import ManageOrdersPage from '../../src/features/admin/ManageOrdersPage';
import {
  AllOrdersDocument,
  CancelOrderDocument,
  MarkOrderShippedDocument,
  type OrderStatus,
} from '../../src/generated/graphql';
import { polyfillDialog, renderAdmin } from './renderAdmin';

const order = (id: string, partName: string, status: OrderStatus) => ({
  __typename: 'Order' as const,
  id,
  name: 'Rita Rider',
  email: 'rider@example.test',
  phone: '01712345678',
  address: 'Dhaka',
  partId: 'p1',
  partName,
  partImage: '/images/parts/chain.svg',
  orderAmount: 10,
  unitPrice: 2.5,
  price: 25,
  paid: status === 'PAID' || status === 'SHIPPED',
  status,
  transactionId: status === 'UNPAID' || status === 'EXPIRED' ? null : `pi_test_${id}`,
  createdAt: '2026-01-02T03:04:05.000Z',
  expiresAt: status === 'UNPAID' || status === 'EXPIRED' ? '2026-01-02T04:04:05.000Z' : null,
  checkoutId: null,
  refundedAmount: 0,
  dispute: null as 'OPEN' | 'WON' | 'LOST' | null,
});

const longName = 'Heavy-duty O-ring drive chain 520 x 120 links, gold';
const unpaid = order('o1', longName, 'UNPAID');
const paid = order('o2', 'Brake pads', 'PAID');

const ordersPage = (
  items: ReturnType<typeof order>[],
  status: OrderStatus | null = null,
  { offset = 0, total = items.length } = {},
) => ({
  request: { query: AllOrdersDocument, variables: { status, offset, limit: 20 } },
  result: { data: { orders: { __typename: 'OrderPage', items, total } } },
});

/** Shows the address the page is at, to read what the list wrote into it. */
function Address() {
  const location = useLocation();
  return <output data-testid="address">{location.pathname + location.search}</output>;
}

const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr') as HTMLElement;

beforeAll(polyfillDialog);

describe('Manage All Orders', () => {
  it('shows a refund made at the gateway and a dispute under the status badge (issue 32)', async () => {
    const refunded = { ...order('o7', 'Clutch cable', 'PAID'), refundedAmount: 25 };
    const disputed = { ...order('o8', 'Air filter', 'SHIPPED'), refundedAmount: 5, dispute: 'OPEN' as const };
    renderAdmin(<ManageOrdersPage />, [ordersPage([refunded, disputed, paid])]);
    expect(within(await rowOf('Clutch cable')).getByTestId('payment-aftermath')).toHaveTextContent('Refunded in full');
    const open = within(await rowOf('Air filter')).getByTestId('payment-aftermath');
    expect(open).toHaveTextContent('Refunded $5.00');
    expect(open).toHaveTextContent('Payment disputed at the bank');
    expect(within(await rowOf('Brake pads')).queryByTestId('payment-aftermath')).not.toBeInTheDocument();
  });

  it('lists part name cut to 30 characters, email, amount and total; unpaid orders show Pending and Delete', async () => {
    renderAdmin(<ManageOrdersPage />, [ordersPage([unpaid, paid])]);
    const row = await rowOf(`${longName.slice(0, 30)}...`);
    expect(within(row).getByText('rider@example.test')).toBeInTheDocument();
    expect(within(row).getByText('10')).toBeInTheDocument();
    expect(within(row).getByText('$25.00')).toBeInTheDocument();
    expect(within(row).getByText('Pending')).not.toHaveRole('button');
    expect(within(row).getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    // A paid order cannot be deleted.
    expect(within(await rowOf('Brake pads')).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('each order shows its short number and date, and its status as a badge, never a button', async () => {
    renderAdmin(<ManageOrdersPage />, [ordersPage([unpaid, paid])]);
    const row = await rowOf('Brake pads');
    expect(within(row).getByText('#O2')).toBeInTheDocument();
    expect(within(row).getByText('Jan 2, 2026')).toHaveAttribute('datetime', paid.createdAt);
    expect(within(row).getByText('Paid')).not.toHaveRole('button');
    expect(within(row).queryByRole('button', { name: /pending|paid/i })).not.toBeInTheDocument();
  });

  it('"Mark shipped" asks first, naming the order; confirmed, the saved status shows Shipped and a toast confirms', async () => {
    const shipped = { ...paid, status: 'SHIPPED' as const };
    renderAdmin(<ManageOrdersPage />, [
      ordersPage([paid]),
      {
        request: { query: MarkOrderShippedDocument, variables: { id: paid.id } },
        result: { data: { markOrderShipped: shipped } },
      },
      ordersPage([shipped]),
    ]);
    const row = await rowOf('Brake pads');
    await userEvent.click(within(row).getByRole('button', { name: 'Mark shipped' }));
    const dialog = screen.getByRole('dialog', { name: 'Mark this order shipped?' });
    expect(dialog).toHaveTextContent('Order #O2 of Jan 2, 2026: 10 × Brake pads for rider@example.test, paid $25.00.');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark shipped' }));
    expect(await within(row).findByText('Shipped')).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Mark shipped' })).not.toBeInTheDocument();
    expect(await screen.findByText('Order marked as shipped.')).toBeInTheDocument();
  });

  it('a shipment that is not confirmed changes nothing', async () => {
    renderAdmin(<ManageOrdersPage />, [ordersPage([paid])]);
    const row = await rowOf('Brake pads');
    await userEvent.click(within(row).getByRole('button', { name: 'Mark shipped' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(row).getByText('Paid')).toBeInTheDocument();
  });

  it('deleting an unpaid order asks first, then toasts and refreshes the list', async () => {
    renderAdmin(<ManageOrdersPage />, [
      ordersPage([unpaid, paid]),
      {
        request: { query: CancelOrderDocument, variables: { id: unpaid.id } },
        result: { data: { cancelOrder: unpaid.id } },
      },
      ordersPage([paid]),
    ]);
    await userEvent.click(within(await rowOf(`${longName.slice(0, 30)}...`)).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete this order?')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Order deleted.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(`${longName.slice(0, 30)}...`)).not.toBeInTheDocument());
  });

  it('an expired order shows an Expired badge and may be deleted, saying its stock already went back', async () => {
    const expired = order('o3', 'Chain lube', 'EXPIRED');
    renderAdmin(<ManageOrdersPage />, [ordersPage([expired, paid])]);
    const row = await rowOf('Chain lube');
    expect(within(row).getByText('Expired')).toBeInTheDocument();
    expect(within(row).queryByText('Pending')).not.toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Mark shipped' })).not.toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    expect(
      within(screen.getByRole('dialog')).getByText(
        `The expired order ${orderNumber('o3')} of rider@example.test for 10 × Chain lube is deleted (its stock went back when it expired).`,
      ),
    ).toBeInTheDocument();
  });

  it('filters by each status, Expired included', async () => {
    const expired = order('o3', 'Chain lube', 'EXPIRED');
    renderAdmin(<ManageOrdersPage />, [ordersPage([unpaid, paid, expired]), ordersPage([expired], 'EXPIRED')]);
    await rowOf('Brake pads');
    expect(
      screen.getAllByRole('button', { name: /^(All|Unpaid|Expired|Paid|Shipped)$/ }).map((b) => b.textContent),
    ).toEqual(['All', 'Unpaid', 'Expired', 'Paid', 'Shipped']);
    await userEvent.click(screen.getByRole('button', { name: 'Expired' }));
    await waitFor(() => expect(screen.queryByText('Brake pads')).not.toBeInTheDocument());
    expect(screen.getByText('Chain lube')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Expired' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('filters by status', async () => {
    renderAdmin(<ManageOrdersPage />, [ordersPage([unpaid, paid]), ordersPage([paid], 'PAID')]);
    await rowOf(`${longName.slice(0, 30)}...`);
    await userEvent.click(screen.getByRole('button', { name: 'Paid' }));
    await waitFor(() => expect(screen.queryByText(`${longName.slice(0, 30)}...`)).not.toBeInTheDocument());
    expect(screen.getByText('Brake pads')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Paid' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('keeps the page and the status in the address: a link opens that page, paging and filtering write it', async () => {
    const many = Array.from({ length: 20 }, (_, i) => order(`p${i}`, `Paid part ${i}`, 'PAID'));
    renderAdmin(
      <>
        <ManageOrdersPage />
        <Address />
      </>,
      [
        ordersPage(many.slice(0, 1), 'PAID', { offset: 20, total: 21 }),
        ordersPage(many, 'PAID', { offset: 0, total: 21 }),
        ordersPage([unpaid], 'UNPAID'),
      ],
      '/dashboard/manage-orders?status=PAID&page=2',
    );
    await rowOf('Paid part 0');
    expect(screen.getByRole('button', { name: 'Paid' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await rowOf('Paid part 19');
    expect(screen.getByTestId('address')).toHaveTextContent(/^\/dashboard\/manage-orders\?status=PAID$/);
    await userEvent.click(screen.getByRole('button', { name: 'Unpaid' }));
    await rowOf(`${longName.slice(0, 30)}...`);
    expect(screen.getByTestId('address')).toHaveTextContent(/^\/dashboard\/manage-orders\?status=UNPAID$/);
  });
});
