import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { autostartEntry, autostartFile, desktopExecArg, electronLoginItem, xdgAutostartLoginItem } from '../../../src/shells/electron/login-item.js';
import { makeTempDir } from '../../../../rpc/test/support/test-server.js';
import { rm } from 'node:fs/promises';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('start at login', () => {
  it('Linux: the XDG autostart entry is written, read back and removed', async () => {
    const config = await makeTempDir('companion-autostart-');
    dirs.push(config);
    const file = autostartFile({ XDG_CONFIG_HOME: config });
    expect(file).toBe(path.join(config, 'autostart', 'companion.desktop'));
    const item = xdgAutostartLoginItem({ file, command: ['/opt/Companion/companion', '--hidden'] });
    expect(item.get()).toBe(false);
    await item.set(true);
    expect(item.get()).toBe(true);
    const entry = await readFile(file, 'utf8');
    expect(entry).toContain('[Desktop Entry]');
    expect(entry).toContain('Exec=/opt/Companion/companion --hidden\n');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await item.set(false);
    expect(item.get()).toBe(false);
    await item.set(false); // already off: no error
  });

  it('Exec quoting follows the Desktop Entry spec (spaces, quotes, $ and %)', () => {
    expect(desktopExecArg('/usr/bin/companion')).toBe('/usr/bin/companion');
    expect(desktopExecArg('/home/a b/Companion')).toBe('"/home/a b/Companion"');
    expect(desktopExecArg('say "$HOME"')).toBe('"say \\"\\$HOME\\""');
    expect(autostartEntry(['/x/100%/app'])).toContain('Exec="/x/100%%/app"\n');
  });

  it('a relative XDG_CONFIG_HOME is ignored, as the spec says', () => {
    expect(autostartFile({ XDG_CONFIG_HOME: 'relative' }, '/home/p')).toBe('/home/p/.config/autostart/companion.desktop');
  });

  it('macOS and Windows: Electron\'s login item', async () => {
    let openAtLogin = false;
    const item = electronLoginItem({ getLoginItemSettings: () => ({ openAtLogin }), setLoginItemSettings: (s) => void (openAtLogin = s.openAtLogin) });
    await item.set(true);
    expect(item.get()).toBe(true);
  });
});
