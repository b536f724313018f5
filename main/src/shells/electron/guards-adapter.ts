import { allowNavigation, windowOpenDecision } from './url-policy.js';
import type { PermissionSessionLike, WebContentsLike } from './electron-types.js';

/**
 * Applies the URL policy to every web contents Electron creates (`web-contents-created`),
 * and denies every permission. Takes Electron objects by
 * injection; no electron import.
 */
export interface GuardsLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

export function guardWebContents(
  contents: WebContentsLike,
  options: { readonly openExternal: (url: string) => void; readonly allowedHosts: readonly string[]; readonly logger: GuardsLogger },
): void {
  const refuseNavigation = (event: { preventDefault(): void; url: string }, url?: string): void => {
    const target = url ?? event.url;
    if (allowNavigation(contents.getURL(), target)) return;
    event.preventDefault();
    options.logger.warn({ target: String(target).slice(0, 100) }, 'navigation refused');
  };
  contents.on('will-navigate', refuseNavigation);
  contents.on('will-redirect', refuseNavigation);
  contents.on('will-frame-navigate', refuseNavigation);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const decision = windowOpenDecision(url, options.allowedHosts);
    if (decision.openExternal !== null) options.openExternal(decision.openExternal);
    else options.logger.warn({ target: String(url).slice(0, 100) }, 'window.open refused');
    return { action: decision.action };
  });
}

/** Every permission request is refused, every permission check answers false. */
export function denyAllPermissions(session: PermissionSessionLike, logger: GuardsLogger): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    logger.warn({ permission }, 'permission request denied');
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler?.(() => false);
}
