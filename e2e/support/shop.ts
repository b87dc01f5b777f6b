import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Config } from '../../api/src/config';
import { emulatorOobCodes, startTestApp, type TestApp } from '../../api/test/support/testApp';

/**
 * End-to-end harness: the whole shop (API + the built web app, demo content seeded) on a fresh in-memory
 * database, the real Auth emulator of the test run, and Debian's Chromium driven by playwright-core.
 */

const root = path.resolve(__dirname, '..', '..');
export const webDist = path.join(root, 'web', 'dist');
export const screenshotDir = path.join(root, 'test-results');
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Shop {
  app: TestApp;
  browser: Browser;
  url: string;
  /** A fresh browser context (own storage) with a page at `width` px wide. */
  newPage(width?: number): Promise<{ context: BrowserContext; page: Page }>;
  /**
   * Content-Security-Policy violations the browser reported on any page so far (`close` fails the suite if
   * there are any: every browser test runs under the shop's CSP).
   */
  cspViolations(): string[];
  close(): Promise<void>;
}

/** Marks the browser's CSP violation reports in the console, where the harness collects them. */
const cspMarker = 'CSP violation:';
function reportCspViolations() {
  document.addEventListener('securitypolicyviolation', (event) => {
    console.error(
      `CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || '(inline)'} on ${location.pathname}`,
    );
  });
}

/** Starts the shop; `overrides` changes its settings (a short UNPAID_ORDER_EXPIRY, say). */
export async function startShop(overrides: Partial<Config> = {}): Promise<Shop> {
  if (!existsSync(path.join(webDist, 'index.html'))) {
    throw new Error('web/dist is missing: run `npm run build` first (npm test does)');
  }
  const app = await startTestApp('pglite', { webDistDir: webDist, seedDemo: true, demoMode: true, ...overrides });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const violations: string[] = [];
  const watch = (page: Page) =>
    page.on('console', (message) => {
      if (message.text().startsWith(cspMarker)) violations.push(message.text());
    });
  return {
    app,
    browser,
    url: app.url,
    async newPage(width = 1280) {
      const context = await browser.newContext({ baseURL: app.url, viewport: { width, height: 900 } });
      await context.addInitScript(reportCspViolations);
      context.on('page', watch); // pop-ups too (Google sign-in)
      const page = await context.newPage();
      return { context, page };
    },
    cspViolations: () => [...violations],
    async close() {
      await browser.close();
      await app.close();
      if (violations.length) {
        throw new Error(`The pages broke the Content-Security-Policy:\n${[...new Set(violations)].join('\n')}`);
      }
    },
  };
}

/** Saves a full-page screenshot under test-results/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

/** Logs in through the login form and waits to leave it. */
export async function loginAs(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page
    .waitForURL((url) => !url.pathname.startsWith('/login'))
    .catch(async (error: unknown) => {
      // What the page says (an error under the form, the fields as they are) tells a lost press from a refusal.
      const shown = await page
        .locator('main')
        .innerText()
        .catch(() => '');
      const fields = await page
        .getByLabel('Email')
        .inputValue()
        .catch(() => '?');
      throw new Error(`still at ${page.url()} after Login (Email: ${fields}): ${shown.slice(0, 400)}`, {
        cause: error,
      });
    });
}

export const demo = {
  admin: { email: 'admin@partsyard.test', password: 'Admin#2026' },
  customer: { email: 'customer@partsyard.test', password: 'Customer#2026' },
};

/** The link of the last verification email the Auth emulator "sent" to `email`. */
export async function verificationLink(shop: Shop, email: string): Promise<string> {
  const codes = await emulatorOobCodes();
  const code = codes.filter((c) => c.email === email && c.requestType === 'VERIFY_EMAIL').pop();
  if (!code) throw new Error(`no verification email was sent to ${email}`);
  return code.oobLink;
}
