import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The lint that keeps Electron in one place (eslint.config.js), run through ESLint's Node API
 * on code given in memory, as if it were the file at `filePath`.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LOADER = 'main/src/shells/electron/load-electron.ts';
const ELECTRON = /Electron is loaded only by main\/src\/shells\/electron\/load-electron\.ts/;
const HIDDEN = /source loads modules by literal specifier only/;

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT, overrideConfigFile: `${ROOT}eslint.config.js` });
});

/** The layer and syntax rules' messages for `code` at `file` (other rules' findings left out). */
async function findings(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${file}` });
  if (result === undefined) throw new Error('no lint result');
  const fatal = result.messages.filter((message) => message.fatal === true);
  expect(fatal).toEqual([]);
  return result.messages.filter((message) => message.ruleId === 'no-restricted-syntax' || message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('Electron is loaded in one place', () => {
  it.each([
    ['a static import', "import { app } from 'electron';\nexport const a = app;\n"],
    ['a type-only import', "import type { App } from 'electron';\nexport type A = App;\n"],
    ['a subpath import', "import { app } from 'electron/main';\nexport const a = app;\n"],
    ['a re-export', "export { app } from 'electron';\n"],
    ['an export *', "export * from 'electron';\n"],
    ['typeof import()', "export type E = typeof import('electron');\n"],
    ['import = require()', "import electron = require('electron');\nexport const e = electron;\n"],
    ['a dynamic import', "export const e = await import('electron');\n"],
    ['require()', "export const e = require('electron') as unknown;\n"],
    ['module.require()', "export const e = module.require('electron') as unknown;\n"],
    ['createRequire(...)(...)', "import { createRequire } from 'node:module';\nexport const e = createRequire(import.meta.url)('electron') as unknown;\n"],
    ['require made by createRequire', "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nexport const e = require('electron') as unknown;\n"],
    ['a require under another name', "import { createRequire } from 'node:module';\nconst load = createRequire(import.meta.url);\nexport const e = load('electron') as unknown;\n"],
  ])('refuses %s anywhere but the loader', async (_name, code) => {
    for (const file of ['main/src/shells/electron/windows-adapter.ts', 'main/src/host/compose/x.ts', 'rpc/src/x.ts', 'platform/src/x.ts', 'renderer/src/x.ts', 'e2e/web/x.ts', 'bench/src/x.ts']) {
      expect(await findings(code, file), file).toEqual(expect.arrayContaining([expect.stringMatching(ELECTRON)]));
    }
  });

  it.each([
    ['a string variable in import()', "const specifier = 'electron';\nexport const e = (await import(specifier)) as unknown;\n"],
    ['a template literal in import()', 'export const e = (await import(`electron`)) as unknown;\n'],
    ['a string variable in require()', "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nconst name = 'electron';\nexport const e = require(name) as unknown;\n"],
    ['a string built at run time', "export const e = (await import(['elec', 'tron'].join(''))) as unknown;\n"],
    ['createRequire called at once with a variable', "import { createRequire } from 'node:module';\nconst name = 'electron';\nexport const e = createRequire(import.meta.url)(name) as unknown;\n"],
    ['createRequire bound to another name', "import { createRequire } from 'node:module';\nconst load = createRequire(import.meta.url);\nexport const e = load;\n"],
    ['createRequire through the module object', "import module from 'node:module';\nconst load = module.createRequire(import.meta.url);\nexport const e = load;\n"],
    ['require aliased', "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nconst load = require;\nexport const e = load;\n"],
    ['require handed to a function', "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nexport const e = [require].map(String) && String(require);\n"],
  ])('refuses %s in source, even in the loader', async (_name, code) => {
    for (const file of ['main/src/host/compose/x.ts', 'main/src/shells/electron/electron-main.ts', LOADER, 'rpc/src/x.ts', 'rpc/client/x.ts', 'platform/src/x.ts', 'renderer/src/x.tsx', 'preload/src/index.ts']) {
      expect(await findings(code, file), file).toEqual(expect.arrayContaining([expect.stringMatching(HIDDEN)]));
    }
  });

  it('lets the loader load it, and the preload entry', async () => {
    expect(await findings(await readFile(`${ROOT}${LOADER}`, 'utf8'), LOADER)).toEqual([]);
    expect(await findings(await readFile(`${ROOT}preload/src/index.ts`, 'utf8'), 'preload/src/index.ts')).toEqual([]);
  });

  it('allows literal imports and requires, require.resolve, and packages that only start with "electron"', async () => {
    const code = [
      "import { createRequire } from 'node:module';",
      "const require = createRequire(import.meta.url);",
      "export const ws = require('ws') as unknown;",
      "export const pino = createRequire(import.meta.url)('pino') as unknown;",
      "export const serve = await import('./shells/cli/serve.js');",
      "export const binary = createRequire(import.meta.url).resolve('electron');",
      "export const builder = await import('electron-builder');",
      "export const kind = { kind: 'electron' } as const;",
      "export const same = kind.kind.startsWith('electron');",
      '',
    ].join('\n');
    expect(await findings(code, 'main/src/x.ts')).toEqual([]);
  });
});
