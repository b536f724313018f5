import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type * as WindowsModule from '../src/shells/electron/windows-adapter.js';
import type * as StartModule from '../src/start.js';
import { chooseElectron, headlessLine, type ElectronChoice, type ElectronProbe } from '../src/start.js';
import { REPO_ROOT } from './support/cli-process.js';

const PKG = '/app/node_modules/electron';
const ENTRY = '/app/out/main/src/shells/electron/electron-main.js';
const PRELOAD = '/app/out/preload-bundle/index.cjs';
const RENDERER = '/app/out/renderer/index.html';
const BUILT = [ENTRY, PRELOAD, RENDERER];

function probe(options: { env?: Record<string, string>; installed?: boolean; files?: Record<string, string>; exists?: string[] } = {}): ElectronProbe {
  const files = options.files ?? {};
  const present = new Set([...Object.keys(files), ...(options.exists ?? []), ...BUILT]);
  return {
    env: options.env ?? {},
    resolveElectron: () => (options.installed === false ? undefined : `${PKG}/index.js`),
    exists: (file) => present.has(file),
    readText: (file) => {
      const text = files[file];
      if (text === undefined) throw new Error(`ENOENT ${file}`);
      return text;
    },
    entry: ENTRY,
    preload: PRELOAD,
    renderer: RENDERER,
  };
}

const downloaded = { files: { [`${PKG}/path.txt`]: 'electron' }, exists: [`${PKG}/dist/electron`] };

describe('npm start: which Electron binary', () => {
  it('runs the electron package binary named by its path.txt, with the built shell entry', () => {
    expect(chooseElectron(probe(downloaded))).toEqual({ kind: 'electron', binary: `${PKG}/dist/electron`, entry: ENTRY });
    const mac = probe({ files: { [`${PKG}/path.txt`]: 'Electron.app/Contents/MacOS/Electron\n' }, exists: [`${PKG}/dist/Electron.app/Contents/MacOS/Electron`] });
    expect(chooseElectron(mac)).toMatchObject({ kind: 'electron', binary: `${PKG}/dist/Electron.app/Contents/MacOS/Electron` });
  });

  it('prefers ELECTRON_PATH, and honours ELECTRON_OVERRIDE_DIST_PATH like the package does', () => {
    expect(chooseElectron(probe({ ...downloaded, env: { ELECTRON_PATH: '/opt/electron/electron' }, exists: ['/opt/electron/electron'] }))).toEqual({
      kind: 'electron',
      binary: '/opt/electron/electron',
      entry: ENTRY,
    });
    // Without the package at all.
    expect(chooseElectron(probe({ installed: false, env: { ELECTRON_PATH: '/opt/e' }, exists: ['/opt/e'] }))).toMatchObject({ kind: 'electron', binary: '/opt/e' });
    const override = probe({ files: { [`${PKG}/path.txt`]: 'electron' }, env: { ELECTRON_OVERRIDE_DIST_PATH: '/dist' }, exists: ['/dist/electron'] });
    expect(chooseElectron(override)).toMatchObject({ kind: 'electron', binary: '/dist/electron' });
  });

  it.each<[string, ElectronProbe, RegExp]>([
    ['no package', probe({ installed: false }), /^No Electron binary found \(the electron package is not installed\); starting the headless host\.$/],
    ['package without its download', probe(), /^No Electron binary found \(the electron package has no binary: .*path\.txt is missing, its download failed or did not run \(npx install-electron retries it\)\); starting/],
    ['path.txt naming a missing binary', probe({ files: { [`${PKG}/path.txt`]: 'electron' } }), /^No Electron binary found \(the electron package's binary is missing: .*dist\/electron\)/],
    ['empty path.txt', probe({ files: { [`${PKG}/path.txt`]: '\n' } }), /^No Electron binary found \(.*path\.txt is empty\)/],
    ['ELECTRON_PATH naming nothing', probe({ ...downloaded, env: { ELECTRON_PATH: '/nope' } }), /^No Electron binary found \(ELECTRON_PATH names no file: \/nope\)/],
    ['COMPANION_HEADLESS', probe({ ...downloaded, env: { COMPANION_HEADLESS: '1' } }), /^Electron not used \(COMPANION_HEADLESS is set\); starting the headless host\.$/],
  ])('runs the headless host with the reason: %s', (_name, machine, line) => {
    const choice = chooseElectron(machine);
    expect(choice.kind).toBe('headless');
    expect(headlessLine(choice as Extract<ElectronChoice, { kind: 'headless' }>)).toMatch(line);
  });

  it('COMPANION_HEADLESS=0 or empty does not turn Electron off', () => {
    expect(chooseElectron(probe({ ...downloaded, env: { COMPANION_HEADLESS: '0' } })).kind).toBe('electron');
    expect(chooseElectron(probe({ ...downloaded, env: { COMPANION_HEADLESS: '', ELECTRON_PATH: '' } })).kind).toBe('electron');
  });

  it('names the binary but stays headless while the shell, the preload bundle or the UI is not built', () => {
    for (const missing of BUILT) {
      const machine = probe(downloaded);
      const choice = chooseElectron({ ...machine, exists: (file) => file !== missing && machine.exists(file) });
      expect(choice).toEqual({ kind: 'headless', binary: `${PKG}/dist/electron`, reason: expect.stringContaining(`${missing} is missing; run npm run build`) });
      expect(headlessLine(choice as Extract<ElectronChoice, { kind: 'headless' }>)).toMatch(/^Electron found at .*, but .* is not built .*; starting the headless host\.$/);
    }
  });

  it('the built start and windows modules point at the built shell entry and preload bundle', async () => {
    const built = (await import(path.join(REPO_ROOT, 'out/main/src/start.js'))) as typeof StartModule;
    expect(built.ELECTRON_ENTRY).toBe(path.join(REPO_ROOT, 'out/main/src/shells/electron/electron-main.js'));
    expect(built.PRELOAD_BUNDLE).toBe(path.join(REPO_ROOT, 'out/preload-bundle/index.cjs'));
    expect(built.RENDERER_INDEX).toBe(path.join(REPO_ROOT, 'out/renderer/index.html'));
    const windows = (await import(path.join(REPO_ROOT, 'out/main/src/shells/electron/windows-adapter.js'))) as typeof WindowsModule;
    expect(windows.PRELOAD_BUNDLE_PATH).toBe(built.PRELOAD_BUNDLE);
  });
});
