#!/usr/bin/env node
// `npm run bench`: builds (tsc -b, which also builds rpc/ and main/ through bench's project
// references) and runs the benchmark. The JSON result is the only thing on stdout.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = fileURLToPath(new URL('../out/bench/src/bench.js', import.meta.url));

if (process.env.BENCH_SKIP_BUILD !== '1') {
  process.stderr.write('[bench] npx tsc -b\n');
  // tsc prints diagnostics on stdout: send them to stderr so stdout stays pure JSON.
  const build = spawnSync('npx', ['tsc', '-b'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) {
    if (!existsSync(entry)) {
      process.stderr.write('[bench] build failed and out/bench/src/bench.js does not exist\n');
      process.exit(build.status ?? 1);
    }
    process.stderr.write('[bench] WARNING: tsc -b reported errors; running the existing build output\n');
  }
}

const run = spawnSync(process.execPath, [entry, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
