import { describe, expect, it } from 'vitest';
import { secureWebPreferences } from '../../../src/shells/electron/web-preferences.js';

describe('secureWebPreferences', () => {
  it('isolates, sandboxes and disables node in every window', () => {
    const prefs = secureWebPreferences('/app/out/preload/index.cjs');
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      devTools: false,
    });
  });

  it('sets no experimental or blink flags', () => {
    const prefs = secureWebPreferences('/p.cjs', { devTools: true }) as unknown as Record<string, unknown>;
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
    expect(prefs).not.toHaveProperty('additionalArguments');
    expect(prefs.devTools).toBe(true);
  });

  it('requires a preload path', () => {
    expect(() => secureWebPreferences('')).toThrow(/preload/);
  });
});
