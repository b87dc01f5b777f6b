import { and, eq, ilike } from 'drizzle-orm';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { partNumbers } from '../api/src/catalog/partLinksSchema';
import { parts } from '../api/src/db/schema';
import { expectAccessible } from './support/axe';
import { screenshot, startShop, type Shop } from './support/shop';

/**
 * Issue 33 point 3 in a browser, on the demo catalog: the part page says whether a part fits the current bike in
 * the shop's words ("Fits your 2019 Honda CRF450R", "Does not fit your ...", "... with a note: ..."), shows the
 * part's brand, category, SKU and numbers, a replacement, and the bikes it fits (searched). The bike is chosen with
 * the garage's picker from the part page itself. axe finds nothing at 1280 and 375 px, and nothing is wider than
 * a phone. The demo data grows (more parts and bikes): the facts used here are the seed's (catalogSeed.ts), never
 * totals of the whole catalog.
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

/** Picks a bike in My garage's picker (already open), typing into each list as a buyer does, and chooses it. */
async function pickBike(page: Page, make: string, model: string, year: number) {
  const dialog = page.getByRole('dialog', { name: 'My garage' });
  await dialog.waitFor();
  const steps: [string, string][] = [
    ['Make', make],
    ['Model', model],
    ['Year', String(year)],
  ];
  for (const [label, value] of steps) {
    const box = dialog.getByRole('combobox', { name: label });
    // The make's box is focused here (the dialog may open on the garage's bikes); each choice moves on to the next.
    if (label === 'Make') await box.focus();
    await waitForFocus(page, box);
    await page.keyboard.type(value);
    await dialog.getByRole('option', { name: value, exact: true }).waitFor();
    await page.keyboard.press('Enter');
  }
  await dialog.getByText(`Your choice: ${year} ${make} ${model}`).waitFor();
  await dialog.getByRole('button', { name: 'Choose this bike' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** The sentence of the fit for the current bike, once the shop has answered. */
async function fitSays(page: Page, sentence: string) {
  await page.getByTestId('part-fit').getByText(sentence, { exact: true }).waitFor();
}

/** The bikes of the list as shown (first cell of each row). */
const listedBikes = (page: Page) =>
  page.getByTestId('fitment-row').locator('td:first-child > span:last-child').allTextContents();

/** "Fits 6 bikes" as a number. */
async function fitmentTotal(page: Page): Promise<number> {
  const text = await page.getByText(/^Fits \d+ bikes?/).textContent();
  return Number(/\d+/.exec(text ?? '')?.[0]);
}

describe('the part page in a browser: does it fit my bike, which bikes, which numbers, what replaces it', () => {
  let shop: Shop;
  let context: BrowserContext;
  let page: Page;
  /** The seed's parts, found by their numbers (and the universal cable by its name): ids as addresses. */
  const ids: Record<'pads' | 'oldPads' | 'chain' | 'plug' | 'cable', string> = {
    pads: '',
    oldPads: '',
    chain: '',
    plug: '',
    cable: '',
  };

  beforeAll(async () => {
    shop = await startShop();
    ({ context, page } = await shop.newPage());
    const { db } = shop.app.server.database;
    const byNumber = async (raw: string) => {
      const [row] = await db.select({ id: partNumbers.partId }).from(partNumbers).where(eq(partNumbers.raw, raw));
      if (!row) throw new Error(`no demo part carries ${raw}`);
      return row.id;
    };
    ids.pads = await byNumber('FA185HH');
    ids.oldPads = await byNumber('06455-MEN-305');
    ids.chain = await byNumber('520VX3-120');
    ids.plug = await byNumber('CR9EIX');
    const [cable] = await db
      .select({ id: parts.id })
      .from(parts)
      .where(and(eq(parts.universal, true), ilike(parts.name, '%clutch cable%')));
    ids.cable = cable.id;
  });
  afterAll(async () => {
    await context?.close();
    await shop?.close();
  });

  it('the pads fit a 2019 Honda CRF450R chosen from the page; the plug does not fit a Yamaha; the chain on a 2018 has a note', async () => {
    // 1. No bike yet: the page shows the part's facts and offers to choose a bike.
    await page.goto(`/parts/${ids.pads}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const facts = page.getByTestId('part-facts');
    await facts.getByText('EBC', { exact: true }).waitFor();
    expect(await facts.getByRole('link', { name: 'Brake pads' }).getAttribute('href')).toBe('/categories/brake-pads');
    expect(await page.getByTestId('part-number').allTextContents()).toEqual(
      expect.arrayContaining(['Manufacturer number (EBC)FA185HH', 'OEM number06455-MEN-A71']),
    );
    await page.getByTestId('part-fit').getByText('Choose your bike to see whether this part fits it.').waitFor();
    await page.getByTestId('fitment-row').first().waitFor();
    await expectAccessible(page, 'the pads without a bike, at 1280 px');

    // 2. Choose the bike from the part page: the verdict follows, in the shop's words and in green.
    await page.getByRole('button', { name: 'Choose your bike' }).click();
    await pickBike(page, 'Honda', 'CRF450R', 2019);
    await fitSays(page, 'Fits your 2019 Honda CRF450R');
    expect(await page.locator('[data-verdict="FITS"]').getAttribute('class')).toContain('alert-success');
    // The list of bikes it fits: the 2019 CRF450R among them, at the front, two... as the seed says (position front).
    const crf2019 = page.getByTestId('fitment-row').filter({ hasText: '2019 Honda CRF450R' });
    expect(await crf2019.locator('td').nth(1).innerText()).toMatch(/front$/);
    await expectAccessible(page, 'the pads fitting the current bike, at 1280 px');
    await screenshot(page, 'part-fits-1280');

    // 3. At 375 px: the verdict, the facts and the list (one card per bike) fit the phone.
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoSidewaysScroll(page, 'the part page at 375 px');
    await expectAccessible(page, 'the pads fitting the current bike, at 375 px');
    await screenshot(page, 'part-fits-375');
    await page.setViewportSize({ width: 1280, height: 900 });

    // 4. The chain fits every demo bike: on the 2019 it fits plainly; its list searched for "yz" holds Yamahas alone.
    await page.goto(`/parts/${ids.chain}`);
    await fitSays(page, 'Fits your 2019 Honda CRF450R');
    await page.getByTestId('fitment-row').first().waitFor();
    const all = await fitmentTotal(page);
    expect(await listedBikes(page)).toEqual(expect.arrayContaining(['2019 Honda CRF450R', '2019 Yamaha YZ450F']));
    await page.getByRole('searchbox', { name: 'Search the bikes it fits' }).fill('yz');
    await page.getByText(/matching “yz”/).waitFor();
    const yamahas = await listedBikes(page);
    expect(yamahas.length).toBeGreaterThan(0);
    expect(yamahas.every((name) => /yz/i.test(name))).toBe(true);
    expect(await fitmentTotal(page)).toBeLessThan(all);
    expect(yamahas).toEqual(expect.arrayContaining(['2018 Yamaha YZ450F', '2019 Yamaha YZ450F', '2020 Yamaha YZ450F']));
    await expectAccessible(page, 'the chain with its bikes searched, at 1280 px');

    // 5. The chain on a 2018 CRF450R: it fits, with the seed's note, in amber.
    await page.getByRole('button', { name: 'Change your bike' }).click();
    await pickBike(page, 'Honda', 'CRF450R', 2018);
    await fitSays(page, 'Fits your 2018 Honda CRF450R with a note: cut to 114 links');
    expect(await page.locator('[data-verdict="FITS_WITH_NOTE"]').getAttribute('class')).toContain('alert-warning');
    await expectAccessible(page, 'the chain fitting with a note, at 1280 px');

    // 6. The plug fits the Hondas, not a 2019 Yamaha YZ450F: said in red.
    await page.goto(`/parts/${ids.plug}`);
    await fitSays(page, 'Fits your 2018 Honda CRF450R');
    await page.getByRole('button', { name: 'Change your bike' }).click();
    await pickBike(page, 'Yamaha', 'YZ450F', 2019);
    await fitSays(page, 'Does not fit your 2019 Yamaha YZ450F');
    expect(await page.locator('[data-verdict="DOES_NOT_FIT"]').getAttribute('class')).toContain('alert-error');
    await expectAccessible(page, 'the plug not fitting the current bike, at 1280 px');
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoSidewaysScroll(page, 'a part that does not fit, at 375 px');
    await expectAccessible(page, 'the plug not fitting the current bike, at 375 px');
    await screenshot(page, 'part-does-not-fit-375');
    await page.setViewportSize({ width: 1280, height: 900 });

    // 7. The universal clutch cable says so, and fits the Yamaha too.
    await page.goto(`/parts/${ids.cable}`);
    await page.getByTestId('part-universal').getByText('Universal: fits any bike').waitFor();
    await fitSays(page, 'Fits your 2019 Yamaha YZ450F (a universal part)');
  });

  it('the old pads say “Replaced by” the current pads, and the link opens them', async () => {
    await page.goto(`/parts/${ids.oldPads}`);
    const notice = page.getByTestId('replaced-by');
    await notice.waitFor();
    const [{ name: padsName }] = await shop.app.server.database.db
      .select({ name: parts.name })
      .from(parts)
      .where(eq(parts.id, ids.pads));
    expect(await notice.innerText()).toContain(`Replaced by ${padsName}`);
    expect(await page.getByTestId('part-number').allTextContents()).toEqual(
      expect.arrayContaining(['OEM number06455-MEN-305']),
    );
    await expectAccessible(page, 'a replaced part, at 1280 px');
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoSidewaysScroll(page, 'a replaced part at 375 px');
    await expectAccessible(page, 'a replaced part, at 375 px');
    await screenshot(page, 'part-replaced-375');
    await page.setViewportSize({ width: 1280, height: 900 });

    await notice.getByRole('link', { name: padsName }).click();
    await page.waitForURL(`**/parts/${ids.pads}`);
    await page.getByRole('heading', { level: 1, name: padsName }).waitFor();
    expect(await page.getByTestId('replaced-by').count()).toBe(0);
  });
});
