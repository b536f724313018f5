import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * The sandboxed preload bundle: a sandboxed preload is one CommonJS script that may only
 * `require('electron')`, so `preload/src/index.ts` (with the contract) becomes
 * `out/preload-bundle/index.cjs`, which every window loads. Not minified: it is small and
 * reviewed as shipped.
 */
export default defineConfig({
  root: import.meta.dirname,
  // Nothing from public/ and no .env files: this is a library build.
  publicDir: false,
  envDir: false,
  build: {
    outDir: '../out/preload-bundle',
    emptyOutDir: true,
    minify: false,
    sourcemap: false,
    copyPublicDir: false,
    lib: {
      entry: resolve(import.meta.dirname, 'src/index.ts'),
      formats: ['cjs'],
      fileName: () => 'index.cjs',
    },
    rollupOptions: {
      external: ['electron'],
      output: { exports: 'named' },
    },
  },
});
