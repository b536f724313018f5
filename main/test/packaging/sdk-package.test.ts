/**
 * PACKAGING TEST, about 20 s: the game-side SDK as the package a game installs (issue 18).
 *
 * `npm run sdk:pack` builds and packs sdk/ (companion-client) into out/packages/; the tarball is
 * installed into an empty folder with `npm install --offline ./companion-client-<version>.tgz`,
 * its dependencies coming from the npm cache that the project's own install filled (no
 * network). Then, from that folder only:
 * (a) an ES module game, a CommonJS game and the README's worked example run as real processes
 *     against a real host (embedded emulator, consent policy approve): the host's control API
 *     shows the activity; authorize, getToken and updateToken succeed; a lobby is joined;
 * (b) the consumer's `tsc` (the project's TypeScript, module nodenext, skipLibCheck off)
 *     type-checks an ES module .ts and a .cts against the package, and refuses a wrong call in each.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli-process.js';
import { DEMO_APP_ID, eventually, World } from '../e2e/support/world.js';
import { CJS_GAME, consumerTsconfig, ESM_GAME, EXPECTED_ERRORS, TYPESCRIPT_FILES, workedExample } from './support/sdk-consumers.js';
import { installTarball, packSdk, type Installed, type SdkPack } from './support/sdk-tarball.js';

const run = promisify(execFile);
let folder: string;
let pack: SdkPack;
let installed: Installed;
const children: ChildProcessWithoutNullStreams[] = [];
const installedFile = (file: string): string => path.join(folder, 'node_modules', 'companion-client', file);

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'companion-sdk-game-'));
  pack = await packSdk();
  installed = await installTarball(pack, folder);
}, 60_000);
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
});

/** A game of the folder running as a real process; it prints one JSON line per step. */
class GameProcess {
  private stdout = '';
  private stderr = '';
  private readonly exited: Promise<number | null>;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8').on('data', (text: string) => (this.stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (this.stderr += text));
    this.exited = new Promise((resolve) => child.on('close', (code) => resolve(code)));
    children.push(child);
  }

  static start(file: string, args: readonly string[], runtimeDir: string): GameProcess {
    return new GameProcess(spawn(process.execPath, [file, ...args], { cwd: folder, env: { PATH: process.env.PATH, HOME: process.env.HOME, XDG_RUNTIME_DIR: runtimeDir } }));
  }

  get output(): string {
    return `stdout: ${this.stdout}\nstderr: ${this.stderr}`;
  }

  /** The first JSON line (a whole line) whose step is `name`. */
  async step(name: string): Promise<Record<string, unknown>> {
    const probe = (): Record<string, unknown> | undefined => {
      const lines = this.stdout.split('\n').slice(0, -1).filter((line) => line.startsWith('{'));
      const found = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line['step'] === name);
      if (found === undefined && this.child.exitCode !== null) throw new Error(`the game exited before '${name}'`);
      return found;
    };
    try {
      return await eventually(probe, `the game's '${name}'`, 15_000);
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${this.output}`);
    }
  }

  /** Ends its stdin (the games then disconnect) and waits for the exit code. */
  async finish(): Promise<number | null> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}

describe('the SDK package (companion-client), installed from its tarball', () => {
  it('has its own name and version, MIT, ESM and CommonJS entries with types, a README, and depends on valibot and ws only: a game pulls 3 packages', async () => {
    const manifest = JSON.parse(await readFile(installedFile('package.json'), 'utf8')) as Record<string, unknown>;
    const rootDependencies = (JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
    expect(manifest).toMatchObject({ name: 'companion-client', version: '0.1.0', license: 'MIT', type: 'commonjs', main: './dist/index.js', types: './dist/index.d.ts' });
    expect(manifest['exports']).toEqual({
      '.': { import: { types: './dist/index.d.mts', default: './dist/index.mjs' }, require: { types: './dist/index.d.ts', default: './dist/index.js' } },
      './package.json': './package.json',
    });
    expect(manifest['dependencies']).toEqual({ valibot: `^${rootDependencies['valibot'] ?? ''}`, ws: `^${rootDependencies['ws'] ?? ''}` });

    const files = pack.files.map((file) => file.path);
    for (const needed of ['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.mjs', 'dist/index.d.ts', 'dist/index.d.mts', 'dist/types/rpc/client/index.d.ts']) expect(files, needed).toContain(needed);
    const plain = ['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.mjs'];
    expect(files.filter((file) => !plain.includes(file) && !/^dist\/.*\.d\.m?ts$/.test(file))).toEqual([]);
    expect(pack.exports).toEqual(expect.arrayContaining(['AuthorizationArgs', 'Client', 'ClientResult', 'RelationshipType', 'SdkConnection', 'StatusType']));
    // A bound that catches a dependency bundled by mistake (ws or valibot inside dist/ would add
    // tens of kB): the voice calls (issue 29) took the tarball from under 150 to 152 kB.
    expect(pack.size).toBeLessThan(175_000);

    // The README stands alone: no links into the repository.
    const readme = await readFile(installedFile('README.md'), 'utf8');
    expect(readme.match(/\]\((?!https?:|#)[^)]*\)/g) ?? []).toEqual([]);

    expect(installed.packages).toEqual(['companion-client', 'valibot', 'ws']);
    expect(installed.added, installed.output).toBe(3);
  });

  it('an ES module game and a CommonJS game set an activity the host sees, authorize (approved), getToken, updateToken and join a lobby; the README example runs as written', async () => {
    const world = await World.start();
    try {
      const alice = await world.player('alice', { consentPolicy: 'approve' });
      await writeFile(path.join(folder, 'game.mjs'), ESM_GAME);
      await writeFile(path.join(folder, 'game.cjs'), CJS_GAME);
      for (const [file, format, entry] of [['game.mjs', 'esm', 'dist/index.mjs'], ['game.cjs', 'cjs', 'dist/index.js']] as const) {
        const state = `Playing the ${format} build`;
        const game = GameProcess.start(file, [DEMO_APP_ID, state], alice.runtimeDir);
        const started = await game.step('activity');
        expect(started).toMatchObject({ format, user: 'alice' });
        expect(String(started['entry'])).toContain(`node_modules/companion-client/${entry}`);
        if (format === 'esm') expect(started['oneCopy'], 'import and require give the same Client').toBe(true);
        const games = (await alice.control('GET', '/v1/games')).body.games as { client_id: string; activity: { state?: string } | null }[];
        expect(games.find((seen) => seen.activity?.state === state), JSON.stringify(games)).toMatchObject({ client_id: DEMO_APP_ID });

        const authorized = await game.step('authorized');
        expect(authorized, game.output).toMatchObject({ via: 'rpc', platform: 'ready', lobbyMembers: 1 });
        expect(String(authorized['scope'])).toContain('openid');
        expect([...alice.host.server.connections()].some((connection) => connection.clientId === DEMO_APP_ID && connection.authenticated)).toBe(true);
        expect(await game.finish(), game.output).toBe(0);
        expect(game.output).toContain('"step":"done"');
      }

      await writeFile(path.join(folder, 'readme-example.mjs'), workedExample(await readFile(installedFile('README.md'), 'utf8')));
      const example = GameProcess.start('readme-example.mjs', [], alice.runtimeDir);
      expect(await example.finish(), example.output).toBe(0);
      expect(example.output).toMatch(/the player is alice[\s\S]*in lobby \d+ with 1 member\(s\)/);
    } finally {
      await world.close();
    }
  }, 60_000);

  it("a consumer's tsc (module nodenext) type-checks an ES module .ts and a .cts against the package's types, and refuses a wrong call in each", async () => {
    await writeFile(path.join(folder, 'tsconfig.json'), consumerTsconfig(path.join(REPO_ROOT, 'node_modules', '@types')));
    for (const [file, text] of Object.entries(TYPESCRIPT_FILES)) await writeFile(path.join(folder, file), text);
    const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const outcome = await run(process.execPath, [tsc, '-p', 'tsconfig.json', '--listFiles'], { cwd: folder, maxBuffer: 16 * 1024 * 1024 }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    const lines = outcome.stdout.split('\n');
    const errors = lines.flatMap((line) => {
      const match = /^(\S+)\((\d+),\d+\): error (TS\d+)/.exec(line);
      return match === null ? [] : [`${match[1]}:${match[2]} ${match[3]}`];
    });
    expect(errors.sort(), outcome.stdout).toEqual(EXPECTED_ERRORS);
    expect(outcome.code).not.toBe(0);

    // Each entry was checked with its own types, and nothing was read from this repository but TypeScript's lib and @types/node.
    const listed = lines.filter((line) => line.startsWith('/'));
    expect(listed).toEqual(expect.arrayContaining([installedFile('dist/index.d.mts'), installedFile('dist/index.d.ts'), installedFile('dist/types/rpc/client/client.d.ts')]));
    const allowed = ['typescript/lib/', '@types/node/', 'undici-types/'].map((dir) => path.join(REPO_ROOT, 'node_modules', dir));
    expect(listed.filter((file) => !file.startsWith(`${folder}/`) && !allowed.some((dir) => file.startsWith(dir)))).toEqual([]);
  }, 60_000);
});
