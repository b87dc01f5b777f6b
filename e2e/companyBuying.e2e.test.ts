import { randomBytes } from 'node:crypto';
import { formatDollars } from '@partsyard/common';
import { and, eq, gt, gte, lte } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { expectWellFormedPdf } from '../api/test/invoicing/pdfCheck';
import { orders, outbox, parts } from '../api/src/db/schema';
import { expectAccessible } from './support/axe';
import { mailTo, startMailCatcher, type MailCatcher } from './support/mail';
import { demo, loginAs, screenshot, startShop, type Shop } from './support/shop';

/**
 * Issue 35's browser journey, as a workshop buys: the shop admin grants a company terms and a company price; its
 * company admin (A) invites a buyer (B), who accepts, and sets B's limit per order; B sees "Your price", checks out
 * above the limit and the order waits for approval (no card form); A approves it by keyboard; B pays it on account;
 * the invoice arrives in MailDev with its PDF, whose figures match the order (the company price, marked as such);
 * My Company and the admin's company page list it. axe at 1280 and 375 px and no sideways scroll along the way.
 * (Creating a company and the invitation's refusals are companies.e2e.test.ts's.)
 */

/** Nothing on the page is wider than the screen. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) throw new Error(`${what} scrolls sideways by ${overflow} px`);
}

describe('a company buys in a browser: prices, a limit, an approval, pay on account, the invoice', () => {
  let shop: Shop;
  let catcher: MailCatcher;
  beforeAll(async () => {
    catcher = await startMailCatcher();
    shop = await startShop(mailTo(catcher));
  });
  afterAll(async () => {
    await shop?.close();
    await catcher?.stop();
  });

  it('A invites B; B buys above the limit at the company price; A approves; B pays on account; the invoice matches', async () => {
    const { services, database } = shop.app.server;
    const a = await shop.app.signUp({ name: 'Ada Owner', verified: true });
    const b = await shop.app.signUp({ name: 'Ben Buyer', verified: true });
    const actorA = await services.users.actorFor(a.userId, a.firebaseUid);
    const actorB = await services.users.actorFor(b.userId, b.firebaseUid);
    if (!actorA || !actorB) throw new Error('no actors');
    const name = `Moto Works ${randomBytes(3).toString('hex')}`;
    const { company } = await services.companies.createCompany(actorA, { name, taxId: 'GB 123 456' });
    // A part between $2 and $200 a unit, with stock for a few orders.
    const [part] = await database.db
      .select()
      .from(parts)
      .where(and(gte(parts.available, 200), gt(parts.priceCents, 200), lte(parts.priceCents, 20_000)))
      .orderBy(parts.name)
      .limit(1);
    const companyUnit = Math.floor(part.priceCents * 0.8) / 100;

    // The shop admin grants net 30 days and $5,000 of credit, and a company price for the part.
    const { context: adminContext, page: admin } = await shop.newPage(1280);
    await loginAs(admin, demo.admin.email, demo.admin.password);
    await admin.goto(`/dashboard/companies/${company.id}`);
    await admin.getByRole('heading', { name, exact: true }).waitFor();
    await admin.getByLabel('Terms', { exact: true }).selectOption('30');
    await admin.getByLabel('Credit limit in dollars').fill('5000');
    await admin.getByRole('button', { name: 'Save terms' }).click();
    await admin.getByText('Terms saved.').waitFor();
    await admin.getByLabel('Part SKU').fill(part.sku);
    await admin.getByLabel('Company unit price ($)').fill('0');
    await admin.getByRole('button', { name: 'Save part price' }).click();
    await admin.getByLabel('Company unit price ($)').and(admin.locator('[aria-invalid="true"]')).waitFor();
    await expectAccessible(admin, "a company's page with a price error (shop admin), 1280 px");
    await admin.getByLabel('Company unit price ($)').fill(companyUnit.toFixed(2));
    await admin.getByRole('button', { name: 'Save part price' }).click();
    await admin.getByText(`Company price for ${part.sku} saved.`).waitFor();
    await admin.getByTestId('company-price-list').getByText(formatDollars(companyUnit)).first().waitFor();
    await admin.setViewportSize({ width: 375, height: 900 });
    await expectAccessible(admin, "a company's page with terms and prices (shop admin), 375 px");
    await expectNoSidewaysScroll(admin, "a company's page (shop admin)");

    // A invites B, who accepts.
    const { context: contextA, page: pageA } = await shop.newPage(1280);
    await loginAs(pageA, a.email, a.password);
    await pageA.goto('/dashboard/company');
    await pageA.getByLabel('Email address').fill(b.email);
    await pageA.getByRole('button', { name: 'Send invitation' }).click();
    await pageA.getByText(`Invitation sent to ${b.email}.`).waitFor();
    const { context: contextB, page: pageB } = await shop.newPage(375);
    await loginAs(pageB, b.email, b.password);
    await pageB.goto('/dashboard/company');
    await pageB.getByRole('button', { name: `Accept the invitation from ${name}` }).click();
    await pageB.getByRole('heading', { name: `My Company: ${name}` }).waitFor();

    // A sets B's limit to $1: a bad amount first, refused under its field.
    await pageA.reload();
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

    // B sees their price on the part's page, and checks out above the limit: it waits for approval.
    await pageB.goto(`/parts/${part.id}`);
    const yourPrice = pageB.getByTestId('your-price').first();
    await yourPrice.waitFor();
    expect(await yourPrice.innerText()).toContain(formatDollars(companyUnit));
    await expectAccessible(pageB, "a part's page with the company's price, 375 px");
    await services.cart.addToCart(actorB, part.id, Math.max(part.minOrder, 1));
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
    const asked = await database.db.select().from(outbox).where(eq(outbox.kind, 'approval_requested'));
    expect(asked.map((m) => m.toAddress)).toContain(a.email);
    const [order] = await database.db.select().from(orders).where(eq(orders.userId, b.userId));
    expect([order.unitPriceCents, order.companyPriced]).toEqual([Math.round(companyUnit * 100), true]);
    const total = formatDollars(order.totalCents / 100);

    // A approves it, by keyboard.
    await pageA.reload();
    const section = pageA.getByRole('region', { name: 'Awaiting approval' });
    const item = section.getByTestId('awaiting-approval').filter({ hasText: 'Ben Buyer' });
    await item.waitFor();
    await expectAccessible(pageA, 'My Company with an order awaiting approval, 1280 px');
    await pageA.setViewportSize({ width: 375, height: 900 });
    await expectAccessible(pageA, 'My Company with an order awaiting approval, 375 px');
    await expectNoSidewaysScroll(pageA, 'My Company with an order awaiting approval');
    await item.getByRole('button', { name: /^Approve/ }).focus();
    await pageA.keyboard.press('Enter');
    await pageA.getByText('Approved: Ben Buyer can pay for it now.').waitFor();
    await section.getByText('No orders await your approval.').waitFor();

    // B pays it on account from My Orders.
    await pageB.goto('/dashboard/my-orders');
    await pageB
      .getByRole('link', { name: /^Pay now/ })
      .first()
      .click();
    await pageB.waitForURL(/\/payment\//);
    await pageB.getByRole('heading', { name: 'Pay on account' }).waitFor();
    await pageB.getByText(/net 30 days/).waitFor();
    await expectAccessible(pageB, 'the payment page with pay on account, 375 px');
    await pageB.getByRole('button', { name: `Pay ${total} on account` }).click();
    const success = pageB.getByTestId('on-account-success');
    await success.waitFor();
    const reference = /INV-\d{6}/.exec(await success.innerText())?.[0] ?? '';
    expect(reference).not.toBe('');

    // The invoice arrives with its PDF, whose figures are the order's.
    const mail = await catcher.emailTo(b.email, new RegExp(`^Invoice ${reference}`));
    const detail = (await (await fetch(`${catcher.api}/email/${mail.id}`)).json()) as {
      attachments?: { contentType: string; generatedFileName?: string; fileName?: string }[];
    };
    const attachment = detail.attachments?.find((x) => x.contentType === 'application/pdf');
    expect(attachment).toBeDefined();
    const file = attachment?.generatedFileName ?? attachment?.fileName ?? `${reference}.pdf`;
    const pdf = Buffer.from(await (await fetch(`${catcher.api}/email/${mail.id}/attachment/${file}`)).arrayBuffer());
    const text = expectWellFormedPdf(pdf);
    for (const shown of [
      `(${reference}) Tj`,
      `(${name}) Tj`,
      '(Tax id: GB 123 456) Tj',
      '(your price) Tj',
      `(${formatDollars(companyUnit)}) Tj`,
      `(${total}) Tj`,
    ])
      expect(text).toContain(shown);

    // My Company lists it; so does the shop admin's company page.
    await pageB.goto('/dashboard/company');
    await pageB.getByRole('region', { name: 'Invoices' }).getByText(reference, { exact: true }).waitFor();
    await expectAccessible(pageB, 'My Company with its invoices (buyer), 375 px');
    await expectNoSidewaysScroll(pageB, 'My Company with its invoices');
    await screenshot(pageB, 'company-invoices-375');
    await admin.setViewportSize({ width: 1280, height: 900 });
    await admin.reload();
    await admin.getByRole('region', { name: 'Invoices' }).getByText(reference, { exact: true }).waitFor();
    await expectAccessible(admin, "a company's page with its invoice (shop admin), 1280 px");
    await adminContext.close();
    await contextA.close();
    await contextB.close();
  });
});
