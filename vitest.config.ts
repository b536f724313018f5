import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{common,rpc,main,platform,renderer,preload,scripts}/**/*.test.{ts,tsx}'],
    environment: 'node',
    globalSetup: ['./scripts/vitest-build.ts'],
    testTimeout: 20000,
    hookTimeout: 20000,
  },
});
