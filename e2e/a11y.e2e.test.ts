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
const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Every visible button and link in main lies within the screen's width. */
const actionsInReach = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main button, main a')]
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
    await page.locator('a[href^="/parts/"]').first().click();
    await page.getByRole('link', { name: 'Purchase' }).waitFor();
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
});
