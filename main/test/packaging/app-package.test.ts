/**
 * The app's package, as a user gets it: `npm pack` of the project (the build output ships:
 * nothing is built on install), installed globally from the tarball into an empty prefix with
 * nothing else (its dependencies from the npm cache the project's own install filled; npm still
 * asks the registry for their metadata, `--prefer-offline`), then the installed `companion`
 * prints its version and serves a game.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { RawClient } from '../../../rpc/test/support/raw-client.js';
import { REPO_ROOT } from '../support/cli-process.js';

const run = promisify(execFile);
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'companion-package-'));
  dirs.push(dir);
  return dir;
}

interface PackResult {
  readonly filename: string;
  readonly size: number;
  readonly unpackedSize: number;
  readonly files: readonly { readonly path: string }[];
}

/** `npm pack` without its lifecycle scripts (the build is there already: `npm install` ran it). */
async function pack(into: string): Promise<PackResult> {
  for (const built of ['out/main/src/cli.js', 'out/renderer/index.html', 'out/preload-bundle/index.cjs']) {
    if (!existsSync(path.join(REPO_ROOT, built))) throw new Error(`${built} is missing: run 'npm run build' first`);
  }
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', into], { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 });
  return (JSON.parse(stdout) as PackResult[])[0] as PackResult;
}

describe('the app package', () => {
  it('ships the built host, the UI and no tests, sources or maps; installed from the tarball, companion --version and companion serve work', { timeout: 180_000 }, async () => {
    const work = await tempDir();
    const packed = await pack(work);
    const files = packed.files.map((file) => file.path);
    for (const needed of ['bin/companion.js', 'bin/start.js', 'out/main/src/cli.js', 'out/renderer/index.html', 'out/rpc/client/index.js', 'out/rpc/client/index.d.ts', 'out/platform/src/index.js', 'out/preload-bundle/index.cjs', 'assets/icon-256.png', 'README.md', 'LICENSE', 'CHANGELOG.md', 'package.json']) {
      expect(files, needed).toContain(needed);
    }
    expect(files.filter((file) => /(^|\/)test\//.test(file) || file.endsWith('.map') || file.includes('tsbuildinfo') || (/\.tsx?$/.test(file) && !file.endsWith('.d.ts')))).toEqual([]);
    expect(files.filter((file) => /^(node_modules|src|main|rpc|platform|renderer|preload|e2e|bench|scripts)\//.test(file))).toEqual([]);

    // A global install into an empty prefix, from the tarball alone (Electron is a dev dependency: not pulled).
    const prefix = path.join(work, 'global');
    await run('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', path.join(work, packed.filename)], { cwd: work });
    const installed = path.join(prefix, 'lib', 'node_modules', 'companion');
    const { version } = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8')) as { version: string };
    const bin = path.join(prefix, 'bin', 'companion');
    const printed = await run(process.execPath, [bin, '--version'], { cwd: work });
    expect(printed.stdout).toBe(`companion ${version}\n`);

    const runtime = await tempDir();
    const host = spawn(process.execPath, [bin, 'serve', '--runtime-dir', runtime], { cwd: work, env: { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CONFIG_HOME: await tempDir() } });
    let stdout = '';
    host.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    const exited = new Promise<number | null>((resolve) => host.on('close', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 30_000;
      while (!/listening on (\S+)\n/.test(stdout) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const socketPath = /listening on (\S+)\n/.exec(stdout)?.[1];
      expect(socketPath, stdout).toBeDefined();
      const { client, ready } = await RawClient.ready(socketPath as string);
      expect(ready.data.user).toMatchObject({ discriminator: '0', bot: false });
      client.close();
    } finally {
      host.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
