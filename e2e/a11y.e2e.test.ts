import type { Page } from 'playwright-core';
import { expectAccessible } from './support/axe';
import { demo, loginAs, screenshot, startShop, type Shop } from './support/shop';

/**
 * Every page and state of the shop, signed out, as a customer and as an admin, at 1280 and 375 px, with
 * axe-core (WCAG 2.1 AA); the keyboard (skip link, Escape, focus going back), the phone (dashboard menu,
 * tables as cards), and Google sign-in with the Auth emulator, offline.
 */

/** Waits for the page's main content to have rendered (not a spinner). */
const settled = async (page: Page) => {
  await page.locator('main h1, main h2').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('main .loading'));
};

/** The page scrolls sideways by less than a pixel: nothing is wider than the screen. */
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Every visible button and link in main lies within the screen's width. */
const actionsInReach = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('main button, main a'))
      .filter((el) => el.offsetParent !== null)
      .every((el) => {
        const box = el.getBoundingClientRect();
        return box.left >= 0 && box.right <= window.innerWidth + 0.5;
      }),
  );

describe('accessibility and phones in a browser', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop();
  });
  afterAll(() => shop?.close());

  it.each([1280, 375])('every public page passes axe at %i px, signed out', async (width) => {
    const { context, page } = await shop.newPage(width);
    for (const path of ['/', '/parts', '/portfolio', '/blog', '/login', '/signup', '/no/such/page']) {
      await page.goto(path);
      await settled(page);
      await expectAccessible(page, `${path} at ${width} px, signed out`);
      expect([path, await noSidewaysScroll(page)]).toEqual([path, true]);
    }
    await page.goto('/parts');
    const href = (await page.locator('main a[href^="/parts/"]').first().getAttribute('href')) ?? '';
    await page.goto(href);
    await page.getByRole('link', { name: 'Purchase', exact: true }).waitFor();
    await expectAccessible(page, `a part's page at ${width} px`);
    await screenshot(page, `part-${width}`);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password').fill('');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByText('Provide a valid email').waitFor();
    await expectAccessible(page, `/login with errors at ${width} px`);
    await screenshot(page, `login-errors-${width}`);
    await context.close();
  });

  it('the keyboard: a skip link first, Escape closes the menus and gives focus back, no invisible tab stop', async () => {
    const { context, page } = await shop.newPage(1280);
    await page.goto('/blog');
    await page.getByRole('heading', { name: 'Blog', level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    const first = page.locator(':focus');
    expect(await first.textContent()).toBe('Skip to content');
    expect(await first.isVisible()).toBe(true);
    await expectAccessible(page, '/blog with the skip link focused');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');

    // Every tab stop of the page is visible (no hidden checkbox or off-screen control takes focus).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const invisible: string[] = [];
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Tab');
      const seen = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const box = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        const visible = box.width > 1 && box.height > 1 && style.opacity !== '0' && style.visibility !== 'hidden';
        return visible ? '' : el.outerHTML.slice(0, 120);
      });
      if (seen) invisible.push(seen);
    }
    expect(invisible).toEqual([]);

    // The account menu: Escape closes it and focus goes back to its button.
    await loginAs(page, demo.customer.email, demo.customer.password);
    await page.goto('/blog');
    const account = page.getByRole('button', { name: 'Account menu' });
    await account.click();
    await page.getByRole('link', { name: 'Dashboard' }).waitFor();
    await expectAccessible(page, 'the account menu open');
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Dashboard' }).waitFor({ state: 'hidden' });
    expect(await account.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });

  it('at 375 px the site menu is a drawer that Escape closes, giving focus back to its button', async () => {
    const { context, page } = await shop.newPage(375);
    await page.goto('/portfolio');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const open = page.getByRole('button', { name: 'Open menu' });
    await open.click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await drawer.getByRole('link', { name: 'Blog' }).waitFor();
    await expectAccessible(page, 'the site drawer open at 375 px');
    await screenshot(page, 'site-drawer-375');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    expect(await open.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });

  it('a customer: every dashboard page, the forms with errors and the dialogs pass axe at 1280 and 375 px', async () => {
    for (const width of [1280, 375]) {
      const { context, page } = await shop.newPage(width);
      await loginAs(page, demo.customer.email, demo.customer.password);
      for (const path of ['/dashboard', '/dashboard/my-orders', '/dashboard/add-review', '/parts', '/']) {
        await page.goto(path);
        await settled(page);
        await expectAccessible(page, `${path} at ${width} px, as a customer`);
        expect([path, await noSidewaysScroll(page)]).toEqual([path, true]);
      }

      await page.goto('/dashboard');
      await page.getByRole('button', { name: 'Edit profile' }).click();
      await page.getByRole('button', { name: 'Update Info' }).waitFor();
      await expectAccessible(page, `the profile form at ${width} px`);
      await screenshot(page, `profile-${width}`);

      // My Orders: one card per order below md, every action in reach; the cancel dialog names the order.
      const { data } = await shop.app.gql<{ parts: { items: { id: string; minOrder: number }[] } }>(
        '{ parts(limit: 1) { items { id minOrder } } }',
      );
      const part = data?.parts.items[0];
      if (!part) throw new Error('no part');
      await page.goto(`/purchase/${part.id}`);
      await page.getByRole('button', { name: 'Place Order' }).click();
      await page.getByText('Phone is required').waitFor();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-phone');
      await expectAccessible(page, `the purchase form with errors at ${width} px`);
      await screenshot(page, `purchase-errors-${width}`);
      await page.getByLabel('Phone').fill('01712345678');
      await page.getByLabel('Order amount').fill(String(part.minOrder));
      await page.getByRole('button', { name: 'Place Order' }).click();
      const toast = page.getByTestId('toast').filter({ hasText: 'Successfully placed order.' });
      await toast.getByRole('link', { name: 'Pay now' }).waitFor();
      await expectAccessible(page, `the order toast at ${width} px`);

      await page.goto('/dashboard/my-orders');
      const unpaid = page.getByTestId('order-row').filter({ hasText: 'Pending' }).first();
      await unpaid.waitFor();
      expect(await noSidewaysScroll(page)).toBe(true);
      expect(await actionsInReach(page)).toBe(true);
      await screenshot(page, `my-orders-${width}`);
      const number = await unpaid.getByTestId('order-number').textContent();
      await unpaid.getByRole('button', { name: 'Cancel' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(`Order ${number} of `).waitFor();
      await expectAccessible(page, `the cancel dialog at ${width} px`);
      await screenshot(page, `cancel-dialog-${width}`);
      await dialog.getByRole('button', { name: 'Keep order' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await unpaid.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement)).toBe(
        true,
      );
      await unpaid.getByRole('link', { name: 'Pay now' }).click();
      await page.getByRole('heading', { name: 'Payment Now' }).waitFor();
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.getByText('Your card number is incomplete.').waitFor();
      expect(await page.getByLabel('Card number').getAttribute('aria-invalid')).toBe('true');
      await expectAccessible(page, `the payment form with an error at ${width} px`);
      await screenshot(page, `payment-error-${width}`);
      await context.close();
    }
  });

  it('at 375 px the dashboard menu shows in the page, closes on a choice and on Escape', async () => {
    const { context, page } = await shop.newPage(375);
    await loginAs(page, demo.customer.email, demo.customer.password);
    await page.goto('/dashboard');
    await page.getByText('Welcome to Your Dashboard').waitFor();
    const menuButton = page.getByRole('button', { name: 'Menu', exact: true });
    const menu = page.getByRole('navigation', { name: 'Dashboard' });
    expect(await menu.isVisible()).toBe(false);
    await menuButton.click();
    const first = menu.getByRole('link', { name: 'My Profile' });
    await first.waitFor();
    // The first item is in view, below the sticky header, not under it.
    const header = await page.locator('header').boundingBox();
    const item = await first.boundingBox();
    expect(header && item && item.y >= header.y + header.height).toBe(true);
    await expectAccessible(page, 'the dashboard menu open at 375 px');
    await screenshot(page, 'dashboard-menu-375');
    await menu.getByRole('link', { name: 'My Orders' }).click();
    await page.waitForURL('**/dashboard/my-orders');
    await menu.waitFor({ state: 'hidden' });
    await menuButton.click();
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    expect(await menuButton.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });

  it.each([1280, 375])(
    "an admin: a part's Edit page (numbers, fitment, stock) passes axe at %i px, every action on screen",
    async (width) => {
      // Issue 33 point 5, on the demo chain: its brand, category, number and fitment rows are shown.
      const { context, page } = await shop.newPage(width);
      await loginAs(page, demo.admin.email, demo.admin.password);
      await page.goto('/dashboard/manage-parts?q=O-Ring');
      await page.getByRole('link', { name: 'Edit O-Ring Drive Chain 520 x 120 Links' }).click();
      await page.getByRole('heading', { name: 'Edit O-Ring Drive Chain 520 x 120 Links' }).waitFor();
      await page.getByTestId('fitment-row').first().waitFor();
      await expectAccessible(page, `a part's Edit page at ${width} px`);
      expect(await noSidewaysScroll(page)).toBe(true);
      expect(await actionsInReach(page)).toBe(true);
      await screenshot(page, `admin-edit-part-${width}`);
      await context.close();
    },
  );

  it('an admin: every admin page, the forms with errors and the dialogs pass axe; tables are cards at 375 px', async () => {
    for (const width of [1280, 375]) {
      const { context, page } = await shop.newPage(width);
      await loginAs(page, demo.admin.email, demo.admin.password);
      for (const path of [
        '/dashboard',
        '/dashboard/users',
        '/dashboard/all-orders',
        '/dashboard/manage-parts',
        '/dashboard/messages',
        '/dashboard/add-parts',
      ]) {
        await page.goto(path);
        await settled(page);
        if (path !== '/dashboard' && path !== '/dashboard/add-parts' && path !== '/dashboard/messages')
          await page.locator('tbody tr').first().waitFor();
        await expectAccessible(page, `${path} at ${width} px, as an admin`);
        expect([path, await noSidewaysScroll(page)]).toEqual([path, true]);
        expect([path, await actionsInReach(page)]).toEqual([path, true]);
        await screenshot(page, `admin${path.replace(/\//g, '-')}-${width}`);
      }

      await page.getByRole('button', { name: 'Add part' }).click();
      await page.getByText("The part's name is required").waitFor();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-name');
      await page.getByLabel('Minimum order').fill('50');
      await page.getByLabel('Available parts').fill('10');
      await page.getByRole('button', { name: 'Add part' }).click();
      await page
        .getByText("Minimum order can't be more than the available parts (10): nobody could order it")
        .waitFor();
      await expectAccessible(page, `Add A Part with errors at ${width} px`);
      await screenshot(page, `add-part-errors-${width}`);

      await page.goto('/dashboard/users');
      await page.getByRole('button', { name: 'Make Admin' }).first().click();
      await page.getByRole('dialog', { name: 'Make this user an admin?' }).waitFor();
      await expectAccessible(page, `the grant dialog at ${width} px`);
      await screenshot(page, `grant-dialog-${width}`);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'hidden' });

      await page.goto('/dashboard/all-orders');
      await page.getByRole('button', { name: 'Mark shipped' }).first().click();
      await page.getByRole('dialog', { name: 'Mark this order shipped?' }).waitFor();
      await expectAccessible(page, `the ship dialog at ${width} px`);
      await screenshot(page, `ship-dialog-${width}`);
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
      await context.close();
    }
  });

  it('Google sign-in works offline with the Auth emulator (embedded default), under no remote script', async () => {
    const { context, page } = await shop.newPage(1280);
    const foreign: string[] = [];
    // Offline: anything but this machine (the shop, the Auth emulator) is refused, and noted.
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (['127.0.0.1', 'localhost'].includes(url.hostname) || url.protocol === 'data:') return route.continue();
      foreign.push(url.href);
      return route.abort();
    });
    await page.goto('/blog');
    await page.getByRole('heading', { name: 'Blog', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Login' }).click();
    await page.getByRole('button', { name: 'Continue With Google' }).click();
    const chooser = page.getByRole('dialog', { name: 'Sign in with Google' });
    await chooser.getByLabel('Google email').fill('nope@local');
    await chooser.getByRole('button', { name: 'Sign in with Google' }).click();
    await chooser.getByText('Provide a valid email').waitFor();
    await expectAccessible(page, 'the Google chooser with an error');
    await screenshot(page, 'google-chooser');
    const email = `google-${Date.now()}@example.test`;
    await chooser.getByLabel('Google email').fill(email);
    await chooser.getByLabel('Name (optional)').fill('Gina Google');
    await chooser.getByRole('button', { name: 'Sign in with Google' }).click();
    // Back on the page where Login was clicked, signed in with the Google account.
    await page.waitForURL('**/blog');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByTestId('account-name').filter({ hasText: 'Gina Google' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeTruthy();
    expect(foreign).toEqual([]);

    // Signed in, /login and /signup send the visitor on.
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/signup');
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('a press on Place Order that leaves a wrong field lands: nothing moves under the pointer, the submit happens', async () => {
    const { context, page } = await shop.newPage(1280);
    await loginAs(page, demo.customer.email, demo.customer.password);
    const { data } = await shop.app.gql<{ parts: { items: { id: string }[] } }>('{ parts(limit: 1) { items { id } } }');
    await page.goto(`/purchase/${data?.parts.items[0]?.id ?? ''}`);
    const place = page.getByRole('button', { name: 'Place Order' });
    await place.waitFor();
    await page.getByLabel('Phone').fill('0171'); // too short, and the field keeps the focus
    const before = await place.boundingBox();
    if (!before) throw new Error('Place Order has no box');
    await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
    await page.mouse.down();
    // The press took the focus from the field; its message waits for the release, so the button stays put.
    expect(await page.getByLabel('Phone').evaluate((el) => el === document.activeElement)).toBe(false);
    await page.waitForTimeout(300);
    // (A message shown now would push it down by a line, about 24 px.)
    expect(Math.abs(((await place.boundingBox())?.y ?? 0) - before.y)).toBeLessThan(2);
    await page.mouse.up();
    // The click landed: the submit's messages show (the amount, never touched, only speaks after a submit),
    // and focus is on the first field in error.
    await page.getByText("Order can't be empty").waitFor();
    await page.getByText('Must be 11 characters').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-phone');
    await context.close();
  });

  it('the title and description follow the visitor from page to page', async () => {
    const { context, page } = await shop.newPage(1280);
    const meta = () =>
      page.evaluate(() => [
        document.title,
        document.querySelector('meta[name="description"]')?.getAttribute('content') ?? '',
      ]);
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    const [homeTitle, homeDescription] = await meta();
    const nav = page.getByRole('navigation', { name: 'Main' });
    const seen = new Set([homeDescription]);
    for (const [link, title] of [
      ['Blog', 'Blog — PartsYard'],
      ['Portfolio', 'Portfolio — PartsYard'],
    ]) {
      await nav.getByRole('link', { name: link }).click();
      await page.waitForFunction((t) => document.title === t, title);
      const [, description] = await meta();
      expect([link, description.length > 20, seen.has(description)]).toEqual([link, true, false]);
      seen.add(description);
    }
    expect(homeTitle).toBe('PartsYard — reliable motorcycle parts since 1967');
    await context.close();
  });

  it('a deep link scrolls to its anchor once the page has rendered it', async () => {
    const { context, page } = await shop.newPage(1280);
    await page.goto('/blog#what-is-a-unit-test');
    const article = page.locator('#what-is-a-unit-test');
    await article.waitFor();
    await page.waitForFunction(() => {
      const box = document.getElementById('what-is-a-unit-test')?.getBoundingClientRect();
      return box !== undefined && box.top >= 0 && box.top < 200;
    });
    await page.goto('/#contact');
    await page.waitForFunction(() => {
      const box = document.getElementById('contact')?.getBoundingClientRect();
      return box !== undefined && box.top >= 0 && box.top < 200;
    });
    await context.close();
  });

  it("another customer's order shows the not-found page, and the visitor stays signed in", async () => {
    const other = await shop.app.signUp({ name: 'Otto Other' });
    const { data } = await shop.app.gql<{ parts: { items: { id: string; minOrder: number }[] } }>(
      '{ parts(limit: 1) { items { id minOrder } } }',
    );
    const part = data?.parts.items[0];
    const placed = await shop.app.gql<{ placeOrder: { id: string } }>(
      'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
      { input: { partId: part?.id, name: 'Otto', phone: '01712345678', orderAmount: part?.minOrder, address: '' } },
      other.token,
    );
    const id = placed.data?.placeOrder.id;
    expect(id).toBeTruthy();
    const { context, page } = await shop.newPage(1280);
    await loginAs(page, demo.customer.email, demo.customer.password);
    for (const orderId of [id, '00000000-0000-4000-8000-000000000000']) {
      await page.goto(`/payment/${orderId}`);
      await page.getByRole('heading', { name: 'Order not found' }).waitFor();
      await page.getByText('This order does not exist or is not yours.').waitFor();
      await expectAccessible(page, 'the order-not-found page');
    }
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeTruthy();
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    await context.close();
  });
});
