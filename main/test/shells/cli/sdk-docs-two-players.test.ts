/**
 * Issue 28 §2.6: docs/sdk.md shows how two players run on one machine (two Companions, each with
 * its own socket directory and data, on one emulator), with commands the CLI really takes, and
 * the pages' two-player examples point there.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../../src/shells/cli/serve-options.js';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const ANCHOR = '(#two-players-on-one-machine)';

async function sdkDoc(): Promise<string> {
  return readFile(path.join(ROOT, 'docs', 'sdk.md'), 'utf8');
}

/** The shell lines of the section's first code block. */
function sectionCommands(doc: string): string[] {
  const section = doc.slice(doc.indexOf('## Two players on one machine'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.split('\n').map((line) => line.replace(/#.*$/, '').trim()).filter((line) => line !== '');
}

describe('issue 28 §2.6: docs/sdk.md runs two Companions on one machine', () => {
  it('two `companion serve` lines the CLI accepts, each with its own socket and data directory on one emulator; each game finds its own', async () => {
    const commands = sectionCommands(await sdkDoc());
    const io = { stdout: () => undefined, stderr: () => undefined, env: {}, version: 'test' };
    const serves = await Promise.all(
      commands.filter((line) => line.startsWith('companion serve ')).map((line) => parseServeArgs(line.split(/\s+/).slice(2).map((word) => (word === 'URL' ? 'http://127.0.0.1:53210' : word)), io)),
    );
    expect(serves).toHaveLength(2);
    const settings = serves.map((s) => s as Exclude<typeof s, { readonly help: true }>);
    expect(new Set(settings.map((s) => s.runtimeDir)).size).toBe(2);
    expect(new Set(settings.map((s) => s.dataDir)).size).toBe(2);
    expect(new Set(settings.map((s) => s.platformUrl))).toEqual(new Set(['http://127.0.0.1:53210']));
    expect(settings.map((s) => s.consentPolicy)).toEqual(['approve', 'approve']);
    expect(commands.some((line) => line.startsWith('companion platform serve '))).toBe(true);
    const games = commands.filter((line) => line.startsWith('XDG_RUNTIME_DIR='));
    expect(games.map((line) => /^XDG_RUNTIME_DIR=(\S+)/.exec(line)?.[1]).sort()).toEqual(settings.map((s) => s.runtimeDir).sort());
    for (const game of games) expect(existsSync(path.join(ROOT, /node (\S+)/.exec(game)?.[1] ?? 'missing'))).toBe(true);
  });

  it("the page's two-player examples (the game, lobbies, invites) point to the section", async () => {
    const doc = await sdkDoc();
    const pointers = doc.split(ANCHOR).length - 1;
    expect(pointers).toBeGreaterThanOrEqual(3);
    expect(doc.slice(0, doc.indexOf('## Lobbies'))).toContain(ANCHOR);
    expect(doc.slice(doc.indexOf('## Lobbies'), doc.indexOf('### What the platform sends'))).toContain(ANCHOR);
  });
});
