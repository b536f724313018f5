#!/usr/bin/env node
// `npm test`: type check (and build), lint, then every Vitest test. Ends with one line
// "N passed, N failed" that counts the tests plus the type check and the lint as one check
// each. The same line is written to out/test-results/summary.txt for .ci/run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';

const resultsDir = 'out/test-results';
mkdirSync(resultsDir, { recursive: true });
const vitestJson = `${resultsDir}/vitest.json`;

function run(label, command, args) {
  process.stdout.write(`\n== ${label}: ${[command, ...args].join(' ')}\n`);
  const result = spawnSync(command, args, { stdio: 'inherit', shell: false });
  const ok = result.status === 0;
  process.stdout.write(`== ${label}: ${ok ? 'ok' : `FAILED (exit ${result.status ?? result.signal})`}\n`);
  return ok;
}

const bin = (name) => `node_modules/.bin/${name}`;

// Preflight: name exactly what is missing instead of failing obscurely.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stdout.write(`Node ${process.versions.node} is too old: Companion needs Node 20.19 or newer.\n0 passed, 1 failed\n`);
  process.exit(1);
}
const missing = ['tsc', 'eslint', 'vitest'].filter((name) => !existsSync(bin(name)));
if (missing.length > 0) {
  process.stdout.write(`Missing ${missing.join(', ')} in node_modules: run 'npm install' first.\n0 passed, 1 failed\n`);
  writeFileSync(`${resultsDir}/summary.txt`, '0 passed, 1 failed\n');
  process.exit(1);
}
const checks = [
  ['typecheck', run('typecheck', bin('tsc'), ['-b'])],
  ['lint', run('lint', bin('eslint'), ['--max-warnings', '0', '.'])],
];

const extra = process.argv.slice(2);
const testsOk = run('tests', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`, ...extra]);

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(vitestJson)) {
  const report = JSON.parse(readFileSync(vitestJson, 'utf8'));
  passed = report.numPassedTests ?? 0;
  failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0);
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
} else {
  failed += 1;
  process.stdout.write('The test run produced no report.\n');
}
// Vitest can fail with every test passed (an unhandled error, a failed setup): count it.
if (!testsOk && failed === 0) {
  failed += 1;
  process.stdout.write('Vitest failed although no test failed (see its errors above); counted as one failure\n');
}
for (const [name, ok] of checks) {
  if (ok) passed += 1;
  else {
    failed += 1;
    process.stdout.write(`${name} failed (counted as one failure)\n`);
  }
}
const summary = `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
writeFileSync(`${resultsDir}/summary.txt`, `${summary}\n`);
process.stdout.write(`\n${summary}\n`);
process.exit(failed === 0 ? 0 : 1);
