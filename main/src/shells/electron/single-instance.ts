import { findDeepLinkArg } from './deep-link.js';

/**
 * One Companion per user session: the first launch holds the lock; a
 * second launch quits at once, and the first focuses its window and takes the deep link the
 * second one was started with (Windows and Linux pass links as arguments).
 */
export interface SingleInstanceApp {
  requestSingleInstanceLock(): boolean;
  quit(): void;
  on(event: 'second-instance', listener: (event: unknown, argv: string[]) => void): unknown;
}

export interface SecondInstanceActions {
  readonly focus: () => void;
  readonly deepLink: (raw: string) => void;
}

/** The pure part: what a second launch's argv asks of the first. */
export function secondInstanceRequest(argv: readonly string[], scheme: string): { readonly focus: true; readonly deepLink: string | null } {
  return { focus: true, deepLink: findDeepLinkArg(argv, scheme) };
}

/** False when another instance holds the lock (this one is quitting). */
export function acquireSingleInstance(app: SingleInstanceApp, scheme: string, actions: SecondInstanceActions): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', (_event, argv) => {
    const request = secondInstanceRequest(argv, scheme);
    actions.focus();
    if (request.deepLink !== null) actions.deepLink(request.deepLink);
  });
  return true;
}
