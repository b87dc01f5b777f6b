import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import MyOrdersPage from '../../src/features/orders/MyOrdersPage';
import { MyOrdersDocument } from '../../src/generated/graphql';
import { OrderAgainDocument } from '../../src/generated/lists';
import { order, polyfillDialog, renderShopping } from '../shopping/renderShopping';
import { cartFromLines, checkLine, part } from './listMocks';

const checkout = 'c0ffee00-0000-4000-8000-000000000001';
const paidLine = { paid: true, status: 'PAID' as const, transactionId: 'pi_test_one', checkoutId: checkout };
const items = [
  order({ id: 'order-alone', partName: 'Iridium Spark Plug CR9EIX', paid: true, status: 'PAID' }),
  order({ id: 'order-c1', partName: 'Brake Pads FA196 (old)', ...paidLine }),
  order({ id: 'order-c2', partName: 'Chain Lube 400 ml', ...paidLine }),
];
const ordersAnswer = {
  request: { query: MyOrdersDocument, variables: { offset: 0, limit: 20 } },
  result: { data: { myOrders: { __typename: 'OrderPage', items, total: items.length } } },
};
const plugs = part('p-plugs', 'Iridium Spark Plug CR9EIX', 'NGK-CR9EIX');
const oldPads = part('p-pads-old', 'Brake Pads FA196 (old)', 'EBC-FA196');
const newPads = part('p-pads-new', 'Brake Pads FA196HH', 'EBC-FA196HH');

const renderOrders = (mocks: Parameters<typeof renderShopping>[1]) =>
  renderShopping(<MyOrdersPage />, mocks, '/dashboard/my-orders');

beforeAll(polyfillDialog);

describe('Order again', () => {
  it('puts one order back into the cart, toasts and opens the cart', async () => {
    renderOrders([
      ordersAnswer,
      {
        request: { query: OrderAgainDocument, variables: { from: { orderId: 'order-alone' } } },
        result: { data: { orderAgain: cartFromLines([checkLine(1, plugs)]) } },
      },
    ]);
    const row = (await screen.findByText('Iridium Spark Plug CR9EIX')).closest('tr') as HTMLElement;
    await userEvent.click(within(row).getByRole('button', { name: /^Order again #.*Iridium Spark Plug/ }));
    expect(await screen.findByText(/Added 1 part from Order #.* to your cart\./)).toBeInTheDocument();
    expect(await screen.findByText('Elsewhere')).toBeInTheDocument();
  });

  it('a whole checkout refused: a dialog lists each line (the replacement offered, a gone part said), nothing changed', async () => {
    renderOrders([
      ordersAnswer,
      {
        request: { query: OrderAgainDocument, variables: { from: { checkoutId: checkout } } },
        result: {
          data: {
            orderAgain: cartFromLines([
              checkLine(
                1,
                oldPads,
                {
                  kind: 'SUPERSEDED',
                  message:
                    'EBC-FA196 (Brake Pads FA196 (old)) is replaced by EBC-FA196HH (Brake Pads FA196HH): take the replacement',
                },
                newPads,
              ),
              {
                ...checkLine(2, null, { kind: 'PART_GONE', message: 'This part is no longer sold' }),
                number: 'Chain Lube 400 ml',
              },
            ]),
          },
        },
      },
    ]);
    const group = await screen.findByTestId('checkout-group');
    await userEvent.click(within(group).getByRole('button', { name: 'Order the whole checkout again' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nothing was added to your cart' });
    expect(within(dialog).getByText(/2 parts cannot be ordered as before, so none went in/)).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: newPads.name })).toHaveAttribute('href', '/parts/p-pads-new');
    expect(within(dialog).getByText('This part is no longer sold')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(dialog).not.toHaveAttribute('open');
    expect(screen.queryByText('Elsewhere')).toBeNull();
  });
});
