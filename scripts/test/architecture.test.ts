// The architecture rules that no linter rule can state: no import cycle between folders (type-only
// imports and dynamic import() included) under main/src, rpc/src, rpc/client and platform/src, and no
// source function over 100 lines. Each check is first shown to catch a planted violation.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { folderCycles, folderGraph, longFunctions, sourceFiles } from '../lib/source-graph.mjs';

interface Cycle {
  readonly folders: string[];
  readonly edges: string[];
}
interface LongFunction {
  readonly file: string;
  readonly line: number;
  readonly lines: number;
  readonly name: string;
}
const cyclesOf = folderCycles as (graph: unknown) => Cycle[];
const graphOf = folderGraph as (root: string) => unknown;
const longOf = longFunctions as (files: string[], limit: number) => LongFunction[];
const filesOf = sourceFiles as (root: string) => string[];

const SOURCE_ROOTS = ['main/src', 'rpc/src', 'rpc/client', 'platform/src', 'common/src', 'preload/src', 'renderer/src'];
const MAX_FUNCTION_LINES = 100;
const existing = (roots: readonly string[]): string[] => roots.filter((root) => { try { return filesOf(root).length > 0; } catch { return false; } });

const scratch = mkdtempSync(path.join(os.tmpdir(), 'companion-architecture-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
function plant(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(scratch, 'tree-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

describe('folder cycles', () => {
  it('are found through type-only imports, re-exports and dynamic import()', () => {
    const typeOnly = plant({ 'a/x.ts': "import type { Y } from '../b/y.js';\nexport type X = Y;\n", 'b/y.ts': "export type Y = 1;\nexport { helper } from '../a/z.js';\n", 'a/z.ts': 'export const helper = 1;\n' });
    expect(cyclesOf(graphOf(typeOnly)).map((cycle) => cycle.folders)).toEqual([['a', 'b']]);
    const dynamic = plant({ 'a/x.ts': "export const load = () => import('../b/y.js');\n", 'b/y.ts': "import { load } from '../a/x.js';\nexport const y = load;\n" });
    expect(cyclesOf(graphOf(dynamic))).toHaveLength(1);
    const acyclic = plant({ 'a/x.ts': "import { y } from '../b/y.js';\nexport const x = y;\n", 'b/y.ts': 'export const y = 1;\n' });
    expect(cyclesOf(graphOf(acyclic))).toEqual([]);
  });

  for (const root of existing(SOURCE_ROOTS)) {
    it(`none under ${root}`, () => {
      expect(cyclesOf(graphOf(root))).toEqual([]);
    });
  }
});

describe('function length', () => {
  it(`finds a function over ${MAX_FUNCTION_LINES} lines, nested or not`, () => {
    const body = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const root = plant({ 'long.ts': `export function outer(): void {\n  const inner = () => {\n${body}\n  };\n  inner();\n}\n`, 'short.ts': 'export const f = (): number => 1;\n' });
    const found = longOf(filesOf(root), MAX_FUNCTION_LINES);
    expect(found.map((entry) => entry.name).sort()).toEqual(['inner', 'outer']);
  });

  it(`no source function is over ${MAX_FUNCTION_LINES} lines`, () => {
    const found = longOf(existing(SOURCE_ROOTS).flatMap((root) => filesOf(root)), MAX_FUNCTION_LINES);
    expect(found.map((entry) => `${entry.file}:${entry.line} ${entry.name} (${entry.lines} lines)`)).toEqual([]);
  });
});
