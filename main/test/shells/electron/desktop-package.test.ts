import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRAY_ICON_FILE, WINDOW_ICON_FILE } from '../../../src/shells/electron/icons.js';
import { REPO_ROOT } from '../../support/cli-process.js';
import { BRIDGE_EXE, buildBridge } from '../../windows/support/bridge-run.js';
import { packDesktopApp, readPacked, type DesktopPack } from './support/desktop-pack.js';
import { importClosure, packageName } from './support/import-closure.js';
import { productionPackages } from './support/production-tree.js';

/**
 * What the desktop package holds, read back from electron-builder's own packing step
 * (support/desktop-pack.ts: the project as `npm run dist` packs it, with a stand-in Electron so
 * nothing is downloaded). In: the main process's bundle (the Electron entry and everything it
 * loads), the preload bundle, the UI, the icons, the Proton bridge and the runtime modules. Out: Electron, dev
 * dependencies (React and zustand among them: Vite bundles them into out/renderer), tests,
 * TypeScript sources, source maps and the rest of out/.
 */
const ENTRY = 'out/main/src/shells/electron/electron-main.js';
const BUILT = [ENTRY, 'out/preload-bundle/index.cjs', 'out/renderer/index.html'];

let pack: DesktopPack & { readonly workDir: string };
let packed: Set<string>;
/** Why the Proton bridge could not be built for the pack (no mingw-w64), if it could not. */
let bridgeBuildError: string | undefined;
let pkg: { dependencies: Record<string, string>; devDependencies: Record<string, string> };

beforeAll(async () => {
  for (const file of BUILT) {
    if (!existsSync(path.join(REPO_ROOT, file))) throw new Error(`${file} is missing: run 'npm run build' first`);
  }
  // `npm run dist` builds the bridge (npm run build:bridge) before packing.
  if (!existsSync(BRIDGE_EXE)) {
    try {
      buildBridge();
    } catch (error) {
      bridgeBuildError = (error as Error).message;
    }
  }
  pkg = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as typeof pkg;
  pack = await packDesktopApp(REPO_ROOT);
  packed = new Set(pack.appFiles.map((file) => file.path));
}, 120_000);

afterAll(async () => {
  if (pack !== undefined) await rm(pack.workDir, { recursive: true, force: true });
});

/** Top-level package names under node_modules/ in the asar (nested copies included). */
function packedModules(): Set<string> {
  const names = new Set<string>();
  for (const file of packed) {
    for (const found of file.matchAll(/(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//g)) names.add(found[1] as string);
  }
  return names;
}

describe('the desktop package (electron-builder, Linux dir target, no Electron download)', () => {
  it('runs the Electron entry, and package.json names only runtime dependencies', () => {
    expect(pack.packageJson.main).toBe(ENTRY);
    expect(pack.packageJson.dependencies).toEqual(pkg.dependencies);
    expect(pack.packageJson.devDependencies).toBeUndefined();
    expect(pack.packageJson.optionalDependencies).toBeUndefined();
  });

  it('holds the main bundle: the Electron entry and every module it loads', () => {
    const closure = importClosure(path.join(REPO_ROOT, ENTRY));
    expect(closure.unresolved).toEqual([]);
    const missing = [...closure.files].map((file) => path.relative(REPO_ROOT, file).split(path.sep).join('/')).filter((file) => !packed.has(file));
    expect(missing).toEqual([]);
    expect(closure.files.size).toBeGreaterThan(100);
    // The packages it loads are packed, with their own dependencies; Electron comes from the runtime.
    const needed = [...closure.packages].map(packageName).filter((name): name is string => name !== null && name !== 'electron');
    expect(needed).toEqual(expect.arrayContaining(['ws', 'valibot', 'pino']));
    const modules = packedModules();
    expect(needed.filter((name) => !modules.has(name))).toEqual([]);
  });

  it('holds the preload bundle, the UI with every asset it references, and the icons beside the asar', async () => {
    expect(packed.has('out/preload-bundle/index.cjs')).toBe(true);
    const html = await readPacked(pack.workDir, 'out/renderer/index.html');
    const referenced = [...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+)"/g)].map((match) => `out/renderer/${match[1] as string}`);
    expect(referenced.length).toBeGreaterThan(0);
    expect(referenced.filter((file) => !packed.has(file))).toEqual([]);
    const built = (await readdir(path.join(REPO_ROOT, 'out/renderer/assets'))).filter((name) => !name.endsWith('.map')).map((name) => `out/renderer/assets/${name}`);
    expect(built.filter((file) => !packed.has(file))).toEqual([]);
    expect(pack.resources).toEqual(expect.arrayContaining([`icons/${TRAY_ICON_FILE}`, `icons/${WINDOW_ICON_FILE}`]));
    expect(pack.resources.filter((file) => file.startsWith('icons/'))).toHaveLength(2);
  });

  it('issue 27 §2: carries the Proton bridge beside the asar, bridge/companion-bridge.exe', () => {
    expect(bridgeBuildError).toBeUndefined();
    expect(pack.resources.filter((file) => file.startsWith('bridge/'))).toEqual(['bridge/companion-bridge.exe']);
  });

  it('holds exactly the production dependency tree: no Electron, no dev dependency, nothing Vite bundled', () => {
    const production = productionPackages(REPO_ROOT);
    expect(production.missing).toEqual([]);
    const modules = packedModules();
    expect([...modules].sort()).toEqual([...production.names].sort());
    for (const name of Object.keys(pkg.dependencies)) expect(modules, name).toContain(name);
    for (const name of ['electron', '@electron/get', 'react', 'react-dom', 'zustand', 'scheduler', ...Object.keys(pkg.devDependencies)]) {
      expect(modules.has(name), name).toBe(false);
    }
  });

  it('holds no tests, sources, source maps, type information or other build output', () => {
    const own = [...packed].filter((file) => !file.startsWith('node_modules/'));
    expect(own.filter((file) => file !== 'package.json' && !file.startsWith('out/'))).toEqual([]);
    expect(own.filter((file) => /(^|\/)(test|tests|__tests__)\//.test(file) || /\.(test|spec)\.[cm]?js$/.test(file))).toEqual([]);
    expect([...packed].filter((file) => file.endsWith('.map') || file.includes('tsbuildinfo'))).toEqual([]);
    expect(own.filter((file) => /\.tsx?$/.test(file))).toEqual([]);
    const outFolders = new Set(own.filter((file) => file.startsWith('out/')).map((file) => file.split('/').slice(0, 2).join('/')));
    expect([...outFolders].sort()).toEqual(['out/common', 'out/main', 'out/platform', 'out/preload', 'out/preload-bundle', 'out/renderer', 'out/rpc']);
    expect(own.filter((file) => /^out\/(main|rpc|platform|common|preload)\//.test(file) && !/^out\/[a-z]+\/(src|client)\//.test(file))).toEqual([]);
  });

  it('flips the fuses electron-builder.yml sets in the executable', () => {
    expect(pack.fuses).toMatchObject({
      RunAsNode: false,
      EnableCookieEncryption: true,
      EnableNodeOptionsEnvironmentVariable: false,
      EnableNodeCliInspectArguments: false,
      EnableEmbeddedAsarIntegrityValidation: true,
      OnlyLoadAppFromAsar: true,
      GrantFileProtocolExtraPrivileges: false,
    });
  });
});
