import { truncate, truncation } from '@partsyard/common';
import type { BrowserContext, Page } from 'playwright-core';
import { expectAccessible } from './support/axe';
import { screenshot, startShop, type Shop } from './support/shop';

/**
 * Issue 33 points 3 and 4 in a browser, on the demo data: a visitor opens the 2019 Honda CRF450R's page and adds it
 * to the garage; the catalog then lists only what fits it (and universal parts, labelled), with facet counts; the
 * superseded pads' number 06455-MEN-305 finds the current pads and says why; "See all parts" drops the bike;
 * /categories/brake-pads and /bikes/honda/crf450r/2019 open directly with their own titles. axe finds nothing at
 * 1280 and 375 px. Counts come from the API (the demo data grows), never written here.
 */

interface CatalogAnswer {
  catalog: {
    totalText: string;
    total: number;
    items: { universal: boolean; reason: string | null; part: { name: string }; replaces: { name: string } | null }[];
    facets: {
      categories: { category: { name: string }; count: { text: string } }[];
      brands: { brand: { name: string }; count: { text: string } }[];
      inStock: { text: string };
    };
  };
}

const catalogQuery = `query($filter: CatalogFilter) {
  catalog(filter: $filter, limit: 20) {
    total totalText
    items { universal reason part { name } replaces { name } }
    facets { categories { category { name } count { text } } brands { brand { name } count { text } } inStock { text } }
  }
}`;

/** Nothing on the page is wider than the screen. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) throw new Error(`${what} scrolls sideways by ${overflow} px`);
}

/** The cards' part names, in order. */
const cardNames = (page: Page) => page.locator('main article h2').allTextContents();
/** A part's name as its card shows it (cut). */
const onCard = (name: string) => truncate(name, truncation.cardName);
/** The card of the part named `name`. */
const cardOf = (page: Page, name: string) =>
  page.locator('main article').filter({ has: page.getByRole('heading', { name: onCard(name), exact: true }) });

const showing = (answer: CatalogAnswer, shown: number) =>
  `Showing 1–${shown} of ${answer.catalog.totalText} ${answer.catalog.total === 1 ? 'part' : 'parts'}`;

describe('the catalog in a browser: what fits my bike, with counts, found by any number, shareable pages', () => {
  let shop: Shop;
  let context: BrowserContext;
  let page: Page;
  let bike: { id: string; name: string };

  const ask = async (filter: Record<string, unknown>) => {
    const answer = await shop.app.gql<CatalogAnswer>(catalogQuery, { filter });
    if (!answer.data) throw new Error(JSON.stringify(answer.errors));
    return answer.data;
  };

  beforeAll(async () => {
    shop = await startShop();
    ({ context, page } = await shop.newPage());
    const found = await shop.app.gql<{ vehicleBySlugs: { id: string; name: string } }>(
      '{ vehicleBySlugs(make: "honda", model: "crf450r", year: 2019) { id name } }',
    );
    bike = found.data?.vehicleBySlugs ?? { id: '', name: '' };
    expect(bike.name).toBe('2019 Honda CRF450R');
  });
  afterAll(async () => {
    await context?.close();
    await shop?.close();
  });

  it("a bike's page → my garage → the catalog lists what fits it with counts → a superseded number → all parts", async () => {
    // 1. The bike's own address, opened directly: its title from the server and from the app; added to the garage.
    const html = await (await fetch(`${shop.url}/bikes/honda/crf450r/2019`)).text();
    expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]).toBe('Parts for the 2019 Honda CRF450R — PartsYard');
    await page.goto('/bikes/honda/crf450r/2019');
    await page.getByRole('heading', { level: 1, name: 'Parts for the 2019 Honda CRF450R' }).waitFor();
    const fits = await ask({ vehicleId: bike.id });
    await page.getByText(showing(fits, fits.catalog.items.length)).waitFor();
    await page.waitForFunction(() => document.title === 'Parts for the 2019 Honda CRF450R — PartsYard');
    expect(await cardNames(page)).toEqual(fits.catalog.items.map((i) => onCard(i.part.name)));
    await expectAccessible(page, "a bike's page at 1280 px");
    await page.getByRole('button', { name: 'Add to my garage' }).click();
    await page.getByText('Your current bike', { exact: true }).waitFor();
    expect(await page.getByTestId('garage-button').getAttribute('aria-label')).toBe('My bike: 2019 Honda CRF450R');

    // 2. The catalog now lists what fits that bike and universal parts, says so, and counts them in the facets.
    await page.getByRole('link', { name: 'Parts', exact: true }).first().click();
    await page.waitForURL('**/parts');
    await page.getByText('Parts that fit your 2019 Honda CRF450R').waitFor();
    await page.getByText(showing(fits, fits.catalog.items.length)).waitFor();
    expect(await cardNames(page)).toEqual(fits.catalog.items.map((i) => onCard(i.part.name)));
    const all = await ask({});
    expect(fits.catalog.total).toBeLessThan(all.catalog.total); // the sprocket, the YZ450F-only parts... are left out
    const filters = page.getByRole('complementary', { name: 'Filters' });
    expect(fits.catalog.facets.categories.length).toBeGreaterThan(0);
    for (const f of fits.catalog.facets.categories)
      await filters.getByRole('link', { name: `${f.category.name} ${f.count.text} parts`, exact: true }).waitFor();
    for (const f of fits.catalog.facets.brands)
      await filters.getByRole('link', { name: `${f.brand.name} ${f.count.text} parts`, exact: true }).waitFor();
    expect(await filters.getByRole('checkbox', { name: 'In stock only' }).isVisible()).toBe(true);
    await filters.getByText(fits.catalog.facets.inStock.text, { exact: false }).first().waitFor();
    // The universal clutch cable, labelled as such; the pads (fitted) not.
    const universal = fits.catalog.items.filter((i) => i.universal).map((i) => i.part.name);
    expect(universal.length).toBeGreaterThan(0);
    for (const name of universal) await cardOf(page, name).getByText('Universal', { exact: true }).waitFor();
    const fitted = fits.catalog.items.find((i) => !i.universal);
    expect(
      await cardOf(page, fitted?.part.name ?? '')
        .getByText('Universal', { exact: true })
        .count(),
    ).toBe(0);
    await expectAccessible(page, 'the catalog for the current bike at 1280 px');
    await screenshot(page, 'catalog-bike-1280');

    // A facet is a filter kept in the URL: the category with its children's counts.
    const category = fits.catalog.facets.categories[0];
    await filters.getByRole('link', { name: `${category.category.name} ${category.count.text} parts` }).click();
    await page.waitForURL((url) => url.searchParams.has('category'));
    await page.getByText(`of ${category.count.text} part`).waitFor();
    await filters.getByRole('link', { name: /All categories/ }).click();
    await page.waitForURL((url) => !url.searchParams.has('category'));

    // 3. The superseded pads' number finds the current pads, saying why and what they replace.
    const hits = await ask({ vehicleId: bike.id, search: '06455-MEN-305' });
    const hit = hits.catalog.items[0];
    expect(hit.replaces?.name).toBe('Sintered Front Brake Pads, earlier design');
    await page.getByLabel('Search parts').fill('06455-MEN-305');
    await page.waitForURL((url) => url.searchParams.get('q') === '06455-MEN-305');
    const hitCard = cardOf(page, hit.part.name);
    await hitCard.getByText(`Found by: ${hit.reason ?? ''}`).waitFor();
    expect(hit.reason).toContain('06455-MEN-305');
    await hitCard.getByText('Replaces: Sintered Front Brake Pads, earlier design').waitFor();
    await expectAccessible(page, 'a search by a superseded number at 1280 px');

    // 4. "Search all parts" drops the bike for this view (?bike=all), the search kept.
    await page.getByRole('link', { name: 'Search all parts' }).click();
    await page.waitForURL(
      (url) => url.searchParams.get('bike') === 'all' && url.searchParams.get('q') === '06455-MEN-305',
    );
    await page.getByText('Searching all parts, not only those that fit your 2019 Honda CRF450R.').waitFor();
    await page.getByLabel('Search parts').fill('');
    const everything = await ask({});
    await page.getByText(showing(everything, everything.catalog.items.length)).waitFor();

    // 5. At 375 px: the filters are behind a button, the page fits the screen.
    await page.goto('/parts');
    await page.getByText(showing(fits, fits.catalog.items.length)).waitFor();
    await page.setViewportSize({ width: 375, height: 800 });
    const toggle = page.getByRole('button', { name: 'Show filters' });
    await toggle.waitFor();
    expect(await filters.isVisible()).toBe(false);
    await expectNoSidewaysScroll(page, 'the catalog at 375 px');
    await expectAccessible(page, 'the catalog for the current bike at 375 px, filters closed');
    await toggle.click();
    await filters.waitFor();
    await expectNoSidewaysScroll(page, 'the catalog with its filters open at 375 px');
    await expectAccessible(page, 'the catalog for the current bike at 375 px, filters open');
    await screenshot(page, 'catalog-filters-375');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it.each([1280, 375])(
    '/categories/brake-pads and /bikes/honda/crf450r/2019 open directly with their titles, axe clean at %i px',
    async (width) => {
      const { context: fresh, page: visitor } = await shop.newPage(width);
      try {
        await visitor.goto('/categories/brake-pads');
        await visitor.getByRole('heading', { level: 1, name: 'Brake pads' }).waitFor();
        await visitor.waitForFunction(() => document.title === 'Brake pads — PartsYard');
        await visitor.getByText(/^Showing 1–/).waitFor();
        // Brake pads alone, by name (the demo has dozens): every card a pad; the demo's own pads found in it.
        const names = await cardNames(visitor);
        expect(names.filter((name) => !/pad/i.test(name))).toEqual([]);
        await visitor.goto('/categories/brake-pads?q=Sintered%20Front');
        await visitor.getByText(/^Showing 1–/).waitFor();
        expect(await cardNames(visitor)).toContain(onCard('Sintered Front Brake Pads (Pair)'));
        await expectNoSidewaysScroll(visitor, `/categories/brake-pads at ${width} px`);
        await expectAccessible(visitor, `/categories/brake-pads at ${width} px`);

        await visitor.goto('/bikes/honda/crf450r/2019');
        await visitor.getByRole('heading', { level: 1, name: 'Parts for the 2019 Honda CRF450R' }).waitFor();
        await visitor.getByText(/^Showing 1–/).waitFor();
        await visitor.getByRole('button', { name: 'Add to my garage' }).waitFor();
        await expectNoSidewaysScroll(visitor, `/bikes/honda/crf450r/2019 at ${width} px`);
        await expectAccessible(visitor, `/bikes/honda/crf450r/2019 at ${width} px`);

        for (const unknown of ['/categories/no-such-category', '/bikes/honda/crf450r/1999']) {
          expect([unknown, (await visitor.goto(unknown))?.status()]).toEqual([unknown, 404]);
          await visitor.getByRole('heading', { level: 1, name: /^No such/ }).waitFor();
        }
      } finally {
        await fresh.close();
      }
    },
  );
});
