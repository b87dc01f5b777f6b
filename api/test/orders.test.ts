import { databaseKinds } from './support/env';
import { addPart, orderInput, payOrder, placeOrder } from './support/fixtures';
import { startTestApp, type TestApp, type TestUser } from './support/testApp';

describe.each(databaseKinds)('orders and stock on %s', (kind) => {
  let app: TestApp;
  let admin: TestUser;
  let customer: TestUser;

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = await app.signUp({ admin: true });
    customer = await app.signUp();
  });
  afterAll(() => app?.close());

  const availableOf = async (partId: string) =>
    (await app.gql<{ part: { available: number } }>('query($id: ID!) { part(id: $id) { available } }', { id: partId }))
      .data?.part.available;

  it('takes the ordered amount off the stock and charges the server price', async () => {
    const partId = await addPart(app, admin.token, { price: 12.5, available: 100, minOrder: 10 });
    const order = await placeOrder(app, customer.token, partId, { orderAmount: 12 });
    expect(order.price).toBe(150);
    expect(await availableOf(partId)).toBe(88);
  });

  it("refuses an amount below minOrder with the spec's message and writes nothing", async () => {
    const partId = await addPart(app, admin.token, { minOrder: 10, available: 100 });
    const result = await app.gql(
      'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
      { input: orderInput(partId, { orderAmount: 5 }) },
      customer.token,
    );
    expect(result.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(result.errors?.[0].extensions?.fields).toEqual({ orderAmount: 'Must order more than 10 items' });
    expect(await availableOf(partId)).toBe(100);
  });

  it('cancelling an unpaid order gives the stock back', async () => {
    const partId = await addPart(app, admin.token, { available: 50 });
    const order = await placeOrder(app, customer.token, partId, { orderAmount: 20 });
    const result = await app.gql('mutation($id: ID!) { cancelOrder(id: $id) }', { id: order.id }, customer.token);
    expect(result.data).toEqual({ cancelOrder: order.id });
    expect(await availableOf(partId)).toBe(50);
  });

  it('a paid order can be neither cancelled nor paid again', async () => {
    const partId = await addPart(app, admin.token);
    const order = await placeOrder(app, customer.token, partId);
    const { confirm } = await payOrder(app, customer.token, order.id);
    expect(confirm.data?.confirmPayment.status).toBe('PAID');
    const cancel = await app.gql('mutation($id: ID!) { cancelOrder(id: $id) }', { id: order.id }, customer.token);
    expect(cancel.errors?.[0].extensions?.code).toBe('CONFLICT');
    const again = await app.gql(
      'mutation($id: ID!) { createPaymentIntent(orderId: $id) { id } }',
      { id: order.id },
      customer.token,
    );
    expect(again.errors?.[0].extensions?.code).toBe('CONFLICT');
  });
});
