import { randomBytes } from 'node:crypto';
import { and, eq, gte, gt } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { outbox, parts } from '../api/src/db/schema';
import { expectAccessible } from './support/axe';
import { loginAs, screenshot, startShop, type Shop } from './support/shop';

/**
 * Issue 35 point 2 in a browser: a company admin (A) sets a buyer's (B) limit per order on My Company; B checks out
 * above it and the payment page says it awaits approval, with no card form; A sees it under "Awaiting approval"
 * (axe at 1280 and 375 px) and approves it; B's My Orders then offers Pay now. The company and its members are
 * made through the services (the invitation's journey is companies.e2e.test.ts's).
 */

/** Nothing on the page is wider than the screen. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) throw new Error(`${what} scrolls sideways by ${overflow} px`);
}

describe('approvals in a browser: a limit, a checkout above it, approved', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop();
  });
  afterAll(() => shop?.close());

  it('A sets B’s limit; B checks out above it; A approves; B can pay', async () => {
    const { services, database } = shop.app.server;
    const a = await shop.app.signUp({ name: 'Ada Owner', verified: true });
    const b = await shop.app.signUp({ name: 'Ben Buyer', verified: true });
    const actorOf = async (user: typeof a) => {
      const actor = await services.users.actorFor(user.userId, user.firebaseUid);
      if (!actor) throw new Error(`no actor for ${user.email}`);
      return actor;
    };
    const [actorA, actorB] = [await actorOf(a), await actorOf(b)];
    const name = `Moto Works ${randomBytes(3).toString('hex')}`;
    const company = await services.companies.createCompany(actorA, { name, taxId: 'GB 123 456' });
    const invitation = await services.companies.inviteToCompany(actorA, company.company.id, {
      email: b.email,
      role: 'buyer',
    });
    await services.companies.acceptInvitation(actorB, invitation.id);
    const [part] = await database.db
      .select()
      .from(parts)
      .where(and(gte(parts.available, 50), gt(parts.priceCents, 100)))
      .limit(1);
    await services.cart.addToCart(actorB, part.id, Math.max(part.minOrder, 1));

    // A sets B's limit to $1 on My Company: a bad amount first, refused under its field.
    const { context: contextA, page: pageA } = await shop.newPage(1280);
    await loginAs(pageA, a.email, a.password);
    await pageA.goto('/dashboard/company');
    const member = pageA.getByTestId('member-row').filter({ hasText: b.email });
    await member.waitFor();
    const limit = member.getByLabel('Limit per order ($)');
    await limit.fill('ten');
    await member.getByRole('button', { name: 'Save limit of Ben Buyer' }).click();
    await member.getByText(/^Write the limit in dollars and cents/).waitFor();
    expect(await limit.getAttribute('aria-invalid')).toBe('true');
    await limit.fill('1');
    await member.getByRole('button', { name: 'Save limit of Ben Buyer' }).click();
    await pageA.getByText("Ben Buyer's limit per order is saved.").waitFor();

    // B checks out above it: placed, awaiting approval, no card form.
    const { context: contextB, page: pageB } = await shop.newPage(375);
    await loginAs(pageB, b.email, b.password);
    await pageB.goto('/cart');
    const checkOut = pageB.getByRole('button', { name: /^Check out and pay / });
    await checkOut.waitFor();
    await pageB.getByLabel('Phone').fill('01712345678');
    await checkOut.click();
    await pageB.waitForURL(/\/payment\//);
    await pageB.getByTestId('order-awaiting-approval').waitFor();
    expect(await pageB.getByLabel('Card number').count()).toBe(0);
    await expectAccessible(pageB, 'the payment page of an order awaiting approval, 375 px');
    await expectNoSidewaysScroll(pageB, 'the payment page of an order awaiting approval');
    await screenshot(pageB, 'awaiting-approval-payment-375');
    // A was emailed to decide.
    const asked = await database.db.select().from(outbox).where(eq(outbox.kind, 'approval_requested'));
    expect(asked.map((m) => m.toAddress)).toContain(a.email);

    // A sees it and approves it.
    await pageA.reload();
    const section = pageA.getByRole('region', { name: 'Awaiting approval' });
    const item = section.getByTestId('awaiting-approval').filter({ hasText: 'Ben Buyer' });
    await item.waitFor();
    await expectAccessible(pageA, 'My Company with an order awaiting approval, 1280 px');
    await pageA.setViewportSize({ width: 375, height: 900 });
    await expectAccessible(pageA, 'My Company with an order awaiting approval, 375 px');
    await expectNoSidewaysScroll(pageA, 'My Company with an order awaiting approval');
    await screenshot(pageA, 'awaiting-approval-admin-375');
    await item.getByRole('button', { name: /^Approve/ }).focus();
    await pageA.keyboard.press('Enter');
    await pageA.getByText('Approved: Ben Buyer can pay for it now.').waitFor();
    await section.getByText('No orders await your approval.').waitFor();

    // B's order is now to be paid.
    await pageB.goto('/dashboard/my-orders');
    await pageB
      .getByRole('link', { name: /^Pay now/ })
      .first()
      .waitFor();
    await contextA.close();
    await contextB.close();
  });
});
