import type * as Electron from 'electron';
import { createRequire } from 'node:module';
import type { ElectronModule } from './electron-types.js';
import type { SecureWebPreferences } from './web-preferences.js';

/**
 * The one place in main/ that loads Electron (eslint.config.js allows it here and in the
 * preload entry only, however it is written). Called only inside Electron's main process:
 * under plain Node `require('electron')` gives the path of the binary (downloading it first
 * when it is missing), or throws when the package is absent.
 *
 * `require` with a literal: Electron answers it from its own loader. The result is typed with
 * Electron's own definitions (a type-only import, erased from the build) and returned as
 * `ElectronModule`, so the compiler checks that the installed Electron still has every API the
 * shell uses, as electron-types.ts declares them.
 */
export function loadElectron(): ElectronModule {
  const require = createRequire(import.meta.url);
  const electron: typeof Electron = require('electron');
  return electron;
}

type MustBeNever<T extends never> = T;
/** Compile-time only: every `webPreferences` key the windows set is one Electron still knows (a key it dropped fails the build). */
export type UnknownWebPreferences = MustBeNever<Exclude<keyof SecureWebPreferences, keyof Electron.WebPreferences>>;
