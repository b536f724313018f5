import { defineConfig } from '@playwright/test';

/**
 * The desktop shell's end-to-end tests (Playwright `_electron`): `npm run test:electron`, or
 * `npx playwright test -c e2e/electron/playwright.electron.config.ts`. They need a real
 * Electron binary (`node_modules/electron` with its download, or ELECTRON_PATH) and skip with
 * a printed reason otherwise. They drive the unpackaged build (`npm run build` and the renderer's build):
 * a packaged app has the inspect fuse off, which `_electron.launch` needs.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../../out/test-results/playwright-electron',
  timeout: 90_000,
  workers: 1,
  reporter: [['list']],
});
