import type { Logger } from 'pino';
import { DEEP_LINK_SCHEME, parseCallbackUrl } from './deep-link.js';
import type { ElectronModule } from './electron-types.js';
import { guardWebContents } from './guards-adapter.js';
import { registerAppScheme } from './protocol-adapter.js';
import { acquireSingleInstance } from './single-instance.js';

export interface AppSetupOptions {
  /** The built Electron entry, passed to the binary when not packaged. */
  readonly entry: string;
  readonly externalHosts: readonly string[];
  readonly logger: Logger;
  /** A second launch asks to be shown. */
  readonly focus: () => void;
}

/**
 * Deep links (`companion://`): no sign-in in the browser is started by this version, so no
 * state is pending and every link is refused (and logged) for now.
 */
export function deepLinkHandler(logger: Logger): (raw: string) => void {
  const pendingStates = new Set<string>();
  return (raw) => {
    const result = parseCallbackUrl(raw, DEEP_LINK_SCHEME, pendingStates);
    if (!result.ok) logger.warn({ reason: result.reason }, 'deep link ignored');
  };
}

/**
 * What must happen before Electron is ready: the privileged `app://` scheme, the
 * single-instance lock, the deep-link scheme, and the guards every web contents gets. False
 * when another instance holds the lock (this one is quitting).
 */
export function setUpApp(electron: Pick<ElectronModule, 'app' | 'protocol' | 'shell'>, onDeepLink: (raw: string) => void, options: AppSetupOptions): boolean {
  const { app } = electron;
  const { logger } = options;
  registerAppScheme(electron.protocol);
  if (!acquireSingleInstance(app, DEEP_LINK_SCHEME, { focus: options.focus, deepLink: onDeepLink })) return false;
  if (app.isPackaged) app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  else app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [options.entry]);
  app.on('open-url', (event, url) => {
    event.preventDefault();
    onDeepLink(url);
  });
  app.on('web-contents-created', (_event, contents) =>
    guardWebContents(contents, { openExternal: (url) => void electron.shell.openExternal(url), allowedHosts: options.externalHosts, logger }),
  );
  // The shell lives in the tray: closing every window does not quit.
  app.on('window-all-closed', () => undefined);
  return true;
}
