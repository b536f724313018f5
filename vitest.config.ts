import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{rpc,main,platform,renderer}/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 20000,
    hookTimeout: 20000,
  },
});
