/**
 * The skip policy of every Windows test file, in one place: a describe() that runs when Wine,
 * mingw-w64 and node.exe are there; else one line saying what is missing and how to get it,
 * and a skip, except under CI, where it is a failing test.
 */
import { describe, expect, it } from 'vitest';
import { windowsNode } from './windows-node.js';
import { findWineTools, inCi, type WineTools } from './wine-tools.js';

export interface WineSuiteNeeds {
  readonly tools: WineTools;
  /** The cached node.exe (Linux path). */
  readonly node: string;
  readonly nodeVersion: string;
}

/** What a Windows test needs, or the one line saying why it cannot run. */
export function wineSuiteNeeds(): { readonly ok: true; readonly needs: WineSuiteNeeds } | { readonly ok: false; readonly line: string } {
  const found = findWineTools();
  if (!found.ok) return found;
  const node = windowsNode();
  if (!node.ok) return node;
  return { ok: true, needs: { tools: found.tools, node: node.path, nodeVersion: node.version } };
}

/** describe(name, body) with what the suite needs; `file` names the test file in the skip line. */
export function describeUnderWine(name: string, file: string, body: (needs: WineSuiteNeeds) => void): void {
  const found = wineSuiteNeeds();
  if (found.ok) {
    describe(name, () => body(found.needs));
    return;
  }
  if (inCi()) {
    describe(name, () => it('has Wine, mingw-w64 and node.exe to run with', () => expect.fail(found.line)));
    return;
  }
  process.stdout.write(`${file}: skipped: ${found.line}\n`);
  describe.skip(`${name} (${found.line})`, () => it('skipped', () => undefined));
}
