import { describe, expect, it, vi } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger } from '../../../src/base/logger.js';
import { hostSettings, logLevelOf, SettingUnavailable, type LoginItemPort } from '../../../src/host/ui-bridge/host-settings.js';

function broker(): { policy: 'prompt' | 'approve' | 'deny'; alwaysAsk: boolean } {
  return { policy: 'prompt', alwaysAsk: false };
}

describe('host settings', () => {
  it('reads and writes the consent broker fields and logs each change', async () => {
    const target = broker();
    const info = vi.fn();
    const settings = hostSettings({ broker: target, logger: { info } });
    expect(settings.get()).toEqual({ consent_policy: 'prompt', consent_always_ask: false, log_level: 'info', start_at_login: null });
    expect(await settings.update({ consent_policy: 'approve' })).toMatchObject({ consent_policy: 'approve', consent_always_ask: false });
    expect(await settings.update({ consent_always_ask: true })).toMatchObject({ consent_policy: 'approve', consent_always_ask: true });
    expect(target).toEqual({ policy: 'approve', alwaysAsk: true });
    expect(info).toHaveBeenCalledTimes(2);
  });

  it('the log level changes the real logger at once: debug records appear only after the switch', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger({ level: 'info', destination });
    const level = logLevelOf(logger);
    expect(level?.get()).toBe('info');
    const settings = hostSettings({ broker: broker(), ...(level === undefined ? {} : { logLevel: level }) });
    logger.debug('before');
    expect(await settings.update({ log_level: 'debug' })).toMatchObject({ log_level: 'debug' });
    logger.debug('after');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.join('')).not.toContain('before');
    expect(lines.join('')).toContain('after');
    expect(logLevelOf({ debug() {} })).toBeUndefined();
  });

  it('start at login goes through the port; where there is none it is null and refused with a clear error', async () => {
    let on = false;
    const loginItem: LoginItemPort = { get: () => on, set: async (value) => void (on = value) };
    const desktop = hostSettings({ broker: broker(), loginItem });
    expect(desktop.get().start_at_login).toBe(false);
    expect(await desktop.update({ start_at_login: true })).toMatchObject({ start_at_login: true });
    expect(on).toBe(true);

    const headless = hostSettings({ broker: broker() });
    await expect(headless.update({ start_at_login: true })).rejects.toBeInstanceOf(SettingUnavailable);
    await expect(headless.update({ start_at_login: true })).rejects.toThrow(/only available in the desktop app/);
    await expect(headless.update({ log_level: 'debug' })).rejects.toThrow(/cannot be changed/);
  });
});
