import { messages } from '@partsyard/common';
import { screen, within } from '@testing-library/react';
import CartPage from '../../src/features/cart/CartPage';
import { CartDocument, PartDocument } from '../../src/generated/graphql';
import { useAuth, useOptionalAuth } from '../../src/lib/auth';
import { visitorCart } from '../../src/lib/cart/visitorCart';
import { brakePads, customer, renderShopping, signedInAs } from './renderShopping';

/**
 * Issue 14: the cart page shows each line's problem when the part's stock fell below the line's amount or its
 * price changed since the line was added, for a signed-in customer (the server's cart says so) and for a
 * visitor (the page asks the server for the part as it is now and compares).
 */

jest.mock('../../src/lib/auth', () => ({ useAuth: jest.fn(), useOptionalAuth: jest.fn() }));
const signedIn = signedInAs(customer) as unknown as ReturnType<typeof useAuth>;

const pads = brakePads();
const chain = brakePads({
  id: '0b5c7a52-9a44-4a4e-9a1e-6a4f0e3f1a02',
  name: 'O-Ring Drive Chain 520',
  price: 40,
  minOrder: 10,
  available: 300,
});
const priceChanged = 'The price changed from $24.50 to $26.00 since you added it';

const renderCart = (mocks: Parameters<typeof renderShopping>[1]) => renderShopping(<CartPage />, mocks, '/cart');
const lineOf = async (name: string) =>
  (await screen.findByRole('link', { name })).closest('[data-testid="cart-line"]') as HTMLElement;

afterEach(() => visitorCart.clear());

describe('the cart page', () => {
  it("a signed-in customer's line shows the server's problems: stock below the amount, and a changed price", async () => {
    jest.mocked(useAuth).mockReturnValue(signedIn);
    jest.mocked(useOptionalAuth).mockReturnValue(signedIn);
    const line = (part: typeof pads, amount: number, problems: { problem?: string; priceChange?: string } = {}) => ({
      __typename: 'CartLine',
      part,
      amount,
      unitPrice: part.price,
      companyPriced: false,
      seenUnitPrice: part.price,
      lineTotal: part.price * amount,
      problem: problems.problem ?? null,
      priceChange: problems.priceChange ?? null,
      tier: null,
      nextTier: null,
    });
    const short = { ...pads, price: 26, available: 12 };
    renderCart([
      {
        request: { query: CartDocument },
        result: {
          data: {
            cart: {
              __typename: 'Cart',
              lines: [
                line(short, 30, { problem: messages.orderAmountAboveAvailable(12), priceChange: priceChanged }),
                line(chain, 10),
              ],
              total: 26 * 30 + 400,
              units: 40,
              problem: null,
              ready: false,
            },
          },
        },
      },
    ]);
    const troubled = await lineOf(pads.name);
    const problems = within(troubled).getByTestId('line-problem');
    expect(
      within(problems)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Only 12 items available', priceChanged]);
    // The amount field is marked invalid and described by the problems (read with it by screen readers).
    const amount = within(troubled).getByRole('spinbutton', { name: 'Amount' });
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(amount).toHaveAccessibleDescription(`Only 12 items available ${priceChanged}`);
    // A line whose part is as it was says nothing.
    const fine = await lineOf(chain.name);
    expect(within(fine).queryByTestId('line-problem')).not.toBeInTheDocument();
    expect(within(fine).getByRole('spinbutton', { name: 'Amount' })).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByTestId('cart-problem')).not.toBeInTheDocument();
  });

  it('a cart whose total is more than one card payment says so by its total, as checkout would refuse it', async () => {
    jest.mocked(useAuth).mockReturnValue(signedIn);
    jest.mocked(useOptionalAuth).mockReturnValue(signedIn);
    const dear = { ...pads, price: 600_000, minOrder: 1, available: 5 };
    const line = (part: typeof pads) => ({
      __typename: 'CartLine',
      part,
      amount: 1,
      unitPrice: part.price,
      companyPriced: false,
      seenUnitPrice: part.price,
      lineTotal: part.price,
      problem: null,
      priceChange: null,
      tier: null,
      nextTier: null,
    });
    renderCart([
      {
        request: { query: CartDocument },
        result: {
          data: {
            cart: {
              __typename: 'Cart',
              lines: [line(dear), line({ ...dear, id: chain.id, name: chain.name })],
              total: 1_200_000,
              units: 2,
              problem: messages.checkoutTooLarge,
              ready: false,
            },
          },
        },
      },
    ]);
    expect(await screen.findByTestId('cart-problem')).toHaveTextContent(messages.checkoutTooLarge);
    expect(screen.queryByTestId('line-problem')).not.toBeInTheDocument();
  });

  it("a visitor's line, checked against the part as the server has it now, shows the stock shortfall and the price change", async () => {
    jest.mocked(useAuth).mockReturnValue({ status: 'signedOut', user: null } as unknown as ReturnType<typeof useAuth>);
    jest.mocked(useOptionalAuth).mockReturnValue(null);
    // Added when 640 were left at $24.50; now 12 are left at $26.00. The chain is as it was.
    visitorCart.set({ partId: pads.id, amount: 30, seenUnitPrice: 24.5, part: pads });
    visitorCart.set({ partId: chain.id, amount: 10, seenUnitPrice: 40, part: chain });
    renderCart([
      {
        request: { query: PartDocument, variables: { id: pads.id } },
        result: { data: { part: { ...pads, price: 26, available: 12 } } },
      },
      { request: { query: PartDocument, variables: { id: chain.id } }, result: { data: { part: chain } } },
    ]);
    // Before the server answers, the line shows the part as it was added: nothing wrong yet.
    expect(screen.getAllByTestId('cart-line')).toHaveLength(2);
    expect(screen.queryByTestId('line-problem')).not.toBeInTheDocument();
    const troubled = await lineOf(pads.name);
    const problems = await within(troubled).findByTestId('line-problem');
    expect(
      within(problems)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Only 12 items available', priceChanged]);
    expect(within(troubled).getByTestId('line-total')).toHaveTextContent('$780.00');
    expect(screen.getByTestId('cart-total')).toHaveTextContent('$1,180.00');
    const fine = await lineOf(chain.name);
    expect(within(fine).queryByTestId('line-problem')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in to check out' })).toBeInTheDocument();
    expect(screen.queryByTestId('cart-problem')).not.toBeInTheDocument();
  });
});
