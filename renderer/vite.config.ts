import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The renderer bundle: `renderer/index.html` → `out/renderer/`. `base: './'` keeps every asset
 * URL relative, so the same build is served by the Electron `app://` handler and by the headless
 * host's web UI server. The CSP lives in index.html (no inline scripts, no eval in the build).
 */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: {
    outDir: '../out/renderer',
    emptyOutDir: true,
  },
});
