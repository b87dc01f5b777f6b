import { formatDollars } from '@partsyard/common';
import type { BrowserContext, Page } from 'playwright-core';
import { expectAccessible } from './support/axe';
import { mailTo, startMailCatcher, type MailCatcher } from './support/mail';
import { openOverview, overviewToday, todaysSales } from './support/overview';
import { demo, loginAs, screenshot, startShop, type Shop } from './support/shop';

/**
 * Order emails and the admin overview in a browser (issue 14): a customer orders and pays on the site, the
 * receipt arrives in the local mail catcher that `npm start` runs (MailDev), read through its API and its
 * message view; then an admin opens the dashboard and sees the sale on the overview.
 */

const partName = 'Adjustable Rear Shock Absorber 320 mm';

describe('order emails in a browser', () => {
  let catcher: MailCatcher;
  let shop: Shop;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    catcher = await startMailCatcher();
    shop = await startShop(mailTo(catcher));
    ({ context, page } = await shop.newPage());
  });
  afterAll(async () => {
    await context?.close();
    await shop?.close();
    await catcher?.stop();
  });

  it('a customer orders and pays; the order email and the receipt arrive in the mail catcher', async () => {
    await loginAs(page, demo.customer.email, demo.customer.password);
    const { data } = await shop.app.gql<{ parts: { items: { id: string; name: string; minOrder: number }[] } }>(
      'query ($search: String) { parts(search: $search, limit: 5) { items { id name minOrder } } }',
      { search: partName },
    );
    const part = data?.parts.items.find((p) => p.name === partName);
    if (!part) throw new Error('seeded part missing');
    await page.goto(`/purchase/${part.id}`);
    await page.getByRole('heading', { name: partName }).waitFor();
    await page.getByLabel('Phone').fill('01712345678');
    await page.getByLabel('Order amount').fill(String(part.minOrder));
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Successfully placed order.' }).first().waitFor();

    const placed = await catcher.emailTo(demo.customer.email, /pay by/);
    expect(placed.text).toContain(partName);

    await page.goto('/dashboard/my-orders');
    const row = page.getByTestId('order-row').filter({ hasText: 'Pending' }).first();
    await row.getByRole('link', { name: 'Pay now' }).click();
    await page.waitForURL(/\/payment\//);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /^Pay / }).click();
    const congrats = page.getByText(/^Congrats! Your payment is completed\. TxID: pi_test_\w+$/);
    await congrats.waitFor();
    const txId = (await congrats.textContent())?.split('TxID: ')[1] ?? '';

    const receipt = await catcher.emailTo(demo.customer.email, /receipt/);
    expect(receipt.text).toContain(`Transaction id: ${txId}`);
    expect(receipt.text).toContain(partName);
    expect(receipt.html).toContain(txId);

    // The receipt as a person reads it, in the catcher's inbox: its HTML body on a page of its own.
    const { context: inbox, page: reader } = await shop.newPage(375);
    try {
      await reader.goto(`${catcher.api}/email/${receipt.id}/html`);
      await reader.getByRole('heading', { name: 'Payment receipt' }).waitFor();
      await reader.getByText(txId).waitFor();
      await reader.getByRole('cell', { name: new RegExp(partName.slice(0, 20)) }).waitFor();
      await expectAccessible(reader, 'the receipt email');
    } finally {
      await inbox.close();
    }
  });

  it('an admin opening the dashboard lands on the overview and sees the sale, at 1280 px and 375 px', async () => {
    const { cents } = await todaysSales(shop);
    expect(cents).toBeGreaterThan(0);
    for (const width of [1280, 375]) {
      const { context: adminContext, page: admin } = await shop.newPage(width);
      try {
        await loginAs(admin, demo.admin.email, demo.admin.password);
        await openOverview(admin);
        // The sale, as text: today's row of the revenue table (read by screen readers under the chart).
        expect((await overviewToday(admin)).revenue).toBe(formatDollars(cents / 100));
        await admin.getByTestId('top-parts').getByText(partName).waitFor();
        // The chart is drawn (uPlot's canvas), hidden from screen readers.
        await admin.getByTestId('revenue-chart').locator('canvas').first().waitFor();
        expect(await admin.getByTestId('revenue-chart').getAttribute('aria-hidden')).toBe('true');
        await expectAccessible(admin, `the admin overview at ${width} px`);
        expect(await admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await screenshot(admin, `admin-overview-${width}`);
        // The profile stays where the spec has it: /dashboard is My Profile, for an admin too.
        await admin.goto('/dashboard');
        await admin.getByText('Hello, ').first().waitFor();
        expect(new URL(admin.url()).pathname).toBe('/dashboard');
      } finally {
        await adminContext.close();
      }
    }
  });
});
