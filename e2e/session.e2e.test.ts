import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Page } from 'playwright-core';
import { emulatorRequest } from '../api/test/support/testApp';
import { demo, loginAs, startShop, type Shop } from './support/shop';

/**
 * Issue 32, point 11, in a browser: the access token lives seconds here (JWT_EXPIRES_IN 4 s; 15 minutes by
 * default). The web renews it from the Firebase ID token without the shopper noticing, and a Firebase account
 * deleted outside the shop loses access once its token runs out.
 */

const lifeSeconds = 4;
const secret = randomBytes(32).toString('hex');
const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('accessToken'));

describe('the session in a browser, with access tokens of a few seconds', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop({ jwt: { secret, expiresInSeconds: lifeSeconds } });
  });
  afterAll(() => shop?.close());

  it('a customer stays where they are as the token is renewed, and a request answered 401 is renewed and sent again', async () => {
    const { page } = await shop.newPage();
    const signIns: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/graphql') && request.postData()?.includes('"operationName":"SignIn"')) {
        signIns.push(request.postData() ?? '');
      }
    });
    await loginAs(page, demo.customer.email, demo.customer.password);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: /^Hello, / }).waitFor();
    const first = await storedToken(page);
    const loginExchanges = signIns.length;

    // Renewed before it ran out: the page is as it was, signed in, with no message.
    await page.waitForFunction((token) => localStorage.getItem('accessToken') !== token, first, {
      timeout: lifeSeconds * 1000 + 2000,
    });
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    expect(signIns.slice(loginExchanges).every((body) => !body.includes('"profile"'))).toBe(true);

    // A token that ran out anyway (a laptop that slept): the next page's request is refused, renewed, sent again.
    const { sub, fid } = jwt.decode(first ?? '') as jwt.JwtPayload;
    const now = Math.floor(Date.now() / 1000);
    const ranOut = jwt.sign({ fid, iat: now - 60, exp: now - 30 }, secret, { subject: sub, issuer: 'partsyard' });
    await page.evaluate((token) => localStorage.setItem('accessToken', token), ranOut);
    await page.getByRole('link', { name: 'My Orders' }).click();
    await page.getByRole('heading', { name: 'My Orders' }).waitFor();
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    expect(await storedToken(page)).not.toBe(ranOut);
    expect(await page.getByText(/session has expired/i).count()).toBe(0);
  });

  it("a customer whose Firebase account is deleted outside the shop is signed out within the token's life", async () => {
    const rider = await shop.app.signUp({ name: 'Gone Rider' });
    const { page } = await shop.newPage();
    await loginAs(page, rider.email, rider.password);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: /^Hello, / }).waitFor();

    await emulatorRequest('delete', { idToken: rider.idToken });
    const deletedAt = Date.now();
    await page.getByRole('link', { name: 'Login', exact: true }).waitFor({ timeout: lifeSeconds * 1000 + 5000 });
    expect(Date.now() - deletedAt).toBeLessThan(lifeSeconds * 1000 + 3000);
    expect(new URL(page.url()).pathname).not.toMatch(/^\/dashboard/);
    expect(await storedToken(page)).toBeNull();
  });
});
