import { and, eq } from 'drizzle-orm';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { makes, models, vehicles } from '../api/src/catalog/catalogSchema';
import { users } from '../api/src/db/schema';
import { garageVehicles } from '../api/src/garage/garageSchema';
import { expectAccessible } from './support/axe';
import { demo, loginAs, screenshot, startShop, type Shop } from './support/shop';

/**
 * Issue 33 point 3 in a browser: a visitor picks their bike with the vehicle picker (make, model, year, variant; the
 * keyboard alone), it shows as the current bike in the header and on the catalog; they log in and the bike is in the
 * account's garage, still current (joined at login, as the cart is). The picker's code is not part of any page's
 * first download. axe finds nothing at 1280 and 375 px, the dialog open and closed, signed out and in.
 */

/** Nothing on the page is wider than the screen. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) throw new Error(`${what} scrolls sideways by ${overflow} px`);
}

/** Waits until `locator`'s element has the focus. */
async function waitForFocus(page: Page, locator: Locator) {
  await page.waitForFunction((el) => el === document.activeElement, await locator.elementHandle());
}

const settle = (page: Page) =>
  page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

describe('my garage in a browser: pick a bike as a visitor, keep it across login', () => {
  let shop: Shop;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    shop = await startShop();
    ({ context, page } = await shop.newPage());
  });
  afterAll(async () => {
    await context?.close();
    await shop?.close();
  });

  it('pick 2019 Honda CRF450R with the keyboard → current in the header and the catalog → log in → in the account’s garage, still current', async () => {
    // The home page's first download does not carry the garage's dialog or the picker.
    const fetched: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(fetched.filter((p) => /GarageDialog/.test(p))).toEqual([]);
    // The pre-rendered header (no bike: the HTML knows no visitor) hydrates as it is.
    expect(await page.getByTestId('garage-button').getAttribute('aria-label')).toBe('My bike: none chosen');
    expect(errors).toEqual([]);

    // 1. On the catalog, a visitor opens My garage from the catalog's chip.
    await page.goto('/parts');
    const headerButton = page.getByTestId('garage-button');
    await headerButton.waitFor();
    expect(await headerButton.getAttribute('aria-label')).toBe('My bike: none chosen');
    await page.getByRole('button', { name: 'Choose your bike' }).click();
    const dialog = page.getByRole('dialog', { name: 'My garage' });
    await dialog.waitFor();
    expect(fetched.filter((p) => /GarageDialog/.test(p)).length).toBe(1);
    const make = dialog.getByRole('combobox', { name: 'Make' });
    await waitForFocus(page, make);
    await expectAccessible(page, 'My garage open, empty, at 1280 px');

    // 2. The keyboard alone: typing narrows each list, Enter chooses, the focus moves on.
    await page.keyboard.type('ya');
    await dialog.getByRole('option', { name: 'Yamaha' }).waitFor();
    expect(await dialog.getByRole('option').allTextContents()).toEqual(['Yamaha']);
    // Escape closes the list, not the dialog; a second one empties the field.
    await page.keyboard.press('Escape');
    expect(await make.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Escape');
    expect(await make.inputValue()).toBe('');
    expect(await dialog.isVisible()).toBe(true);
    await page.keyboard.type('hon');
    await dialog.getByRole('option', { name: 'Honda' }).waitFor();
    await page.keyboard.press('Enter');
    const model = dialog.getByRole('combobox', { name: 'Model' });
    const choose = dialog.getByRole('button', { name: 'Choose this bike' });
    await waitForFocus(page, model);
    await page.keyboard.type('crf');
    await dialog.getByRole('option', { name: 'CRF450R' }).waitFor();
    await page.keyboard.press('Enter');
    expect(await model.inputValue()).toBe('CRF450R');
    await waitForFocus(page, dialog.getByRole('combobox', { name: 'Year' }));
    await page.keyboard.press('ArrowDown');
    expect(await dialog.getByRole('option').allTextContents()).toEqual(['2020', '2019', '2018']);
    await page.keyboard.type('2019');
    await page.keyboard.press('Enter');
    // 2019 has the base model alone: the focus goes on to the button.
    await waitForFocus(page, choose);
    await dialog.getByText('Your choice: 2019 Honda CRF450R').waitFor();
    await expectAccessible(page, 'the picker with a bike chosen, at 1280 px');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });

    // 3. The current bike: in the header (a chip on wide screens) and on the catalog, with Change and Clear.
    const chip = page.getByTestId('current-bike');
    await chip.getByText('2019 Honda CRF450R').waitFor();
    expect(await headerButton.getAttribute('aria-label')).toBe('My bike: 2019 Honda CRF450R');
    expect(await page.getByTestId('garage-chip').textContent()).toBe('2019 Honda CRF450R');
    expect(await chip.getByRole('button', { name: 'Change your bike' }).isVisible()).toBe(true);
    expect(await chip.getByRole('button', { name: 'Clear your bike' }).isVisible()).toBe(true);
    await expectAccessible(page, 'the catalog with a current bike, at 1280 px');
    await screenshot(page, 'garage-current-1280');

    // 4. At 375 px: the header shows the icon (marked), the chip wraps, the dialog fits.
    await page.setViewportSize({ width: 375, height: 800 });
    await settle(page);
    await expectNoSidewaysScroll(page, 'the catalog with a current bike at 375 px');
    expect(await page.getByTestId('garage-chip').isVisible()).toBe(false);
    expect(await page.getByTestId('garage-current-mark').isVisible()).toBe(true);
    await expectAccessible(page, 'the catalog with a current bike, at 375 px');
    await headerButton.click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: '2019 Honda CRF450R: Clear current bike' }).waitFor();
    await expectNoSidewaysScroll(page, 'My garage at 375 px');
    await expectAccessible(page, 'My garage open with a current bike, at 375 px');
    await screenshot(page, 'garage-dialog-375');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.setViewportSize({ width: 1280, height: 900 });

    // 5. Log in: the bike is joined to the account's garage, still current, and leaves the browser's.
    await loginAs(page, demo.customer.email, demo.customer.password);
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    await page.waitForFunction(() => localStorage.getItem('partsyard.garage') === null);
    const { db } = shop.app.server.database;
    const [customer] = await db.select({ id: users.id }).from(users).where(eq(users.email, demo.customer.email));
    const [bike] = await db
      .select({ id: vehicles.id })
      .from(vehicles)
      .innerJoin(models, eq(models.id, vehicles.modelId))
      .innerJoin(makes, eq(makes.id, models.makeId))
      .where(and(eq(makes.name, 'Honda'), eq(models.name, 'CRF450R'), eq(vehicles.year, 2019)));
    const rows = await db
      .select({ vehicleId: garageVehicles.vehicleId, current: garageVehicles.current })
      .from(garageVehicles)
      .where(eq(garageVehicles.userId, customer.id));
    expect(rows).toEqual([{ vehicleId: bike.id, current: true }]);

    // Read from the account now: after a reload too.
    await page.goto('/parts');
    await page.getByTestId('current-bike').getByText('2019 Honda CRF450R').waitFor();
    expect(await headerButton.getAttribute('aria-label')).toBe('My bike: 2019 Honda CRF450R');
    await headerButton.click();
    await dialog.waitFor();
    expect(await dialog.getByTestId('garage-bike').allTextContents()).toEqual([
      expect.stringContaining('2019 Honda CRF450R'),
    ]);
    expect(await dialog.getByText('Your garage is kept in this browser.').count()).toBe(0);
    await expectAccessible(page, 'My garage signed in, at 1280 px');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.setViewportSize({ width: 375, height: 800 });
    await settle(page);
    await expectNoSidewaysScroll(page, 'the catalog signed in at 375 px');
    await expectAccessible(page, 'the catalog signed in with a current bike, at 375 px');
    await screenshot(page, 'garage-signed-in-375');

    // The pre-rendered home page, hydrated for a customer with a current bike: the bike shows, nothing fails.
    errors.length = 0;
    await page.goto('/');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="garage-button"]')?.getAttribute('aria-label') ===
        'My bike: 2019 Honda CRF450R',
    );
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
  });
});
