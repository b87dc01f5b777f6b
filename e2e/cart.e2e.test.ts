import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { expectAccessible } from './support/axe';
import { demo, startShop, type Shop } from './support/shop';

/**
 * Issue 14 in a browser: a visitor fills a cart from the catalog's cards, logs in (the cart merges into the
 * account's), checks out five parts at once, pays them with one test card payment, and sees them paid in My
 * Orders, grouped as one checkout. The cart and the checkout are looked at on a phone (375 px) too.
 * Screenshots go to the system's temporary directory (partsyard-cart/), not into the repository.
 */

const shots = path.join(tmpdir(), 'partsyard-cart');
async function shot(page: Page, name: string) {
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

const toast = (page: Page, text: string | RegExp) => page.getByTestId('toast').filter({ hasText: text }).first();

/** Nothing on the page is wider than the screen. */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** Adds the first `n` parts of the catalog to the cart with their cards' Add to cart buttons. */
async function addFromCatalog(page: Page, n: number) {
  await page.goto('/parts');
  const buttons = page.getByRole('button', { name: /^Add to cart / });
  await buttons.first().waitFor();
  for (let i = 0; i < n; i += 1) {
    await buttons.nth(i).click();
    await page
      .getByTestId('cart-count')
      .filter({ hasText: String(i + 1) })
      .waitFor();
  }
}

async function login(page: Page) {
  await page.getByLabel('Email').fill(demo.customer.email);
  await page.getByLabel('Password').fill(demo.customer.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/cart');
}

async function checkOutAndPay(page: Page, shotName: string) {
  await page.getByLabel('Phone').fill('01712345678');
  await page.getByRole('button', { name: /^Check out and pay / }).click();
  await page.waitForURL(/\/payment\//);
  await page
    .getByRole('heading', { name: 'Payment Now' })
    .waitFor({ timeout: 10_000 })
    .catch(() => undefined);
  if (!(await page.getByTestId('checkout-summary').count())) {
    throw new Error(`the payment page shows no checkout: ${(await page.locator('main').innerText()).slice(0, 400)}`);
  }
  await page.getByText('Test mode — use 4242 4242 4242 4242').waitFor();
  await expectAccessible(page, `the payment page of a checkout (${shotName})`);
  await shot(page, shotName);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
  const congrats = page.getByText(/^Congrats! Your payment is completed\. TxID: pi_test_\w+$/);
  await congrats.waitFor();
  return (await congrats.textContent())?.split('TxID: ')[1] ?? '';
}

describe('a cart of many parts, paid at once, in a browser', () => {
  let shop: Shop;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    shop = await startShop();
    ({ context, page } = await shop.newPage());
  });
  afterAll(async () => {
    await context?.close();
    await shop?.close();
  });

  it('a visitor fills a cart from the catalog; the cart page shows lines, totals and the badge counts parts', async () => {
    await addFromCatalog(page, 5);
    expect(await page.getByTestId('cart-badge').getAttribute('aria-label')).toBe('Cart, 5 parts');
    await page.getByTestId('cart-badge').click();
    await page.getByRole('heading', { name: 'Your cart' }).waitFor();
    const lines = page.getByTestId('cart-line');
    expect(await lines.count()).toBe(5);
    // The stepper adds one pack (one unit here) to the first line, and the line total follows.
    const first = lines.first();
    const before = await first.getByTestId('line-total').textContent();
    await first.getByRole('button', { name: /^1 more of / }).click();
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid="line-total"]')?.textContent !== text,
      before,
    );
    // An amount below the minimum order is refused with the spec's message, and nothing changes.
    const amount = first.getByRole('spinbutton', { name: 'Amount' });
    await amount.fill('1');
    await amount.press('Enter');
    await first.getByText(/^Must order more than \d+ items$/).waitFor();
    await expectAccessible(page, "a visitor's cart with a refused amount");
    await page.reload();
    await page.getByRole('heading', { name: 'Your cart' }).waitFor();
    expect(await page.getByTestId('cart-line').count()).toBe(5);
    await shot(page, 'cart-visitor-1280');
  });

  it('logging in merges the cart into the account; checkout places five orders paid with one payment', async () => {
    await page.getByRole('link', { name: 'Log in to check out' }).click();
    await login(page);
    await page.getByRole('button', { name: /^Check out and pay / }).waitFor();
    expect(await page.getByTestId('cart-line').count()).toBe(5);
    await expectAccessible(page, 'a signed-in cart ready to check out');
    await shot(page, 'cart-checkout-1280');
    const txId = await checkOutAndPay(page, 'checkout-payment-1280');
    expect(await page.getByTestId('cart-badge').getAttribute('aria-label')).toBe('Cart, 0 parts');

    await page.goto('/dashboard/my-orders');
    const group = page.getByTestId('checkout-group');
    await group.getByText(/5 parts/).waitFor();
    await group.getByText(/paid with one payment/).waitFor();
    const paidIds = await page.getByTestId('transaction-id').allTextContents();
    expect(paidIds.filter((id) => id === txId)).toHaveLength(5);
    await expectAccessible(page, 'My Orders with a paid checkout');
    await shot(page, 'my-orders-checkout-1280');
  });

  it('on a phone (375 px) the cart and the checkout fit the screen', async () => {
    const phone = await shop.newPage(375);
    try {
      const p = phone.page;
      await addFromCatalog(p, 2);
      await p.goto('/cart');
      await p.getByRole('heading', { name: 'Your cart' }).waitFor();
      await expectNoSidewaysScroll(p);
      await shot(p, 'cart-visitor-375');
      await p.getByRole('link', { name: 'Log in to check out' }).click();
      await login(p);
      await p.getByRole('button', { name: /^Check out and pay / }).waitFor();
      await expectNoSidewaysScroll(p);
      await expectAccessible(p, 'a signed-in cart at 375 px');
      await shot(p, 'cart-checkout-375');
      await checkOutAndPay(p, 'checkout-payment-375');
      await expectNoSidewaysScroll(p);
      await toast(p, 'Successfully placed order.').count();
    } finally {
      await phone.context.close();
    }
  });
});
