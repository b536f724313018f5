/**
 * The one `webPreferences` factory every Companion window uses.
 * Nothing here is optional: the renderer is a sandboxed, context-isolated web page that
 * reaches the host only through the preload's narrow `window.companion` API.
 */
export interface SecureWebPreferences {
  readonly preload: string;
  readonly contextIsolation: true;
  readonly sandbox: true;
  readonly nodeIntegration: false;
  readonly nodeIntegrationInWorker: false;
  readonly nodeIntegrationInSubFrames: false;
  readonly webSecurity: true;
  readonly allowRunningInsecureContent: false;
  readonly experimentalFeatures: false;
  readonly webviewTag: false;
  readonly navigateOnDragDrop: false;
  readonly spellcheck: false;
  readonly devTools: boolean;
}

export function secureWebPreferences(preloadPath: string, options: { readonly devTools?: boolean } = {}): SecureWebPreferences {
  if (preloadPath.length === 0) throw new Error('secureWebPreferences: the preload path is required');
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    devTools: options.devTools === true,
  };
}
