import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { demo, loginAs, screenshot, startShop, verificationLink, type Shop } from './support/shop';

/**
 * Identity in the browser (issue 10): a new account is told its email is not verified and can verify it;
 * only then can an admin make it admin (and take that back). And every page loads under the shop's
 * Content-Security-Policy without the browser reporting a violation.
 */

const row = (page: Page, text: string) => page.locator('tr', { hasText: text });
const notice = (page: Page) => page.getByRole('region', { name: 'Account verification' });

describe('identity in a browser', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop();
  });
  afterAll(() => shop?.close());

  it('a new customer is told the email is unverified, verifies it by the link, and only then can be made admin', async () => {
    const email = `rider-${randomBytes(4).toString('hex')}@example.test`;
    const { context, page } = await shop.newPage(375);
    await page.goto('/signup');
    await page.getByLabel('Name').fill('Vera Rider');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('Secret#123');
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/signup'));
    await notice(page).getByText(`Your email address ${email} is not verified yet.`).waitFor();
    await screenshot(page, 'email-not-verified-375');

    // An admin sees the account as unverified, and cannot make it admin yet.
    const admin = await shop.newPage();
    await loginAs(admin.page, demo.admin.email, demo.admin.password);
    await admin.page.goto('/dashboard/users');
    await row(admin.page, email).getByText('(not verified)').waitFor();
    expect(await row(admin.page, email).getByRole('button', { name: 'Make Admin' }).isDisabled()).toBe(true);

    // The customer asks for the email, follows its link (the emulator's own page), and says so.
    await notice(page).getByRole('button', { name: 'Send verification email' }).click();
    await notice(page).getByText(`We sent a verification link to ${email}.`).waitFor();
    const link = await verificationLink(shop, email);
    const mailbox = await context.newPage();
    await mailbox.goto(link);
    await mailbox.close();
    await notice(page).getByRole('button', { name: 'I have verified it' }).click();
    await page.getByText('Your email address is verified.').waitFor();
    await notice(page).waitFor({ state: 'detached' });

    // Now the admin can make it admin, and take that back.
    await admin.page.reload();
    const riderRow = row(admin.page, email);
    await riderRow.getByRole('button', { name: 'Make Admin' }).click();
    await admin.page
      .getByRole('dialog', { name: 'Make this user an admin?' })
      .getByRole('button', { name: 'Make admin' })
      .click();
    await admin.page.getByText(`Made ${email} an admin.`).waitFor();
    await riderRow.getByRole('button', { name: 'Remove admin' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Remove admin rights?' });
    await dialog.getByRole('button', { name: 'Remove admin' }).click();
    await admin.page.getByText(`${email} is no longer an admin.`).waitFor();
    await riderRow.getByRole('button', { name: 'Make Admin' }).waitFor();
    // Their own row has neither Delete nor Remove admin.
    const own = row(admin.page, demo.admin.email);
    expect(await own.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
    expect(await own.getByRole('button', { name: 'Remove admin' }).count()).toBe(0);
    await admin.context.close();
    await context.close();
  });

  it('every page, signed out, as a customer and as an admin, loads under the Content-Security-Policy', async () => {
    const parts = await shop.app.gql<{ parts: { items: { id: string }[] } }>('{ parts(limit: 1) { items { id } } }');
    const partId = parts.data?.parts.items[0].id ?? '';
    const visited: string[] = [];
    const visit = async (page: Page, path: string, text: string) => {
      const answer = await page.goto(path);
      expect({ path, csp: answer?.headers()['content-security-policy'] ?? '' }).toEqual({
        path,
        csp: expect.stringContaining("script-src 'self'"),
      });
      await page.locator('main').getByText(text).first().waitFor();
      visited.push(path);
    };

    const visitor = await shop.newPage();
    for (const [path, text] of [
      ['/', 'Popular Moto Parts'],
      ['/parts', 'All Parts'],
      [`/parts/${partId}`, 'About this part'],
      ['/cart', 'Your cart'],
      ['/portfolio', 'Portfolio'],
      ['/blog', 'Blog'],
      ['/login', 'Continue With Google'],
      ['/signup', 'Sign Up'],
      ['/no/such/page', 'Page Not Found: 404!'],
    ])
      await visit(visitor.page, path, text);
    await visitor.context.close();

    const customer = await shop.newPage();
    await loginAs(customer.page, demo.customer.email, demo.customer.password);
    const token = await customer.page.evaluate(() => localStorage.getItem('accessToken') ?? '');
    const order = await shop.app.gql<{ placeOrder: { id: string } }>(
      'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
      { input: { partId, name: 'Demo Customer', phone: '01712345678', orderAmount: 50, address: '' } },
      token,
    );
    for (const [path, text] of [
      [`/purchase/${partId}`, 'Place Order'],
      [`/payment/${order.data?.placeOrder.id}`, 'Payment Now'],
      [`/reviews/${partId}`, 'Add Review'],
      ['/dashboard', 'Welcome to Your Dashboard'],
      ['/dashboard/my-orders', 'Pay now'],
      ['/dashboard/add-review', 'You can only add a review for paid orders.'],
    ])
      await visit(customer.page, path, text);
    await customer.context.close();

    const admin = await shop.newPage();
    await loginAs(admin.page, demo.admin.email, demo.admin.password);
    for (const [path, text] of [
      ['/dashboard/overview', 'Revenue per day'],
      ['/dashboard/users', 'All Users'],
      ['/dashboard/all-orders', 'Manage All Orders'],
      ['/dashboard/manage-parts', 'Manage Parts'],
      ['/dashboard/add-parts', 'Add part'],
      ['/dashboard/messages', 'Messages'],
    ])
      await visit(admin.page, path, text);
    // The GraphQL playground (its editor runs workers of ours).
    const playground = await admin.page.goto('/graphql');
    expect(playground?.headers()['content-security-policy']).toContain("script-src 'self'");
    await admin.page.locator('.graphiql-container').waitFor();
    await admin.page.waitForTimeout(500);
    await admin.context.close();

    expect(visited.length).toBe(21);
    expect(shop.cspViolations()).toEqual([]);
  });
});
