import { expect, test } from './support/harness.js';

/**
 * The harness closes every browser context a test opened and left open (a second player's
 * page) when the test ends. Left open, it would outlive its host in the worker's browser, and
 * a later test's failure report would show it (Playwright screenshots every open page): issue
 * 26 §4's inspector spec once failed with another host's Friends screen in its report.
 */
test.describe.serial('e2e harness: no browser context outlives its test', () => {
  test('a test opens a second page and leaves it open', async ({ browser, page }) => {
    const left = await (await browser.newContext()).newPage();
    await left.setContent('<p>left open</p>');
    expect(browser.contexts()).toContain(page.context());
    expect(browser.contexts()).toHaveLength(2);
  });

  test('the next test finds only its own context', async ({ browser, page }) => {
    expect(browser.contexts()).toEqual([page.context()]);
  });
});
