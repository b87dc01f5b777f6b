import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expectAccessible } from './support/axe';
import { demo, loginAs, screenshot, startShop, type Shop } from './support/shop';

/**
 * Issue 35 point 1 in a browser: customer A creates a company (the server's message under its field first) and
 * invites B's verified address; B signs in, sees the invitation and accepts it; A sees B as a buyer. axe at 1280
 * and 375 px along the way; a shop admin finds the company in Companies and opens it.
 */

/** Nothing on the page is wider than the screen. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) throw new Error(`${what} scrolls sideways by ${overflow} px`);
}

describe('companies in a browser: create, invite, accept', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop();
  });
  afterAll(() => shop?.close());

  it('A creates a company and invites B; B accepts; A sees B as a buyer', async () => {
    const a = await shop.app.signUp({ name: 'Ada Owner', verified: true });
    const b = await shop.app.signUp({ name: 'Ben Buyer', verified: true });
    const name = `Moto Works ${randomBytes(3).toString('hex')}`;

    const { context: contextA, page: pageA } = await shop.newPage(1280);
    await loginAs(pageA, a.email, a.password);
    await pageA.goto('/dashboard/company');
    await pageA.getByRole('heading', { name: 'Create a company' }).waitFor();
    await pageA.getByLabel('Company name').fill(name);
    await pageA.getByLabel('Tax number').fill('GB#123');
    await pageA.getByRole('button', { name: 'Create company' }).click();
    await pageA.getByText('A tax number is 1 to 50 letters, digits, spaces, dots, dashes or slashes').waitFor();
    expect(await pageA.getByLabel('Tax number').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(pageA, 'My Company: the create form with an error, 1280 px');

    await pageA.getByLabel('Tax number').fill('GB 123 456');
    await pageA.getByRole('button', { name: 'Create company' }).click();
    await pageA.getByRole('heading', { name: `My Company: ${name}` }).waitFor();
    await pageA.getByLabel('Address name').fill('Main workshop');
    await pageA.getByLabel('Address', { exact: true }).fill('12 Harbour Road\nLeeds');
    await pageA.getByRole('button', { name: 'Add address' }).click();
    await pageA.getByText('Address added.').waitFor();
    await pageA.getByLabel('Email address').fill(b.email);
    await pageA.getByRole('button', { name: 'Send invitation' }).click();
    await pageA.getByText(`Invitation sent to ${b.email}.`).waitFor();
    await pageA.getByTestId('invitation-row').filter({ hasText: b.email }).waitFor();
    await expectAccessible(pageA, 'My Company as its company admin, 1280 px');

    const { context: contextB, page: pageB } = await shop.newPage(375);
    await loginAs(pageB, b.email, b.password);
    await pageB.goto('/dashboard/company');
    const invitation = pageB.getByTestId('my-invitation').filter({ hasText: name });
    await invitation.waitFor();
    await expectAccessible(pageB, 'My Company with an invitation, 375 px');
    await expectNoSidewaysScroll(pageB, 'My Company with an invitation');
    await invitation.getByRole('button', { name: `Accept the invitation from ${name}` }).click();
    await pageB.getByRole('heading', { name: `My Company: ${name}` }).waitFor();
    await pageB.getByText('12 Harbour Road').waitFor();
    await pageB.getByRole('button', { name: 'Leave company' }).waitFor();
    await expectAccessible(pageB, 'My Company as a buyer, 375 px');
    await screenshot(pageB, 'company-buyer-375');

    await pageA.setViewportSize({ width: 375, height: 900 });
    await pageA.reload();
    const member = pageA.getByTestId('member-row').filter({ hasText: b.email });
    await member.waitFor();
    expect(await member.getByLabel('Role of Ben Buyer').inputValue()).toBe('BUYER');
    await expectAccessible(pageA, 'My Company as its company admin, 375 px');
    await expectNoSidewaysScroll(pageA, 'My Company as its company admin');
    await screenshot(pageA, 'company-admin-375');
    await contextA.close();
    await contextB.close();

    const { context: contextAdmin, page: admin } = await shop.newPage(1280);
    await loginAs(admin, demo.admin.email, demo.admin.password);
    await admin.goto('/dashboard/companies');
    await admin.getByRole('searchbox', { name: 'Search companies' }).fill(name);
    await admin.getByTestId('company-row').filter({ hasText: 'GB 123 456' }).waitFor();
    await expectAccessible(admin, 'Companies, 1280 px');
    await admin.getByRole('link', { name }).click();
    await admin.getByRole('heading', { name, exact: true }).waitFor();
    await admin.getByTestId('member-row').filter({ hasText: b.email }).waitFor();
    await expectAccessible(admin, "A company's page for a shop admin, 1280 px");
    await contextAdmin.close();
  });
});
