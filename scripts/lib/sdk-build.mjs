// The pieces of the SDK package (sdk/package.json, `npm run sdk:pack`): the CommonJS bundle of
// rpc/client/ (with the parts of rpc/src/ and common/src/ it uses), the ES module entry that
// re-exports it, the declarations tsc emitted for those sources, and the check that the package
// declares exactly the packages the bundle loads, at the root's versions.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';

/** What `import.meta.url` becomes in the CommonJS bundle (common/src/node/ws-module.ts loads `ws` with createRequire(import.meta.url)). */
const IMPORT_META_URL = '__companionImportMetaUrl';

/**
 * One CommonJS file for Node 20: every source of ours inlined, packages (valibot, ws) and
 * Node's modules left to `require`. Returns the bare specifiers the file loads.
 */
export async function bundleSdk({ root, entry, outfile, header }) {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    keepNames: true,
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
    define: { 'import.meta.url': IMPORT_META_URL },
    banner: { js: `${header}\n'use strict';\nconst ${IMPORT_META_URL} = require('node:url').pathToFileURL(__filename).href;` },
  });
  const [output] = Object.values(result.metafile.outputs);
  const loaded = output.imports.filter((item) => item.external).map((item) => item.path);
  // createRequire(...)('name') is invisible to esbuild's import scan: read it from the output.
  const text = readFileSync(outfile, 'utf8');
  for (const match of text.matchAll(/createRequire\)?\([^()]*\)\(\s*["']([^"']+)["']\s*\)/g)) loaded.push(match[1]);
  return { packages: packagesOf(loaded), inputs: Object.keys(result.metafile.inputs) };
}

/** The package names among module specifiers (Node's own modules and relative paths left out). */
export function packagesOf(specifiers) {
  const names = new Set();
  for (const specifier of specifiers) {
    if (specifier.startsWith('.') || specifier.startsWith('/') || isBuiltin(specifier)) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return [...names].sort();
}

/**
 * The ES module entry: the CommonJS build's exports, re-exported by name, so that a process that
 * both imports and requires the SDK holds one copy of it (one Client class, one
 * AuthorizationCodeChallenge for `instanceof`).
 */
export function writeEsmEntry({ bundle, outfile, header }) {
  const names = Object.keys(createRequire(import.meta.url)(bundle)).filter((name) => name !== '__esModule').sort();
  if (names.length === 0) throw new Error(`${bundle} exports nothing`);
  const lines = [header, `import sdk from './${path.basename(bundle)}';`, '', 'export const {', ...names.map((name) => `  ${name},`), '} = sdk;', ''];
  writeFileSync(outfile, lines.join('\n'));
  return names;
}

const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

/**
 * Copies `entry` (a .d.ts under `fromDir`) and every declaration file it reaches by relative
 * import into `toDir`, keeping their paths relative to `fromDir`. Returns the copied paths and
 * the packages the declarations import.
 */
export function copyDeclarations({ fromDir, entry, toDir }) {
  const copied = [];
  const bare = [];
  const pending = [path.resolve(fromDir, entry)];
  const seen = new Set();
  while (pending.length > 0) {
    const file = pending.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const relative = path.relative(fromDir, file);
    if (relative.startsWith('..')) throw new Error(`${file} is outside ${fromDir}`);
    const text = readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(SPECIFIERS)) {
      if (specifier.startsWith('.')) pending.push(path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.d.ts')));
      else bare.push(specifier);
    }
    mkdirSync(path.dirname(path.join(toDir, relative)), { recursive: true });
    copyFileSync(file, path.join(toDir, relative));
    copied.push(relative);
  }
  return { files: copied.sort(), packages: packagesOf(bare) };
}

/**
 * The package's `dependencies` must be exactly the packages its code loads, each at the version
 * the root package.json pins (the versions the project tests with). Throws, naming the difference.
 */
export function checkDependencies({ used, declared, rootDependencies }) {
  const problems = [];
  for (const name of used) if (!(name in declared)) problems.push(`the bundle loads '${name}', which sdk/package.json does not declare`);
  for (const name of Object.keys(declared)) {
    if (!used.includes(name)) problems.push(`sdk/package.json declares '${name}', which the bundle never loads`);
    // A library's range: the version the project is tested with, and its compatible updates (a game may share its own copy).
    else if (declared[name] !== `^${rootDependencies[name]}`) problems.push(`sdk/package.json has ${name}@${declared[name]}, expected ^${rootDependencies[name] ?? '(none in the root package.json)'}`);
  }
  if (problems.length > 0) throw new Error(`SDK dependencies:\n- ${problems.join('\n- ')}`);
}
