/**
 * What the bridge test runs: the bridge as `npm run build:bridge` builds it, the C test game
 * (bridge-fixtures/bridge-game.c) built with mingw-w64, and the suite's skip policy (Wine and
 * mingw-w64 on PATH; without them one line and a skip, or a failure under CI).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/cli-process.js';
import { buildWindowsC } from '../../support/wine/mingw.js';
import { findWineTools, inCi, type WineTools } from '../../support/wine/wine-tools.js';

export const BRIDGE_EXE = path.join(REPO_ROOT, 'out/bridge/companion-bridge.exe');

/** `npm run build:bridge`; throws with its output. */
export function buildBridge(): string {
  const run = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/build-bridge.mjs')], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0 || !existsSync(BRIDGE_EXE)) throw new Error(`npm run build:bridge failed: ${run.stderr}${run.stdout}`);
  return BRIDGE_EXE;
}

/** The test game, built into `dir`. */
export function buildBridgeGame(dir: string, tools: WineTools): Promise<string> {
  return buildWindowsC([path.join(REPO_ROOT, 'main/test/windows/bridge-fixtures/bridge-game.c')], path.join(dir, 'bridge-game.exe'), { gcc: tools.gcc });
}

/** describe() when Wine and mingw-w64 are there; else the one line, and a skip (a failure under CI). */
export function describeWithWine(name: string, file: string, body: (tools: WineTools) => void): void {
  const found = findWineTools();
  if (found.ok) {
    describe(name, () => body(found.tools));
  } else if (inCi()) {
    describe(name, () => it('has Wine and mingw-w64 to run with', () => expect.fail(found.line)));
  } else {
    process.stdout.write(`${file}: skipped: ${found.line}\n`);
    describe.skip(`${name} (${found.line})`, () => it('skipped', () => undefined));
  }
}
