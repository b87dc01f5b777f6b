import { MockedProvider, type MockedResponse } from '@apollo/client/testing';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { toast } from 'react-hot-toast/headless';
import { Route, Routes } from 'react-router-dom';
import { TestRouter } from '../support/TestRouter';
import { Toasts } from '../../src/components/Toasts';
import { MyPricesDocument, type MyOrdersQuery, type PartQuery } from '../../src/generated/graphql';

/** The signed-in customer of these tests (useAuth is mocked to answer this user). */
export const customer = { uid: 'uid-rider', email: 'rider@example.test', displayName: 'Rita Rider', photoURL: '' };

/** What the mocked useAuth answers for a signed-in `user`. */
export const signedInAs = (user: typeof customer) => ({ status: 'signedIn', user });

/** jsdom has <dialog> but not showModal/close: enough of them for ConfirmModal. */
export function polyfillDialog() {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}

/**
 * Renders `page` as the element of route `route` (so its params are read), opened at `path`, with mocked
 * GraphQL answers and the toasts.
 */
/** A customer in no company: asked for their own prices (any parts), the server answers none. */
const noCompanyPrices: MockedResponse = {
  request: { query: MyPricesDocument },
  variableMatcher: () => true,
  result: { data: { myPrices: null } },
  maxUsageCount: Number.POSITIVE_INFINITY,
};

export function renderShopping(page: ReactElement, mocks: MockedResponse[], route: string, path = route) {
  toast.remove();
  return render(
    <MockedProvider mocks={[...mocks, noCompanyPrices]}>
      <TestRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={page} />
          <Route path="*" element={<p>Elsewhere</p>} />
        </Routes>
        <Toasts />
      </TestRouter>
    </MockedProvider>,
  );
}

type Part = NonNullable<PartQuery['part']>;
type Order = MyOrdersQuery['myOrders']['items'][number];

/** A seeded-looking part: 20 to 640 units at $24.50. */
export const brakePads = (overrides: Partial<Part> = {}): Part & { __typename: 'Part' } => ({
  __typename: 'Part',
  id: '0b5c7a52-9a44-4a4e-9a1e-6a4f0e3f1a01',
  name: 'Sintered Front Brake Pads (Pair)',
  description: 'Sintered pads for sport and touring bikes.',
  image: '/images/parts/brake-pads.svg',
  price: 24.5,
  minOrder: 20,
  available: 640,
  priceTiers: [],
  packSize: 1,
  ...overrides,
});

/** Two hours from when the tests started: an unpaid order's "Pay by" that does not pass during a test. */
export const inTwoHours = new Date(Date.now() + 2 * 3_600_000).toISOString();

/** An order of the customer's; unpaid (to be paid by `inTwoHours`) unless told otherwise. */
export const order = (overrides: Partial<Order> = {}): Order & { __typename: 'Order' } => ({
  __typename: 'Order',
  id: '7d1f7c2e-1111-4a4e-9a1e-6a4f0e3f1a01',
  name: customer.displayName,
  email: customer.email,
  phone: '01712345678',
  address: 'Dhaka',
  partId: brakePads().id,
  partName: brakePads().name,
  partImage: brakePads().image,
  orderAmount: 20,
  unitPrice: 24.5,
  price: 490,
  paid: false,
  status: 'UNPAID',
  transactionId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: overrides.paid ? null : inTwoHours,
  checkoutId: null,
  refundedAmount: 0,
  dispute: null,
  ...overrides,
});
