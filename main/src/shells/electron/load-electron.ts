import { createRequire } from 'node:module';
import type { ElectronModule } from './electron-types.js';

/**
 * The one place in main/ that loads Electron (eslint.config.js allows it here and in the
 * preload entry only, however it is written). Called only inside Electron's main process:
 * under plain Node `require('electron')` gives the path of the binary, or throws when the
 * package is absent.
 *
 * `require` with a literal rather than `import('electron')`: the import would make the
 * compiler look for Electron's own type definitions, which a plain install does not have
 * (electron-types.ts says why). Electron answers `require('electron')` from its own loader.
 */
export function loadElectron(): ElectronModule {
  const require = createRequire(import.meta.url);
  return require('electron') as ElectronModule;
}
