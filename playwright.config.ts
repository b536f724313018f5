import { defineConfig } from '@playwright/test';

/**
 * Web-UI end-to-end tests: real headless hosts (started by the specs themselves) and Debian's
 * Chromium (`playwright install` cannot download here). scripts/test.mjs finds or installs
 * Chromium and passes its path in CHROMIUM_PATH.
 */
export default defineConfig({
  testDir: 'e2e/web',
  outputDir: 'out/test-results/playwright',
  timeout: 60_000,
  workers: 1,
  reporter: [['list'], ['json', { outputFile: 'out/test-results/playwright.json' }]],
  use: {
    launchOptions: { executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium' },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
});
