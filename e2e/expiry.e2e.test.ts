import type { BrowserContext, Page } from 'playwright-core';
import { demo, loginAs, screenshot, startShop, type Shop } from './support/shop';
import { generousOrderLimits } from '../api/test/support/testApp';

/**
 * An unpaid order expires while its customer watches My Orders (issue 11): the row shows the time to pay by,
 * and when it passes (a short UNPAID_ORDER_EXPIRY here, the sweep every second) the row turns Expired without
 * a reload, Pay now goes away, the stock is back on sale and the payment page says the order expired.
 */

const partName = 'Iridium Spark Plug CR9EIX';

describe('an order expiring in front of its customer', () => {
  let shop: Shop;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    shop = await startShop({
      orders: { ...generousOrderLimits, unpaidExpiryMs: 15_000, unpaidPerCustomer: 10 },
      sweepIntervalMs: 1000,
    });
    ({ context, page } = await shop.newPage());
  });
  afterAll(async () => {
    await context?.close();
    await shop?.close();
  });

  async function part() {
    const { data } = await shop.app.gql<{
      parts: { items: { id: string; name: string; minOrder: number; available: number }[] };
    }>('query ($search: String) { parts(search: $search, limit: 10) { items { id name minOrder available } } }', {
      search: partName,
    });
    const found = data?.parts.items.find((p) => p.name === partName);
    if (!found) throw new Error(`seeded part ${partName} not found`);
    return found;
  }

  it('My Orders shows Pay by, then Expired when the time has passed; the stock is back', async () => {
    const before = await part();
    await loginAs(page, demo.customer.email, demo.customer.password);
    await page.goto(`/purchase/${before.id}`);
    await page.getByRole('heading', { name: partName }).waitFor();
    await page.getByLabel('Phone').fill('01712345678');
    await page.getByLabel('Order amount').fill(String(before.minOrder));
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Successfully placed order.' }).first().waitFor();
    expect((await part()).available).toBe(before.available - before.minOrder);

    await page.goto('/dashboard/my-orders');
    const row = page.getByTestId('order-row').filter({ hasText: 'Pending' });
    await row.waitFor();
    await row.getByTestId('pay-by').waitFor();
    expect(await row.getByTestId('pay-by').textContent()).toMatch(/^Pay by \d{1,2}:\d{2}/);
    expect(await row.getByRole('link', { name: 'Pay now' }).count()).toBe(1);
    await screenshot(page, 'my-orders-pay-by');

    // Nobody touches the page: it asks again when the Pay by time passes.
    const expired = page.getByTestId('order-row').filter({ hasText: 'Expired' });
    await expired.waitFor({ timeout: 45_000 });
    expect(await expired.getByRole('link', { name: 'Pay now' }).count()).toBe(0);
    expect(await expired.getByText(/^Not paid by /).count()).toBe(1);
    expect(await page.getByTestId('order-row').filter({ hasText: 'Pending' }).count()).toBe(0);
    await screenshot(page, 'my-orders-expired');
    expect((await part()).available).toBe(before.available);

    await expired.getByRole('button', { name: 'Delete' }).waitFor();
  });

  it('the payment page of the expired order says so and offers to order again', async () => {
    await page.goto('/dashboard/my-orders');
    const expired = page.getByTestId('order-row').filter({ hasText: 'Expired' });
    await expired.waitFor();
    const { data } = await shop.app.gql<{ myOrders: { items: { id: string; status: string }[] } }>(
      'query { myOrders { items { id status } } }',
      {},
      await page.evaluate(() => localStorage.getItem('accessToken') ?? ''),
    );
    const order = data?.myOrders.items.find((o) => o.status === 'EXPIRED');
    if (!order) throw new Error('no expired order');
    await page.goto(`/payment/${order.id}`);
    await page.getByText('This order expired before it was paid.').waitFor();
    expect(await page.getByLabel('Card number').count()).toBe(0);
    await page.getByRole('link', { name: 'Order again' }).waitFor();
  });
});
