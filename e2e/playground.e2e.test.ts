import { expectAccessible } from './support/axe';
import { screenshot, startShop, type Shop } from './support/shop';

describe('the GraphQL playground in a browser', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop();
  });
  afterAll(() => shop?.close());

  it('opens at /graphql, offline, and runs `{ parts { total } }`', async () => {
    const { context, page } = await shop.newPage();
    const foreign: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(shop.url) && !req.url().startsWith('blob:') && !req.url().startsWith('data:'))
        foreign.push(req.url());
    });
    const introspected = page.waitForResponse((r) => r.url().endsWith('/graphql') && r.request().method() === 'POST');
    await page.goto(`/graphql?query=${encodeURIComponent('{ parts { total } }')}`);
    await introspected;
    await page.locator('.graphiql-query-editor').getByText('total').waitFor();
    await page.getByRole('button', { name: /Execute query/ }).click();
    // The response editor is Monaco: read its rendered text (non-breaking spaces and all) once it shows data.
    const shown = await page.waitForFunction(
      () => {
        const text = (document.querySelector('.graphiql-response') as HTMLElement | null)?.innerText ?? '';
        return text.includes('"total"') ? text.replace(/\u00a0/g, ' ') : false;
      },
      undefined,
      { timeout: 30_000 },
    );
    const total = (await shop.app.gql<{ parts: { total: number } }>('{ parts { total } }')).data?.parts.total;
    expect(JSON.parse(String(await shown.jsonValue()))).toEqual({ data: { parts: { total } } });
    expect(total).toBeGreaterThanOrEqual(12); // the demo parts
    await screenshot(page, 'playground');
    await expectAccessible(page, 'the GraphQL playground with an answer');
    expect(foreign).toEqual([]);
    await context.close();
  });

  it('prefills the Authorization header with the access token this browser keeps', async () => {
    const { context, page } = await shop.newPage();
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('accessToken', 'token-from-the-shop'));
    await page.goto('/graphql');
    await page.getByText('Bearer token-from-the-shop').first().waitFor({ timeout: 30_000 });
    await context.close();
  });
});
