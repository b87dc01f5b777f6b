import type { MockedResponse } from '@apollo/client/testing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { useAuth } from '../../src/lib/auth';
import PurchasePage from '../../src/features/orders/PurchasePage';
import { PartDocument, PlaceOrderDocument } from '../../src/generated/graphql';
import { brakePads, customer, order, renderShopping, signedInAs } from './renderShopping';

// The cart's hooks ask for the sign-in state without requiring it: a visitor's cart here.
jest.mock('../../src/lib/auth', () => ({ useAuth: jest.fn(), useOptionalAuth: () => null }));
const mockedAuth = jest.mocked(useAuth);

const part = brakePads();
const partAnswer = (available = part.available) => ({
  request: { query: PartDocument, variables: { id: part.id } },
  result: { data: { part: { ...part, available } } },
});

const renderPurchase = (mocks: MockedResponse[] = [partAnswer()]) =>
  renderShopping(<PurchasePage />, mocks, '/purchase/:partId', `/purchase/${part.id}`);

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const placeOrder = () => userEvent.click(screen.getByRole('button', { name: 'Place Order' }));

beforeEach(() => mockedAuth.mockReturnValue(signedInAs(customer) as unknown as ReturnType<typeof useAuth>));

describe('Purchase page', () => {
  it("shows the part's image, name, price in dollars, Available and Minimum Order", async () => {
    renderPurchase();
    expect(await screen.findByRole('heading', { name: part.name })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: part.name })).toHaveAttribute('src', part.image);
    expect(screen.getByTestId('unit-price')).toHaveTextContent('$24.50');
    expect(screen.getByText('Available')).toBeInTheDocument();
    expect(screen.getByTestId('available')).toHaveTextContent('640');
    expect(screen.getByText('Minimum Order')).toBeInTheDocument();
    expect(screen.getByTestId('min-order')).toHaveTextContent('20');
  });

  it('prefills Name and Email from the signed-in user, read-only', async () => {
    renderPurchase();
    await screen.findByRole('heading', { name: part.name });
    expect(field('Name')).toHaveValue(customer.displayName);
    expect(field('Name')).toHaveAttribute('readonly');
    expect(field('Email')).toHaveValue(customer.email);
    expect(field('Email')).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Place Order' })).toBeInTheDocument();
  });

  it("an empty form says 'Phone is required' and \"Order can't be empty\"", async () => {
    renderPurchase();
    await screen.findByRole('heading', { name: part.name });
    await placeOrder();
    expect(await screen.findByText('Phone is required')).toBeInTheDocument();
    expect(screen.getByText("Order can't be empty")).toBeInTheDocument();
  });

  it("says 'Name is required' when the account has no name to prefill", async () => {
    mockedAuth.mockReturnValue(signedInAs({ ...customer, displayName: '' }) as unknown as ReturnType<typeof useAuth>);
    renderPurchase();
    await screen.findByRole('heading', { name: part.name });
    expect(field('Name')).not.toHaveAttribute('readonly');
    await placeOrder();
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
  });

  it("a short phone says 'Must be 11 characters'; a non-Bangladeshi one 'Provide a Bangladeshi number'", async () => {
    renderPurchase();
    await screen.findByRole('heading', { name: part.name });
    await userEvent.type(field('Phone'), '0171');
    await placeOrder();
    expect(await screen.findByText('Must be 11 characters')).toBeInTheDocument();
    await userEvent.clear(field('Phone'));
    await userEvent.type(field('Phone'), '01234567890');
    expect(await screen.findByText('Provide a Bangladeshi number')).toBeInTheDocument();
    expect(screen.queryByText('Must be 11 characters')).not.toBeInTheDocument();
  });

  it("an amount below the minimum or above the stock names the part's figures", async () => {
    renderPurchase();
    await screen.findByRole('heading', { name: part.name });
    await userEvent.type(field('Order amount'), '19');
    await placeOrder();
    expect(await screen.findByText('Must order more than 20 items')).toBeInTheDocument();
    await userEvent.clear(field('Order amount'));
    await userEvent.type(field('Order amount'), '641');
    expect(await screen.findByText('Only 640 items available')).toBeInTheDocument();
  });

  it('shows the total price for the entered amount', async () => {
    renderPurchase();
    await screen.findByRole('heading', { name: part.name });
    expect(screen.getByTestId('total-price')).toHaveTextContent('$0.00');
    await userEvent.type(field('Order amount'), '40');
    expect(screen.getByTestId('total-price')).toHaveTextContent('$980.00');
  });

  it('with quantity breaks, shows the break that applies, the total at its price and what the next break saves', async () => {
    const tiers = [
      { __typename: 'PriceTier' as const, minUnits: 100, price: 22 },
      { __typename: 'PriceTier' as const, minUnits: 300, price: 20 },
    ];
    renderPurchase([
      {
        request: { query: PartDocument, variables: { id: part.id } },
        result: { data: { part: { ...part, priceTiers: tiers } } },
      },
    ]);
    await screen.findByRole('heading', { name: part.name });
    await userEvent.type(field('Order amount'), '40');
    expect(screen.getByTestId('total-price')).toHaveTextContent('$980.00');
    expect(screen.queryByTestId('tier-applies')).not.toBeInTheDocument();
    expect(screen.getByTestId('next-tier')).toHaveTextContent(
      'Order 60 more (100 in all) and pay $22.00 per unit: $2.50 less each.',
    );
    await userEvent.clear(field('Order amount'));
    await userEvent.type(field('Order amount'), '150');
    expect(screen.getByTestId('tier-applies')).toHaveTextContent('$22.00 per unit applies from 100 units.');
    expect(screen.getByTestId('total-price')).toHaveTextContent('$3,300.00');
    expect(screen.getByTestId('next-tier')).toHaveTextContent(
      'Order 150 more (300 in all) and pay $20.00 per unit: $2.00 less each.',
    );
  });

  it("places the order: toast 'Successfully placed order.', the form resets and Available refreshes", async () => {
    const input = {
      partId: part.id,
      name: customer.displayName,
      phone: '01712345678',
      orderAmount: 20,
      address: 'Dhaka',
    };
    renderPurchase([
      partAnswer(),
      { request: { query: PlaceOrderDocument, variables: { input } }, result: { data: { placeOrder: order() } } },
      partAnswer(620),
    ]);
    await screen.findByRole('heading', { name: part.name });
    await userEvent.type(field('Phone'), '01712345678');
    await userEvent.type(field('Order amount'), '20');
    await userEvent.type(field('Address'), 'Dhaka');
    await placeOrder();
    expect(await screen.findByText('Successfully placed order.')).toBeInTheDocument();
    await waitFor(() => expect(field('Phone')).toHaveValue(''));
    expect(field('Order amount')).toHaveValue(null);
    expect(field('Address')).toHaveValue('');
    expect(field('Name')).toHaveValue(customer.displayName);
    expect(field('Email')).toHaveValue(customer.email);
    await waitFor(() => expect(screen.getByTestId('available')).toHaveTextContent('620'));
  });

  it("shows the server's per-field messages under the fields", async () => {
    const input = { partId: part.id, name: customer.displayName, phone: '01712345678', orderAmount: 600, address: '' };
    renderPurchase([
      partAnswer(),
      {
        request: { query: PlaceOrderDocument, variables: { input } },
        result: {
          errors: [
            new GraphQLError('Invalid input', {
              extensions: { code: 'BAD_USER_INPUT', fields: { orderAmount: 'Only 5 items available' } },
            }),
          ],
        },
      },
    ]);
    await screen.findByRole('heading', { name: part.name });
    await userEvent.type(field('Phone'), '01712345678');
    await userEvent.type(field('Order amount'), '600');
    await placeOrder();
    expect(await screen.findByText('Only 5 items available')).toBeInTheDocument();
    expect(screen.queryByText('Successfully placed order.')).not.toBeInTheDocument();
  });

  it("an unknown part reads 'Part not found'", async () => {
    renderShopping(
      <PurchasePage />,
      [{ request: { query: PartDocument, variables: { id: 'nope' } }, result: { data: { part: null } } }],
      '/purchase/:partId',
      '/purchase/nope',
    );
    expect(await screen.findByText('Part not found')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Place Order' })).not.toBeInTheDocument();
  });
});
