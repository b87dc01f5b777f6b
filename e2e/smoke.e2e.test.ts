import { emulatorRequest } from '../api/test/support/testApp';
import { expectAccessible } from './support/axe';
import { demo, loginAs, screenshot, startShop, type Shop } from './support/shop';

describe('the shop in a browser', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop();
  });
  afterAll(() => shop?.close());

  it('a visitor reaches an unknown path: HTTP 404, and the app shows its 404 page', async () => {
    const { context, page } = await shop.newPage();
    const warnings: string[] = [];
    page.on('console', (m) => ['warning', 'error'].includes(m.type()) && warnings.push(m.text()));
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await page.getByText('Page Not Found: 404!').waitFor();
    expect(await page.title()).toBe('Page not found — PartsYard');
    await expectAccessible(page, 'the 404 page');
    // A page other than home renders once its code is there: no "No `HydrateFallback` element provided".
    await page.goto('/blog');
    await page.getByRole('heading', { name: 'Blog', level: 1 }).waitFor();
    expect(await page.title()).toBe('Blog — PartsYard');
    expect(warnings.filter((w) => /HydrateFallback/.test(w))).toEqual([]);
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
    await page.getByText('Hello, ').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeTruthy();
    await expectAccessible(page, 'the dashboard, as the demo customer');
    await screenshot(page, 'dashboard');
    await context.close();
  });

  it('a page whose code fails to download shows a clear message with a retry, not a blank page', async () => {
    const { context, page } = await shop.newPage();
    await page.goto('/');
    await page.getByText('Popular Moto Parts').waitFor();
    await page.route(/\/assets\/BlogPage-[^/]+\.js$/, (route) => route.abort());
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog' }).click();
    await page.getByText('This page could not be loaded').waitFor();
    await expectAccessible(page, 'the page-could-not-be-loaded page');
    await page.unroute(/\/assets\/BlogPage-[^/]+\.js$/);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { name: 'Blog', exact: true }).waitFor();
    await context.close();
  });

  it('a refused session (401 on protected data) is renewed once from Firebase; refused again, it signs the user out and goes to /', async () => {
    const rider = await shop.app.signUp({ name: 'Refused Rider' });
    const { context, page } = await shop.newPage();
    await loginAs(page, rider.email, rider.password);
    // A token that looks like the customer's (same account, same claims) but that the server did not sign.
    const forge = () =>
      page.evaluate(() => {
        const part = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
        const real = localStorage.getItem('accessToken') ?? '';
        const claims = JSON.parse(atob(real.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))) as object;
        const forged = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.forged-signature`;
        localStorage.setItem('accessToken', forged);
        return forged;
      });
    const stored = () => page.evaluate(() => localStorage.getItem('accessToken'));

    // The Firebase session still stands: the refused request is renewed from it and sent again (issue 32, point 11).
    const forged = await forge();
    await page.goto('/dashboard/my-orders');
    await page.getByRole('heading', { name: 'My Orders' }).waitFor();
    expect(await stored()).not.toBe(forged);
    expect(await stored()).not.toBeNull();

    // The Firebase account deleted meanwhile: the next page's request is refused, its renewal too, and the visitor
    // is signed out and sent home. (A reload would find no Firebase user and ask to log in instead.)
    await emulatorRequest('delete', { idToken: rider.idToken });
    await forge();
    await page.getByRole('link', { name: 'My Profile' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: 'Login' }).waitFor();
    await expectAccessible(page, 'home after a refused session');
    expect(await stored()).toBeNull();
    await context.close();
  });
});
