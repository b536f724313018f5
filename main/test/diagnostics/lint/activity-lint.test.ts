import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { RpcError, runSetActivity } from '../../../../rpc/src/index.js';
import { createActivityLinter, lintActivity, lintSetActivityArgs, type ActivityLint } from '../../../src/diagnostics/lint/activity-lint.js';

/** Golden cases: the wire answer (the real client's validation) next to the lint events. UPDATE_GOLDEN=1 rewrites the file. */
const GOLDEN = new URL('./golden/activity-lint.json', import.meta.url);
const NOW = 1_750_000_000_000;
const APP = '123456789012345678';
const ASSETS = new Set(['logo', 'map_dust']);
const JOINABLE = { party: { id: 'party-1', size: [1, 4] } };

interface Case {
  readonly name: string;
  readonly activity: Record<string, unknown>;
}

const CASES: readonly Case[] = [
  { name: '128 ASCII characters in details (128 bytes)', activity: { details: 'a'.repeat(128) } },
  { name: '128 bytes of multibyte text in details (64 characters)', activity: { details: 'é'.repeat(64) } },
  { name: '128 characters of multibyte text in details (256 bytes)', activity: { details: 'é'.repeat(128) } },
  { name: '129 ASCII characters in state', activity: { state: 's'.repeat(129) } },
  { name: '1-character state', activity: { state: 'x' } },
  { name: '1 emoji as state (2 UTF-16 units: accepted)', activity: { state: '🎮' } },
  { name: 'state of spaces', activity: { state: '   ' } },
  { name: 'emoji button label', activity: { buttons: [{ label: 'Join 🎮', url: 'https://example.com/join' }] } },
  { name: 'button label of 32 multibyte characters', activity: { buttons: [{ label: 'ü'.repeat(32), url: 'https://example.com' }] } },
  { name: 'button url that is not http', activity: { buttons: [{ label: 'Open', url: 'steam://run/42' }] } },
  { name: 'timestamps in seconds', activity: { details: 'Ranked', timestamps: { start: 1_749_999_000 } } },
  { name: 'timestamps in milliseconds', activity: { details: 'Ranked', timestamps: { start: 1_749_999_000_000 } } },
  { name: 'timestamps in microseconds', activity: { details: 'Ranked', timestamps: { start: 1_749_999_000_000_000 } } },
  { name: 'end before start', activity: { timestamps: { start: 1_749_999_000_000, end: 1_749_998_000_000 } } },
  { name: 'start more than 24 hours ago', activity: { timestamps: { start: NOW - 25 * 3600_000 } } },
  { name: 'party size 0', activity: { party: { id: 'party-1', size: [0, 4] }, secrets: { join: 'join-1' } } },
  { name: 'party max 0 with a join secret', activity: { party: { id: 'party-1', size: [1, 0] }, secrets: { join: 'join-1' } } },
  { name: 'full party with a join secret', activity: { party: { id: 'party-1', size: [4, 4] }, secrets: { join: 'join-1' } } },
  { name: 'join secret without party', activity: { secrets: { join: 'join-1' } } },
  { name: 'joinable party', activity: { ...JOINABLE, secrets: { join: 'join-1' } } },
  { name: 'party without a join secret', activity: { ...JOINABLE } },
  { name: '129-byte join secret (129 ASCII characters)', activity: { ...JOINABLE, secrets: { join: 'j'.repeat(129) } } },
  { name: '129-byte join secret (65 characters)', activity: { ...JOINABLE, secrets: { join: `${'é'.repeat(64)}j` } } },
  { name: 'spectate secret', activity: { ...JOINABLE, secrets: { join: 'join-1', spectate: 'spec-1' } } },
  { name: 'buttons with a join secret', activity: { ...JOINABLE, secrets: { join: 'join-1' }, buttons: [{ label: 'Site', url: 'https://example.com' }] } },
  { name: 'asset key the app never uploaded', activity: { assets: { large_image: 'map_mirage', large_text: 'Mirage', small_image: 'LOGO' } } },
  { name: 'asset URL and media proxy reference', activity: { assets: { large_image: 'https://cdn.example.com/a.png', small_image: 'mp:external/abc' } } },
  { name: 'image text without image', activity: { assets: { small_text: 'Rank 3' } } },
  { name: 'instance without party (pypresence default)', activity: { details: 'Menu', instance: true } },
  { name: 'status_display_type without its field', activity: { details: 'Menu', status_display_type: 1 } },
  { name: 'details_url that is not http', activity: { details: 'Menu', details_url: 'ftp://example.com/x' } },
  { name: 'type 3 (Watching)', activity: { type: 3, details: 'A film' } },
  { name: 'type 1 (Streaming) is refused', activity: { type: 1, details: 'A stream' } },
];

function wireAnswer(activity: Record<string, unknown>): unknown {
  try {
    const result = runSetActivity({ pid: 4242, activity }, { applicationId: APP, applicationName: 'Golden Game', transport: 'ipc', now: () => NOW });
    return { evt: null, data: result.activity };
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    return { evt: 'ERROR', data: { code: error.code, message: error.message } };
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe('activity lint: golden cases with the wire answer', () => {
  it('matches main/test/diagnostics/lint/golden/activity-lint.json', async () => {
    const actual = CASES.map(({ name, activity }) => ({
      name,
      activity,
      wire: wireAnswer(activity),
      lints: lintActivity(deepFreeze(structuredClone(activity)), { now: NOW, assetKeys: ASSETS }),
    }));
    const text = JSON.stringify(actual, null, 2) + '\n';
    if (process.env['UPDATE_GOLDEN'] === '1') await writeFile(GOLDEN, text);
    expect(JSON.parse(text)).toEqual(JSON.parse(await readFile(GOLDEN, 'utf8')));
  });

  it('leaves the wire answer alone: the lint reads the args and never changes them', () => {
    for (const { activity } of CASES) {
      const args = deepFreeze({ pid: 1, activity: structuredClone(activity) });
      const before = JSON.stringify(args);
      lintSetActivityArgs(args, { now: NOW, assetKeys: ASSETS });
      expect(JSON.stringify(args)).toBe(before);
    }
  });
});

describe('activity lint: shape and entry points', () => {
  it('has a code, a field, a message and a severity in each event, and nothing for clears or non-objects', () => {
    const all: ActivityLint[] = CASES.flatMap(({ activity }) => lintActivity(activity, { now: NOW, assetKeys: ASSETS }));
    expect(all.length).toBeGreaterThan(20);
    for (const lint of all) {
      expect(Object.keys(lint).sort()).toEqual(['code', 'field', 'message', 'severity']);
      expect(['warning', 'info']).toContain(lint.severity);
    }
    expect(lintSetActivityArgs({ pid: 1 })).toEqual([]);
    expect(lintSetActivityArgs({ pid: 1, activity: null })).toEqual([]);
    expect(lintSetActivityArgs('nonsense')).toEqual([]);
    expect(lintActivity(['not', 'an', 'object'])).toEqual([]);
  });

  it('checks asset keys only when the asset list is known', () => {
    const activity = { assets: { large_image: 'never_uploaded' } };
    expect(lintActivity(activity, { now: NOW })).toEqual([]);
    expect(lintActivity(activity, { now: NOW, assetKeys: new Set() }).map((l) => l.code)).toEqual(['asset-not-uploaded']);
  });

  it('createActivityLinter looks up the application’s assets per call', () => {
    const lookups: string[] = [];
    const lint = createActivityLinter({
      now: () => NOW,
      assetKeys: (id) => {
        lookups.push(id);
        return id === APP ? ASSETS : undefined;
      },
    });
    const args = { pid: 1, activity: { assets: { large_image: 'map_mirage' } } };
    expect(lint(APP, args).map((l) => l.code)).toEqual(['asset-not-uploaded']);
    expect(lint('999', args)).toEqual([]);
    expect(lookups).toEqual([APP, '999']);
  });
});
