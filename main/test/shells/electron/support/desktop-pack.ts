import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type * as Asar from '@electron/asar';
import type * as Fuses from '@electron/fuses';
import type * as FuseConstants from '@electron/fuses/dist/constants.js';
import type * as AppBuilder from 'app-builder-lib';
import type * as BuilderUtil from 'builder-util';

/**
 * electron-builder's own packing step, run on this project as `npm run dist` runs it, but for the
 * Linux `dir` target only and with a stand-in Electron distribution (`electronDist`), so nothing
 * is downloaded: app-builder-lib collects the production node modules (`npm list`), matches the
 * `files` and `extraResources` of electron-builder.yml, writes resources/app.asar and flips the
 * fuses in the (stand-in) executable. The installers (AppImage, deb, dmg, nsis) are built from
 * this same directory by tools electron-builder would download, so they are not run here.
 */

/** app-builder-lib and the helpers it packs with, resolved where app-builder-lib finds them. */
const projectRequire = createRequire(import.meta.url);
const builderRequire = createRequire(projectRequire.resolve('app-builder-lib'));
const builder = projectRequire('app-builder-lib') as typeof AppBuilder;
const builderUtil = builderRequire('builder-util') as typeof BuilderUtil;
const asar = builderRequire('@electron/asar') as typeof Asar;
const fuses = builderRequire('@electron/fuses') as typeof Fuses;
const { SENTINEL, FuseState } = builderRequire('@electron/fuses/dist/constants.js') as typeof FuseConstants;

/** Electron's default fuse wire (fuse wire version 1, eight fuses), as a release binary carries it. */
const STOCK_FUSES = '10110001';

export interface PackedFile {
  /** Path inside app.asar, `/`-separated, no leading slash. */
  readonly path: string;
  readonly size: number;
}

export interface DesktopPack {
  /** Every file in resources/app.asar. */
  readonly appFiles: readonly PackedFile[];
  /** The package.json electron-builder wrote into the asar. */
  readonly packageJson: { readonly main?: string; readonly dependencies?: Record<string, string>; readonly devDependencies?: unknown; readonly optionalDependencies?: unknown };
  /** Files under resources/ beside the asar (extraResources), relative to resources/. */
  readonly resources: readonly string[];
  /** The executable's fuses after packing, by @electron/fuses' name: true on, false off. */
  readonly fuses: Readonly<Record<string, boolean>>;
  readonly asarBytes: number;
  /** What electron-builder logged. */
  readonly log: readonly string[];
}

/** A Linux Electron distribution's layout, with a script for the executable that carries a fuse wire. */
async function standInElectron(dir: string): Promise<void> {
  await mkdir(path.join(dir, 'locales'), { recursive: true });
  await mkdir(path.join(dir, 'resources'), { recursive: true });
  await writeFile(path.join(dir, 'locales', 'en-US.pak'), '');
  const wire = Buffer.concat([Buffer.from(SENTINEL), Buffer.from([1, STOCK_FUSES.length]), Buffer.from(STOCK_FUSES)]);
  await writeFile(path.join(dir, 'electron'), Buffer.concat([Buffer.from('#!/bin/sh\n# stand-in for the Electron binary: '), wire, Buffer.from('\nexit 1\n')]));
  await chmod(path.join(dir, 'electron'), 0o755);
}

function asarFiles(archive: string): PackedFile[] {
  type Entry = { files?: Record<string, Entry>; size?: number };
  const files: PackedFile[] = [];
  const walk = (entry: Entry, prefix: string): void => {
    for (const [name, child] of Object.entries(entry.files ?? {})) {
      if (child.files !== undefined) walk(child, `${prefix}${name}/`);
      else files.push({ path: `${prefix}${name}`, size: child.size ?? 0 });
    }
  };
  walk(asar.getRawHeader(archive).header as Entry, '');
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) found.push(...(await filesUnder(path.join(dir, entry.name), `${prefix}${entry.name}/`)));
    else if (entry.name !== 'app.asar') found.push(`${prefix}${entry.name}`);
  }
  return found.sort();
}

async function fuseStates(executable: string): Promise<Record<string, boolean>> {
  const wire = await fuses.getCurrentFuseWire(executable);
  const states: Record<string, boolean> = {};
  for (const [index, state] of Object.entries(wire)) {
    if (index === 'version') continue;
    states[fuses.FuseV1Options[Number(index)] as string] = state === FuseState.ENABLE;
  }
  return states;
}

/** Packs the project at `projectDir` (built already) into a temporary directory and reads back what was packed. */
export async function packDesktopApp(projectDir: string): Promise<DesktopPack & { readonly workDir: string }> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'companion-desktop-pack-'));
  const dist = path.join(workDir, 'electron-dist');
  await standInElectron(dist);
  const log: string[] = [];
  builderUtil.setPrinter((message) => log.push(message));
  try {
    await builder.build({
      projectDir,
      targets: builder.Platform.LINUX.createTarget(['dir'], builder.Arch.x64),
      // electron-builder.yml as it is, but for where Electron and the output come from.
      config: { electronDist: dist, npmRebuild: false, directories: { output: path.join(workDir, 'release') }, publish: null },
      publish: 'never',
    });
  } catch (error) {
    await rm(workDir, { recursive: true, force: true });
    throw new Error(`electron-builder failed: ${error instanceof Error ? error.message : String(error)}\n${log.join('\n')}`);
  } finally {
    builderUtil.setPrinter(null);
  }
  const appOut = path.join(workDir, 'release', 'linux-unpacked');
  const archive = path.join(appOut, 'resources', 'app.asar');
  return {
    workDir,
    appFiles: asarFiles(archive),
    packageJson: JSON.parse(asar.extractFile(archive, 'package.json').toString('utf8')) as DesktopPack['packageJson'],
    resources: await filesUnder(path.join(appOut, 'resources')),
    fuses: await fuseStates(path.join(appOut, 'companion')),
    asarBytes: (await stat(archive)).size,
    log,
  };
}

/** The text of a file inside the packed app. */
export async function readPacked(workDir: string, file: string): Promise<string> {
  return asar.extractFile(path.join(workDir, 'release', 'linux-unpacked', 'resources', 'app.asar'), file).toString('utf8');
}
