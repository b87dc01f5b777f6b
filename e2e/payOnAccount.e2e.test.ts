import { sql } from 'drizzle-orm';
import { rowsOf } from '../api/src/db/database';
import { expectWellFormedPdf } from '../api/test/invoicing/pdfCheck';
import { expectAccessible } from './support/axe';
import { mailTo, startMailCatcher, type MailCatcher } from './support/mail';
import { demo, loginAs, screenshot, startShop, type Shop } from './support/shop';

/**
 * Issue 35 point 4 in a browser: the demo company's buyer (Dhaka Moto Works, net 30 days) opens an unpaid order's
 * payment page, sees "Pay on account" beside the card and pays with it; the invoice arrives in MailDev with its PDF,
 * whose figures match; My Company lists it; the shop admin sees the terms and the invoice. axe at 1280 and 375 px.
 */

const buyer = { email: 'buyer@partsyard.test', password: 'Buyer#2026' };

describe('pay on account in a browser', () => {
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

  it('the buyer pays an order on account; the invoice PDF arrives and its figures match; My Company lists it', async () => {
    const { context, page } = await shop.newPage(1280);
    await loginAs(page, buyer.email, buyer.password);
    const { db } = shop.app.server.database;
    const [user] = await rowsOf<{ id: string; firebase_uid: string }>(
      db,
      sql`select id, firebase_uid from users where email = ${buyer.email}`,
    );
    const actor = await shop.app.server.services.users.actorFor(user.id, user.firebase_uid);
    const [part] = await rowsOf<{ id: string; min_order: number }>(
      db,
      sql`select id, min_order from parts where price_cents > 0 and available >= min_order * 2 and price_cents * min_order < 300000 order by name limit 1`,
    );
    const order = await shop.app.server.services.orders.placeOrder(actor, {
      partId: part.id,
      name: 'Nadia Buyer',
      phone: '01712345678',
      address: 'Plot 7, Tejgaon Industrial Area, Dhaka 1208',
      orderAmount: Number(part.min_order),
    });
    const total = `$${(order.totalCents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;

    await page.goto(`/payment/${order.id}`);
    await page.getByRole('heading', { name: 'Pay on account' }).waitFor();
    await page.getByText(/net 30 days/).waitFor();
    await expectAccessible(page, 'the payment page with pay on account, 1280 px');
    await page.getByRole('button', { name: `Pay ${total} on account` }).click();
    const success = page.getByTestId('on-account-success');
    await success.waitFor();
    const reference = /INV-\d{6}/.exec(await success.innerText())?.[0] ?? '';
    expect(reference).not.toBe('');

    const mail = await catcher.emailTo(buyer.email, new RegExp(`^Invoice ${reference}`));
    const detail = (await (await fetch(`${catcher.api}/email/${mail.id}`)).json()) as {
      attachments?: { contentType: string; generatedFileName?: string; fileName?: string }[];
    };
    const attachment = detail.attachments?.find((a) => a.contentType === 'application/pdf');
    expect(attachment).toBeDefined();
    const name = attachment?.generatedFileName ?? attachment?.fileName ?? `${reference}.pdf`;
    const pdf = Buffer.from(await (await fetch(`${catcher.api}/email/${mail.id}/attachment/${name}`)).arrayBuffer());
    const text = expectWellFormedPdf(pdf);
    for (const shown of [
      `(${reference}) Tj`,
      '(Dhaka Moto Works) Tj',
      '(Tax id: BIN 000123456-0101) Tj',
      `(${total}) Tj`,
    ])
      expect(text).toContain(shown);

    await page.setViewportSize({ width: 375, height: 900 });
    await page.goto('/dashboard/company');
    const invoices = page.getByRole('region', { name: 'Invoices' });
    await invoices.getByText(reference, { exact: true }).waitFor();
    await expectAccessible(page, 'My Company with its invoices, 375 px');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'company-invoices-375');
    await context.close();

    const { context: adminContext, page: admin } = await shop.newPage(1280);
    await loginAs(admin, demo.admin.email, demo.admin.password);
    const [company] = await rowsOf<{ id: string }>(db, sql`select id from companies where name = 'Dhaka Moto Works'`);
    await admin.goto(`/dashboard/companies/${company.id}`);
    await admin.getByRole('region', { name: 'Pay on account' }).locator('dd', { hasText: 'Net 30 days' }).waitFor();
    await admin.getByRole('region', { name: 'Invoices' }).getByText(reference, { exact: true }).waitFor();
    await expectAccessible(admin, "a company's page with its terms and invoices (shop admin), 1280 px");
    await adminContext.close();
  });
});
