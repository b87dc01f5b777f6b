import type { TestApp } from './testApp';

export const partInput = (overrides: Record<string, unknown> = {}) => ({
  name: 'Sintered Brake Pads',
  price: 12.5,
  image: '',
  minOrder: 10,
  available: 100,
  description: 'Pads for twin-disc calipers.',
  ...overrides,
});

/** Adds a part as `adminToken` and answers its id. */
export async function addPart(
  app: TestApp,
  adminToken: string,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const result = await app.gql<{ addPart: { id: string } }>(
    'mutation($input: PartInput!) { addPart(input: $input) { id } }',
    { input: partInput(overrides) },
    adminToken,
  );
  if (!result.data) throw new Error(`addPart failed: ${JSON.stringify(result.errors)}`);
  return result.data.addPart.id;
}

export const orderInput = (partId: string, overrides: Record<string, unknown> = {}) => ({
  partId,
  name: 'Rider One',
  phone: '01712345678',
  orderAmount: 10,
  address: 'Road 5, Dhaka',
  ...overrides,
});

/** Places an order as `token` and answers its id and total. */
export async function placeOrder(app: TestApp, token: string, partId: string, overrides: Record<string, unknown> = {}) {
  const result = await app.gql<{ placeOrder: { id: string; price: number } }>(
    'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id price } }',
    { input: orderInput(partId, overrides) },
    token,
  );
  if (!result.data) throw new Error(`placeOrder failed: ${JSON.stringify(result.errors)}`);
  return result.data.placeOrder;
}

/** Pays an order on the test gateway with a card, then confirms it; answers the intent id. */
export async function payOrder(app: TestApp, token: string, orderId: string, cardNumber = '4242 4242 4242 4242') {
  const intent = await app.gql<{ createPaymentIntent: { id: string } }>(
    'mutation($orderId: ID!) { createPaymentIntent(orderId: $orderId) { id } }',
    { orderId },
    token,
  );
  if (!intent.data) throw new Error(`createPaymentIntent failed: ${JSON.stringify(intent.errors)}`);
  const intentId = intent.data.createPaymentIntent.id;
  const paid = await app.gql<{ payWithTestCard: { succeeded: boolean; error: string | null } }>(
    'mutation($id: ID!, $card: TestCardInput!) { payWithTestCard(paymentIntentId: $id, card: $card) { succeeded error } }',
    { id: intentId, card: { number: cardNumber, expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: '123' } },
    token,
  );
  const confirm = await app.gql<{ confirmPayment: { status: string; transactionId: string } }>(
    'mutation($orderId: ID!, $intentId: ID!) { confirmPayment(orderId: $orderId, paymentIntentId: $intentId) { status transactionId } }',
    { orderId, intentId },
    token,
  );
  return { intentId, card: paid.data?.payWithTestCard, confirm };
}

/**
 * Puts `amount` of each part in `token`'s cart and checks it out; answers the checkout's id and its orders' ids
 * (a checkout is paid with one intent, whose order id is the checkout's).
 */
export async function placeCheckout(
  app: TestApp,
  token: string,
  partIds: string[],
  { amount = 10, ...details }: { amount?: number; name?: string; phone?: string; address?: string } = {},
): Promise<{ checkoutId: string; orderIds: string[] }> {
  for (const partId of partIds) {
    const added = await app.gql(
      'mutation($id: ID!, $amount: Int!) { addToCart(partId: $id, amount: $amount) { units } }',
      {
        id: partId,
        amount,
      },
      token,
    );
    if (!added.data) throw new Error(`addToCart failed: ${JSON.stringify(added.errors)}`);
  }
  const input = { name: 'Rider One', phone: '01712345678', address: 'Road 5, Dhaka', ...details };
  const result = await app.gql<{ checkout: { id: string; orders: { id: string }[] } }>(
    'mutation($input: CheckoutInput!) { checkout(input: $input) { id orders { id } } }',
    { input },
    token,
  );
  if (!result.data) throw new Error(`checkout failed: ${JSON.stringify(result.errors)}`);
  return { checkoutId: result.data.checkout.id, orderIds: result.data.checkout.orders.map((o) => o.id) };
}
