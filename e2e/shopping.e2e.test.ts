import { randomBytes } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { expectAccessible } from './support/axe';
import { demo, screenshot, startShop, type Shop } from './support/shop';

/**
 * A new customer's whole journey in a browser: sign up, order (every purchase message on the way), pay a
 * declined then a good test card, cancel a second order, review the paid part; and the signed-in guard.
 */

interface SeededPart {
  id: string;
  name: string;
  minOrder: number;
  available: number;
}

const shockName = 'Adjustable Rear Shock Absorber 320 mm';
const rider = {
  name: 'Rafi Rider',
  email: `rider-${randomBytes(5).toString('hex')}@example.test`,
  password: 'Rider#2026',
};
const reviewText = `Smooth and adjustable, fitted in an afternoon (${randomBytes(3).toString('hex')}).`;

async function partNamed(shop: Shop, name: string): Promise<SeededPart> {
  const { data } = await shop.app.gql<{ parts: { items: SeededPart[] } }>(
    'query ($search: String) { parts(search: $search, limit: 10) { items { id name minOrder available } } }',
    { search: name },
  );
  const part = data?.parts.items.find((p) => p.name === name);
  if (!part) throw new Error(`seeded part ${name} not found`);
  return part;
}

const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text }).first();

async function fillPurchase(page: Page, phone: string, amount: string) {
  await page.getByLabel('Phone').fill(phone);
  await page.getByLabel('Order amount').fill(amount);
  await page.getByRole('button', { name: 'Place Order' }).click();
}

describe('a customer shopping in a browser', () => {
  let shop: Shop;
  let context: BrowserContext;
  let page: Page;
  let shock: SeededPart;

  beforeAll(async () => {
    shop = await startShop();
    shock = await partNamed(shop, shockName);
    ({ context, page } = await shop.newPage());
  });
  afterAll(async () => {
    await context?.close();
    await shop?.close();
  });

  it('a new user signs up through /signup and sees an empty profile', async () => {
    await page.goto('/signup');
    await page.getByLabel('Name').fill(rider.name);
    await page.getByLabel('Email').fill(rider.email);
    await page.getByLabel('Password').fill(rider.password);
    await expectAccessible(page, '/signup filled in');
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/signup'));

    await page.goto('/dashboard');
    await page.getByText(`Hello, ${rider.name}`).waitFor();
    await page.getByText('Please provide phone number').waitFor();
    await page.getByText('Please provide your education').waitFor();
    await page.getByText('Please provide your location').waitFor();
    await expectAccessible(page, "a new customer's empty profile");
  });

  it('the purchase form shows every validation message, then places the order', async () => {
    await page.goto(`/purchase/${shock.id}`);
    await page.getByRole('heading', { name: shockName }).waitFor();
    expect(await page.getByLabel('Name').inputValue()).toBe(rider.name);
    expect(await page.getByLabel('Email').inputValue()).toBe(rider.email);
    expect(await page.getByTestId('available').textContent()).toBe(String(shock.available));

    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByText('Phone is required').waitFor();
    await page.getByText("Order can't be empty").waitFor();

    await fillPurchase(page, '0171234', String(shock.minOrder));
    await page.getByText('Must be 11 characters').waitFor();
    await fillPurchase(page, '01234567890', String(shock.minOrder));
    await page.getByText('Provide a Bangladeshi number').waitFor();

    await fillPurchase(page, '01712345678', String(shock.minOrder - 1));
    await page.getByText(`Must order more than ${shock.minOrder} items`).waitFor();
    await fillPurchase(page, '01712345678', String(shock.available + 1));
    await page.getByText(`Only ${shock.available} items available`).waitFor();
    await expectAccessible(page, 'the purchase form with an error');
    await screenshot(page, 'purchase');

    await page.getByLabel('Order amount').fill(String(shock.minOrder));
    await page.getByLabel('Address').fill('House 7, Road 3, Dhanmondi, Dhaka');
    await page.getByRole('button', { name: 'Place Order' }).click();
    await toast(page, 'Successfully placed order.').waitFor();
    await page.waitForFunction(() => (document.querySelector('#field-phone') as HTMLInputElement).value === '');
    expect(await page.getByLabel('Name').inputValue()).toBe(rider.name);
    await page
      .getByTestId('available')
      .filter({ hasText: new RegExp(`^${shock.available - shock.minOrder}$`) })
      .waitFor();
  });

  it('My Orders shows the order Pending; a declined card shows red text, a good one pays it', async () => {
    await page.goto('/dashboard/my-orders');
    const row = page.getByTestId('order-row').filter({ hasText: 'Adjustable Rear Shock Absorber...' });
    await row.getByText('Pending').waitFor();
    await row.getByRole('link', { name: 'Pay now' }).click();

    await page.waitForURL(/\/payment\//);
    await page.getByRole('heading', { name: 'Payment Now' }).waitFor();
    await page.getByText('Test mode — use 4242 4242 4242 4242').waitFor();
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /^Pay / }).click();
    const declined = page.getByText('Your card was declined.');
    await declined.waitFor();
    expect(await declined.getAttribute('class')).toContain('text-red-600');
    await expectAccessible(page, 'the payment page with a declined card');
    await screenshot(page, 'payment');

    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: /^Pay / }).click();
    const congrats = page.getByText(/^Congrats! Your payment is completed\. TxID: pi_test_\w+$/);
    await congrats.waitFor();
    const txId = (await congrats.textContent())?.split('TxID: ')[1];
    await expectAccessible(page, 'the payment page, paid');
    await screenshot(page, 'payment-completed');

    await page.goto('/dashboard/my-orders');
    await row.getByText('Paid', { exact: true }).waitFor();
    expect(await row.getByTestId('transaction-id').textContent()).toBe(txId);
    expect(await row.getByRole('link', { name: 'Pay now' }).count()).toBe(0);
  });

  it('another order is cancelled through the confirm modal and its stock comes back', async () => {
    await page.goto(`/purchase/${shock.id}`);
    await page.getByRole('heading', { name: shockName }).waitFor();
    await fillPurchase(page, '+8801812345678', String(shock.minOrder));
    await toast(page, 'Successfully placed order.').waitFor();
    expect((await partNamed(shop, shockName)).available).toBe(shock.available - 2 * shock.minOrder);

    await page.goto('/dashboard/my-orders');
    const pending = page.getByTestId('order-row').filter({ hasText: 'Pending' });
    await pending.waitFor();
    await screenshot(page, 'my-orders');
    await expectAccessible(page, 'My Orders with a paid and a pending order');
    await pending.getByRole('button', { name: 'Cancel' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Are you sure you want to delete this order', { exact: true }).waitFor();
    await dialog.getByText('You lose all your order data, this process is irreversible.', { exact: true }).waitFor();
    await expectAccessible(page, 'the cancel dialog');
    // Issue 16: the dialog keeps the order or cancels it (no two buttons say "Cancel").
    await dialog.getByRole('button', { name: 'Cancel order' }).click();
    await toast(page, 'Order cancelled.').waitFor();
    await pending.waitFor({ state: 'detached' });
    expect(await page.getByTestId('order-row').count()).toBe(1);
    expect((await partNamed(shop, shockName)).available).toBe(shock.available - shock.minOrder);
  });

  it('the paid part is reviewed and the review shows on the home page', async () => {
    await page.goto('/dashboard/add-review');
    await page.getByRole('heading', { name: 'You can only add a review for paid orders.' }).waitFor();
    const paid = page.getByTestId('paid-order').filter({ hasText: shockName });
    await paid.getByRole('link', { name: 'Add a review' }).click();
    await page.waitForURL(`**/reviews/${shock.id}`);
    await page.getByRole('heading', { name: shockName }).waitFor();
    expect(await page.getByLabel('Name').inputValue()).toBe(rider.name);
    expect(await page.getByLabel('Email').inputValue()).toBe(rider.email);

    await page.getByRole('button', { name: 'Add Review' }).click();
    await page.getByText("Review can't be empty").waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-text');
    await expectAccessible(page, 'the review form with an error');
    await page.getByLabel('Review').fill(reviewText);
    await page.getByRole('button', { name: 'Add Review' }).click();
    await toast(page, 'Thank you for your review!').waitFor();
    expect(await page.getByLabel('Review').inputValue()).toBe('');

    await page.goto('/');
    await page.reload();
    // The reviews slider is built as the visitor nears it.
    await page.getByRole('heading', { name: 'What the Clients Say' }).scrollIntoViewIfNeeded();
    await page
      .getByRole('region', { name: 'Client reviews' })
      .getByText(reviewText)
      .first()
      .waitFor({ state: 'attached' });
  });

  it('on a phone-sized screen each order is a card: nothing wider than the screen, every action in reach', async () => {
    const small = await context.newPage();
    await small.setViewportSize({ width: 375, height: 800 });
    await small.goto('/dashboard/my-orders');
    await small.getByTestId('order-row').first().waitFor();
    const pageWidth = await small.evaluate(() => document.documentElement.scrollWidth);
    expect(pageWidth).toBeLessThanOrEqual(375);
    const rows = small.getByTestId('order-row');
    for (let i = 0; i < (await rows.count()); i++) {
      const box = await rows.nth(i).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    }
    await expectAccessible(small, 'My Orders at 375 px');
    await screenshot(small, 'my-orders-mobile');
    await small.close();
  });

  it('signed out, /dashboard/my-orders goes to /login and comes back there after login', async () => {
    const guest = await shop.newPage();
    try {
      await guest.page.goto('/dashboard/my-orders');
      await guest.page.waitForURL('**/login');
      await guest.page.getByLabel('Email').fill(demo.customer.email);
      await guest.page.getByLabel('Password').fill(demo.customer.password);
      await guest.page.getByRole('button', { name: 'Login', exact: true }).click();
      await guest.page.waitForURL('**/dashboard/my-orders');
      await guest.page.getByTestId('order-row').getByText('Paid', { exact: true }).first().waitFor();
    } finally {
      await guest.context.close();
    }
  });
});
