#!/usr/bin/env node
// `npm run sdk:pack`: builds the game-side SDK as the package sdk/package.json names
// (companion-client) and packs it into out/packages/<name>-<version>.tgz.
//
//   out/sdk-package/                 the package as it is packed
//     package.json, README.md        from sdk/
//     LICENSE                        the project's
//     dist/index.js                  rpc/client/ and what it uses of rpc/src/ and common/src/, one CommonJS file (esbuild)
//     dist/index.mjs                 the ES module entry: re-exports dist/index.js (one copy of the SDK per process)
//     dist/index.d.ts, index.d.mts   the types of each entry
//     dist/types/...                 the declarations `tsc -b` emitted for those sources
//
// Prints the tarball's path, size and files; `--json` prints them as JSON instead (the test reads it).
// SDK_PACK_DIR=DIR puts sdk-package/ and packages/ under DIR instead of out/ (a second run at the
// same time, e.g. the SDK-package test under another Node, then leaves this one's files alone).
// DIR must be inside the project (the bundle is loaded from there to list its exports).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleSdk, checkDependencies, copyDeclarations, writeEsmEntry } from './lib/sdk-build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = process.env.SDK_PACK_DIR ? path.resolve(process.env.SDK_PACK_DIR) : path.join(root, 'out');
const stage = path.join(outDir, 'sdk-package');
const dist = path.join(stage, 'dist');
const packages = path.join(outDir, 'packages');
const json = process.argv.includes('--json');
const say = (line) => process.stderr.write(`[sdk:pack] ${line}\n`);

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** Builds out/sdk-package/ and packs it; returns the summary. */
async function build() {
  const manifest = JSON.parse(readFileSync(path.join(root, 'sdk', 'package.json'), 'utf8'));
  const rootManifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const header = `/*! ${manifest.name} ${manifest.version} | MIT License | the game-side SDK of Companion */`;

  // The declarations come from the project's own build (rpc/tsconfig.json emits them to out/rpc/).
  say('tsc -b rpc');
  run(path.join(root, 'node_modules', '.bin', 'tsc'), ['-b', 'rpc']);

  rmSync(stage, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  // The manifest first: its "type" makes dist/index.js CommonJS when the ES module entry is generated from it.
  // With the commit it is packed from (`gitHead`): the SDK's getVersionHash() reads it (rpc/client/sdk-version.ts).
  writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify({ ...manifest, ...gitHead() }, null, 2)}\n`);
  copyFileSync(path.join(root, 'sdk', 'README.md'), path.join(stage, 'README.md'));
  copyFileSync(path.join(root, 'LICENSE'), path.join(stage, 'LICENSE'));
  say('esbuild rpc/client/index.ts');
  const bundled = await bundleSdk({ root, entry: 'rpc/client/index.ts', outfile: path.join(dist, 'index.js'), header });
  const exported = writeEsmEntry({ bundle: path.join(dist, 'index.js'), outfile: path.join(dist, 'index.mjs'), header });
  const declarations = copyDeclarations({ fromDir: path.join(root, 'out'), entry: 'rpc/client/index.d.ts', toDir: path.join(dist, 'types') });
  writeFileSync(path.join(dist, 'index.d.ts'), "export * from './types/rpc/client/index.js';\n");
  writeFileSync(path.join(dist, 'index.d.mts'), "export * from './index.js';\n");
  const used = [...new Set([...bundled.packages, ...declarations.packages])].sort();
  checkDependencies({ used, declared: manifest.dependencies ?? {}, rootDependencies: rootManifest.dependencies ?? {} });

  mkdirSync(packages, { recursive: true });
  say(`npm pack into ${path.relative(root, packages)}/`);
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packages], { cwd: stage }));
  return {
    name: packed.name,
    version: packed.version,
    tarball: path.join(packages, packed.filename),
    size: packed.size,
    unpackedSize: packed.unpackedSize,
    files: packed.files.map((file) => ({ path: file.path, size: file.size })),
    dependencies: manifest.dependencies ?? {},
    exports: exported,
    sources: bundled.inputs.length,
  };
}

/** `{gitHead}` of the checkout, or nothing outside git. */
function gitHead() {
  const result = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' });
  const head = result.status === 0 ? result.stdout.trim() : '';
  return /^[0-9a-f]{40}$/.test(head) ? { gitHead: head } : {};
}

function print(summary) {
  if (json) {
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    return;
  }
  process.stdout.write(`${path.relative(root, summary.tarball)}: ${summary.size} bytes (${summary.unpackedSize} unpacked), ${summary.files.length} files, ${summary.sources} sources bundled\n`);
  for (const file of summary.files) process.stdout.write(`  ${String(file.size).padStart(8)}  ${file.path}\n`);
  process.stdout.write(`dependencies: ${Object.entries(summary.dependencies).map(([name, version]) => `${name}@${version}`).join(', ')}\n`);
}

try {
  print(await build());
} catch (error) {
  say(`failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
