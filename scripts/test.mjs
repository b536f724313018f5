#!/usr/bin/env node
// `npm test`: type check (and build), lint, every Vitest test, then the web UI's Playwright
// tests (the UI built with Vite, Debian's Chromium). Ends with one line "N passed, N failed"
// that counts the tests plus the type check, the lint and the UI build as one check each.
// The same line is written to out/test-results/summary.txt for .ci/run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';

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
// package.json `engines`: the majors tested (main/test/packaging/node-versions.test.ts).
if (![20, 22, 24].includes(major)) process.stdout.write(`Node ${process.versions.node} is not one of the tested Node versions (20, 22, 24); running the tests anyway.\n`);
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
const e2eWanted = extra.length === 0 && existsSync('e2e/web') && readdirSync('e2e/web').some((name) => name.endsWith('.spec.ts'));
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
// The web UI's end-to-end tests: the built renderer in Debian's Chromium (found, or installed
// with apt when running as root, or named as missing).
if (e2eWanted) {
  const uiBuilt = run('build-ui', bin('vite'), ['build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);
  checks.push(['build-ui', uiBuilt]);
  const chromium = findChromium();
  if (chromium === undefined) {
    failed += 1;
    process.stdout.write('Chromium not found (looked at $CHROMIUM_PATH, /usr/bin/chromium, /usr/bin/chromium-browser): install it with `apt-get install -y chromium` (as root) or set CHROMIUM_PATH; counted as one failure\n');
  } else if (uiBuilt) {
    const playwrightJson = `${resultsDir}/playwright.json`;
    const e2eOk = spawnSync(bin('playwright'), ['test'], { stdio: 'inherit', env: { ...process.env, CHROMIUM_PATH: chromium } }).status === 0;
    if (existsSync(playwrightJson)) {
      const stats = JSON.parse(readFileSync(playwrightJson, 'utf8')).stats ?? {};
      passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
      failed += stats.unexpected ?? 0;
      skipped += stats.skipped ?? 0;
      if (!e2eOk && (stats.unexpected ?? 0) === 0) failed += 1;
    } else {
      failed += 1;
      process.stdout.write('Playwright produced no report; counted as one failure\n');
    }
  }
}

function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
  const found = candidates.find((path) => existsSync(path));
  if (found !== undefined) return found;
  if (process.getuid?.() === 0 && process.platform === 'linux') {
    process.stdout.write('\n== chromium: not found; installing Debian chromium with apt-get (running as root)\n');
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    return ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
  }
  return undefined;
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
