import type { BrowserContext, Page } from 'playwright-core';
import type { TestUser } from '../api/test/support/testApp';
import { expectAccessible } from './support/axe';
import { loginAs, screenshot, startShop, type Shop } from './support/shop';

/**
 * Issue 34 points 2 and 3 in a browser, in one lean flow (one browser, a handful of full page loads): a customer
 * with a paid order orders it again from My Orders (it lands in the cart), starts a saved list from a part's page,
 * adds the cart to that list, and puts the whole list into the cart. My Orders, the add-to-list dialog, My Lists
 * and the list pass axe and fit at 1280 and 375 px.
 */

interface SeedPart {
  id: string;
  name: string;
  minOrder: number;
  available: number;
  packSize: number;
}

/** Axe and no sideways scroll at 1280 px and at 375 px (back to 1280 px after). */
async function checkAtBothWidths(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await expectAccessible(page, `${name} at ${width} px`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    // Negative while a modal dialog hides the page's scrollbar.
    expect([name, width, Math.max(0, overflow)]).toEqual([name, width, 0]);
    await screenshot(page, `saved-lists-${name.replace(/\W+/g, '-')}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A paid order of `part` at its smallest order, placed and paid with the test gateway's good card. */
async function paidOrder(shop: Shop, buyer: TestUser, part: SeedPart): Promise<string> {
  const gql = async <T>(query: string, variables: Record<string, unknown>): Promise<T> => {
    const result = await shop.app.gql<T>(query, variables, buyer.token);
    if (result.errors?.length || !result.data) throw new Error(JSON.stringify(result.errors));
    return result.data;
  };
  const amount = Math.ceil(part.minOrder / part.packSize) * part.packSize;
  const { placeOrder } = await gql<{ placeOrder: { id: string } }>(
    'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
    { input: { partId: part.id, name: 'Workshop Buyer', phone: '01712345678', orderAmount: amount, address: 'Dhaka' } },
  );
  const { createPaymentIntent } = await gql<{ createPaymentIntent: { id: string } }>(
    'mutation($orderId: ID!) { createPaymentIntent(orderId: $orderId) { id } }',
    { orderId: placeOrder.id },
  );
  const card = { number: '4242 4242 4242 4242', expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: '123' };
  const { payWithTestCard } = await gql<{ payWithTestCard: { succeeded: boolean } }>(
    'mutation($id: ID!, $card: TestCardInput!) { payWithTestCard(paymentIntentId: $id, card: $card) { succeeded } }',
    { id: createPaymentIntent.id, card },
  );
  expect(payWithTestCard.succeeded).toBe(true);
  await gql('mutation($o: ID!, $i: ID!) { confirmPayment(orderId: $o, paymentIntentId: $i) { id } }', {
    o: placeOrder.id,
    i: createPaymentIntent.id,
  });
  return placeOrder.id;
}

describe('order again and saved lists, in a browser (issue 34)', () => {
  let shop: Shop;
  let context: BrowserContext;
  let page: Page;
  let buyer: TestUser;
  let ordered: SeedPart;
  let listed: SeedPart;

  beforeAll(async () => {
    shop = await startShop();
    ({ context, page } = await shop.newPage());
    buyer = await shop.app.signUp({ verified: true, name: 'Workshop Buyer' });
    const { data } = await shop.app.gql<{ parts: { items: SeedPart[] } }>(
      '{ parts(limit: 24) { items { id name minOrder available packSize } } }',
    );
    // Two parts with stock for a few orders of their minimum.
    const plenty = (data?.parts.items ?? []).filter((p) => p.available >= 6 * Math.max(p.minOrder, p.packSize));
    [ordered, listed] = plenty;
    await paidOrder(shop, buyer, ordered);
  });
  afterAll(async () => {
    await context?.close();
    await shop?.close();
  });

  it('order again from My Orders → a list from a part page → the cart into it → the list into the cart', async () => {
    await loginAs(page, buyer.email, buyer.password);

    // 1. My Orders: the paid order goes back into the cart in one step; the cart opens.
    await page.goto('/dashboard/my-orders');
    const row = page.getByTestId('order-row').filter({ hasText: ordered.name.slice(0, 20) });
    await row.waitFor();
    await checkAtBothWidths(page, 'my orders');
    await row.getByRole('button', { name: /^Order again/ }).click();
    await page.waitForURL('**/cart');
    await page.getByText(/Added 1 part from Order #\w+ to your cart\./).waitFor();
    await page
      .getByTestId('cart-line')
      .filter({ hasText: ordered.name.slice(0, 20) })
      .waitFor();

    // 2. A part's page: "Add to a list" names a new list; the part goes in at the buyer's amount.
    await page.goto(`/parts/${listed.id}`);
    await page.getByRole('heading', { level: 1, name: listed.name }).waitFor();
    await page.getByRole('button', { name: 'Add to a list' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add to a list' });
    await dialog.getByRole('radio', { name: 'A new list' }).waitFor();
    await dialog.getByLabel('Name of the new list').fill('Workshop consumables');
    await checkAtBothWidths(page, 'add to a list dialog');
    await dialog.getByRole('button', { name: 'Add to list' }).click();
    await page.getByText('Added to Workshop consumables.').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    // 3. The cart: its lines go into the same list (picked in the dialog, the only list there is).
    await page.getByTestId('cart-badge').click();
    await page.getByRole('heading', { name: 'Your cart' }).waitFor();
    await page.getByRole('button', { name: 'Add to a list (the whole cart)' }).click();
    await dialog.getByRole('radio', { name: 'Workshop consumables (1 part)' }).check();
    await dialog.getByRole('button', { name: 'Add to list' }).click();
    // 4. The toast's link opens the list: both parts; the whole list goes into the cart in one step.
    await page
      .getByTestId('toast')
      .filter({ hasText: 'Added to Workshop consumables.' })
      .first()
      .getByRole('link', { name: 'View list' })
      .click();
    await page.getByRole('heading', { name: 'Workshop consumables' }).waitFor();
    await page.getByTestId('list-line').nth(1).waitFor();
    expect(await page.getByTestId('list-line').count()).toBe(2);
    await checkAtBothWidths(page, 'a saved list');
    // More than the stock of one part: the list is refused as a whole, that row says why and takes the focus.
    const quantity = page.getByLabel(`Quantity of ${listed.name}`);
    const wanted = await quantity.inputValue();
    await quantity.fill(String(listed.available + listed.packSize));
    await quantity.press('Enter');
    await page.getByTestId('list-line-problem').first().waitFor();
    await page.getByRole('button', { name: 'Add list to cart' }).click();
    await page.getByText(/^Nothing was added to your cart: 1 line has a problem\./).waitFor();
    expect(await quantity.evaluate((el) => el === document.activeElement)).toBe(true);
    await checkAtBothWidths(page, 'a saved list refused');
    await quantity.fill(wanted);
    await quantity.press('Enter');
    await page.getByTestId('list-line-problem').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Add list to cart' }).click();
    await page.getByText('Added the 2 parts of Workshop consumables to your cart.').waitFor();
    // The header's cart badge follows at once: both parts are in the cart now.
    expect(await page.getByTestId('cart-badge').getAttribute('aria-label')).toBe('Cart, 2 parts');

    // 5. My Lists: the list, its two parts.
    await page.getByRole('link', { name: '← My Lists' }).click();
    const listRow = page.getByTestId('saved-list-row').filter({ hasText: 'Workshop consumables' });
    await listRow.waitFor();
    expect(await listRow.getByRole('cell').first().innerText()).toMatch(/2$/);
    await checkAtBothWidths(page, 'my lists');
  });
});
