import { demo, loginAs, screenshot, startShop, type Shop } from './support/shop';

describe('the shop in a browser', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop();
  });
  afterAll(() => shop?.close());

  it('a visitor reaches an unknown path and sees the 404 page', async () => {
    const { context, page } = await shop.newPage();
    await page.goto('/no/such/page');
    await page.getByText('Page Not Found: 404!').waitFor();
    await context.close();
  });

  it('the demo customer logs in with the prefilled form and reaches the dashboard', async () => {
    const { context, page } = await shop.newPage();
    await page.goto('/login');
    await page.waitForFunction(
      () => (document.querySelector('#field-email') as HTMLInputElement | null)?.value === 'customer@partsyard.test',
    );
    await loginAs(page, demo.customer.email, demo.customer.password);
    await page.goto('/dashboard');
    await page.getByText('Welcome to Your Dashboard').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeTruthy();
    await screenshot(page, 'dashboard');
    await context.close();
  });
});
