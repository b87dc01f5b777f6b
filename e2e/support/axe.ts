import { readFileSync } from 'node:fs';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

/** axe-core's browser bundle, evaluated in the page (page.evaluate is not held back by the page's CSP). */
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.1 level A and AA: what the shop promises (issue 16). */
export const wcag21aa = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Rules run besides WCAG's tags: headings that skip a level (an `h6` in the footer, `h3` card titles under an
 * `h1`) are axe's "best-practice" rule `heading-order`, which Lighthouse's accessibility category counts.
 */
export const alsoChecked = ['heading-order'];

interface Violation {
  id: string;
  impact: string | null | undefined;
  help: string;
  nodes: { target: string; summary: string }[];
}

/**
 * Runs axe-core (WCAG 2.1 AA, and heading order) on the page as it is now and fails with every violation it
 * finds, named by rule, element and what is wrong. `state` says which page and state this is (signed out, a dialog open...).
 * Elements still moving (a toast sliding in, the hero fading) are left to settle first.
 */
export async function expectAccessible(page: Page, state: string): Promise<void> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axeSource);
  // CSS transitions and the hero's fade end within a second.
  await page.waitForTimeout(300);
  const violations: Violation[] = await page.evaluate(
    async ({ tags, rules }) => {
      const { axe } = window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } };
      const results = await axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        // Enabled on top of the tags' rules.
        rules: Object.fromEntries(rules.map((id) => [id, { enabled: true }])),
        resultTypes: ['violations'],
      });
      return results.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
      }));
    },
    { tags: wcag21aa, rules: alsoChecked },
  );
  if (violations.length === 0) return;
  const report = violations
    .map(
      (v) =>
        `- ${v.id} (${v.impact}): ${v.help}\n${v.nodes
          .slice(0, 8)
          .map((n) => `    ${n.target}\n      ${n.summary.replace(/\n/g, '\n      ')}`)
          .join('\n')}`,
    )
    .join('\n');
  throw new Error(`axe (WCAG 2.1 AA, heading order) found ${violations.length} violation(s) on ${state}:\n${report}`);
}
