import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from './cli.js';

/**
 * `npm start`: the Electron app where an Electron binary exists, otherwise the headless host.
 * The `electron` package (a dev dependency) holds no binary: its installer (`install-electron`,
 * which `npm install` runs through scripts/electron-binary.mjs) downloads it from Electron's
 * release host and writes `path.txt`; where that host cannot be reached the package stays
 * without a binary. ELECTRON_PATH names a binary instead (as for the Playwright `_electron`
 * specs); COMPANION_HEADLESS=1 skips Electron. Nothing here downloads or runs the package's code.
 */

/** `<out>/main/src/shells/electron/electron-main.js`, the shell's entry (this module is `<out>/main/src/start.js`). */
export const ELECTRON_ENTRY = fileURLToPath(new URL('./shells/electron/electron-main.js', import.meta.url));
/** The sandboxed preload bundle (see main/src/shells/electron/windows-adapter.ts) and the renderer the shell loads. */
export const PRELOAD_BUNDLE = fileURLToPath(new URL('../../preload-bundle/index.cjs', import.meta.url));
export const RENDERER_INDEX = fileURLToPath(new URL('../../renderer/index.html', import.meta.url));

export type ElectronChoice =
  /** Spawn `binary` with `entry`. */
  | { readonly kind: 'electron'; readonly binary: string; readonly entry: string }
  /** No Electron: `binary` is set when one exists but cannot be used. */
  | { readonly kind: 'headless'; readonly reason: string; readonly binary?: string };

/** What the decision reads of the machine (injected in tests). */
export interface ElectronProbe {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `require.resolve('electron')`, or undefined when the package is not installed. */
  resolveElectron(): string | undefined;
  exists(path: string): boolean;
  readText(path: string): string;
  /** Default ELECTRON_ENTRY, PRELOAD_BUNDLE, RENDERER_INDEX. */
  readonly entry?: string;
  readonly preload?: string;
  readonly renderer?: string;
}

export function systemProbe(): ElectronProbe {
  return {
    env: process.env,
    resolveElectron: () => {
      try {
        return createRequire(import.meta.url).resolve('electron');
      } catch {
        return undefined;
      }
    },
    exists: existsSync,
    readText: (path) => readFileSync(path, 'utf8'),
  };
}

function set(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}

/** The binary the `electron` package would run (its index.js: `path.txt` under `dist/`, or ELECTRON_OVERRIDE_DIST_PATH). */
function packageBinary(probe: ElectronProbe): { readonly binary: string } | { readonly reason: string } {
  const resolved = probe.resolveElectron();
  if (resolved === undefined) return { reason: 'the electron package is not installed' };
  const pathFile = join(dirname(resolved), 'path.txt');
  if (!probe.exists(pathFile)) return { reason: `the electron package has no binary: ${pathFile} is missing, its download failed or did not run (npx install-electron retries it)` };
  const relative = probe.readText(pathFile).trim();
  if (relative === '') return { reason: `${pathFile} is empty` };
  const override = probe.env['ELECTRON_OVERRIDE_DIST_PATH'];
  return { binary: set(override) ? join(override, relative) : join(dirname(resolved), 'dist', relative) };
}

/** Which Electron binary `npm start` runs, or why it runs the headless host. Spawns nothing. */
export function chooseElectron(probe: ElectronProbe): ElectronChoice {
  const headless = probe.env['COMPANION_HEADLESS'];
  if (set(headless) && headless !== '0') return { kind: 'headless', reason: 'COMPANION_HEADLESS is set' };
  const explicit = probe.env['ELECTRON_PATH'];
  let binary: string;
  if (set(explicit)) {
    if (!probe.exists(explicit)) return { kind: 'headless', reason: `ELECTRON_PATH names no file: ${explicit}` };
    binary = explicit;
  } else {
    const found = packageBinary(probe);
    if ('reason' in found) return { kind: 'headless', reason: found.reason };
    if (!probe.exists(found.binary)) return { kind: 'headless', reason: `the electron package's binary is missing: ${found.binary}` };
    binary = found.binary;
  }
  const entry = probe.entry ?? ELECTRON_ENTRY;
  for (const [what, file] of [
    ['the desktop shell', entry],
    ['the preload bundle', probe.preload ?? PRELOAD_BUNDLE],
    ['the UI', probe.renderer ?? RENDERER_INDEX],
  ] as const) {
    if (!probe.exists(file)) return { kind: 'headless', binary, reason: `${what} is not built (${file} is missing; run npm run build)` };
  }
  return { kind: 'electron', binary, entry };
}

/** The one line `npm start` prints before the headless host starts. */
export function headlessLine(choice: Extract<ElectronChoice, { kind: 'headless' }>): string {
  const why =
    choice.binary !== undefined
      ? `Electron found at ${choice.binary}, but ${choice.reason}`
      : choice.reason === 'COMPANION_HEADLESS is set'
        ? `Electron not used (${choice.reason})`
        : `No Electron binary found (${choice.reason})`;
  return `${why}; starting the headless host.`;
}

const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Runs the shell and resolves with its exit code (a signal's death as 128 + its number). */
export function runElectron(choice: Extract<ElectronChoice, { kind: 'electron' }>, argv: readonly string[]): Promise<number> {
  const env = { ...process.env };
  // Set, it would make the binary a plain Node.
  delete env['ELECTRON_RUN_AS_NODE'];
  const child = spawn(choice.binary, [choice.entry, ...argv], { stdio: 'inherit', env });
  const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  return new Promise<number>((resolve) => {
    const done = (code: number): void => {
      for (const signal of FORWARDED_SIGNALS) process.off(signal, forward);
      resolve(code);
    };
    child.once('error', (error) => {
      process.stderr.write(`companion: could not start Electron (${choice.binary}): ${error.message}\n`);
      done(1);
    });
    child.once('exit', (code, signal) => done(code ?? (signal === null ? 1 : 128 + (constants.signals[signal] ?? 0))));
  });
}

export async function start(argv: readonly string[]): Promise<void> {
  const choice = chooseElectron(systemProbe());
  if (choice.kind === 'electron') {
    process.exitCode = await runElectron(choice, argv);
    return;
  }
  process.stdout.write(`${headlessLine(choice)}\n`);
  process.argv = [process.argv[0] as string, process.argv[1] as string, 'serve', ...argv];
  await main();
}
