/**
 * Record a real client library's session (xhayper: AUTHORIZE, the token endpoint,
 * AUTHENTICATE, SET_ACTIVITY, SUBSCRIBE) on one host, replay it with the built CLI against a
 * fresh host on a fresh emulator: no differences. A host that answers SET_ACTIVITY differently
 * makes the replay fail with a readable diff.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readRecording } from '../../../src/host/record/record-reader.js';
import { CliProcess } from '../../support/cli-process.js';
import { World, type Player } from '../../e2e/support/world.js';
import { recordXhayperSession } from './support.js';

const worlds: World[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.close();
});

/** A fresh emulator and a fresh host for alice that approves every authorization. */
async function freshHost(): Promise<{ world: World; runtimeFile: string; player: Player }> {
  const world = await World.start();
  worlds.push(world);
  const player = await world.player('alice', { consentPolicy: 'approve' });
  if (player.host.runtimeFile === null) throw new Error('the host has no runtime file');
  return { world, runtimeFile: player.host.runtimeFile, player };
}

describe('record and replay a real client session', () => {
  it('replays against a fresh host with zero differences, the authorization redeemed anew', async () => {
    const { file } = await recordXhayperSession(worlds);
    const recording = await readRecording(file);
    const commands = recording.records.flatMap((r) => (r.kind === 'frame' && r.direction === 'in' ? [(r.payload as { cmd?: string } | null)?.cmd ?? 'HANDSHAKE'] : []));
    expect(commands).toEqual(['HANDSHAKE', 'AUTHORIZE', 'AUTHENTICATE', 'SET_ACTIVITY', 'SUBSCRIBE']);

    const fresh = await freshHost();
    const replay = await CliProcess.complete(['replay', file, '--host', fresh.runtimeFile, '--fast']);
    expect(replay.stderr).toBe('');
    expect(replay.stdout).toContain('No differences');
    expect(replay.stdout).toMatch(/AUTHORIZE \(nonce [^)]+\): the new code was redeemed/);
    expect(replay.stdout).toMatch(/AUTHENTICATE \(nonce [^)]+\): sent the access token redeemed/);
    expect(replay.code).toBe(0);
  }, 30_000);

  it('paced (at the recorded times) it passes too', async () => {
    const { file } = await recordXhayperSession(worlds);
    const fresh = await freshHost();
    const replay = await CliProcess.complete(['replay', file, '--host', fresh.runtimeFile]);
    expect(replay.stdout).toContain('No differences');
    expect(replay.code).toBe(0);
  }, 30_000);

  it('a host that answers SET_ACTIVITY differently fails the replay with a readable diff', async () => {
    const { file } = await recordXhayperSession(worlds);
    const fresh = await freshHost();
    // The changed behaviour: SET_ACTIVITY answers with another state and without the party.
    fresh.player.host.server.setCommandHandler('SET_ACTIVITY', ({ request }) => {
      const activity = request.args['activity'] as Record<string, unknown>;
      const { party: _party, ...rest } = activity;
      return { ...rest, state: 'Changed by the host' };
    });
    const replay = await CliProcess.complete(['replay', file, '--host', fresh.runtimeFile, '--fast']);
    expect(replay.code).toBe(1);
    const out = replay.stdout;
    expect(out).toMatch(/reply to SET_ACTIVITY \(nonce [^)]+\)\n/);
    expect(out).toContain('    $.data.state\n      expected: "In a squad"\n      actual:   "Changed by the host"');
    expect(out).toMatch(/\$\.data\.party\n {6}expected: \{"id":"party-alpha","size":\[1,4\]\}\n {6}actual: {3}\(absent\)/);
    expect(out).toMatch(/\n\d+ differences?\n$/);
  }, 30_000);

  it('finds the host by its control URL (token in COMPANION_CONTROL_TOKEN); --json reports for tools', async () => {
    const { file } = await recordXhayperSession(worlds);
    const fresh = await freshHost();
    const host = fresh.player.host;
    const replay = await CliProcess.complete(['replay', file, '--host', host.control.url, '--fast', '--json'], { COMPANION_CONTROL_TOKEN: host.control.token });
    expect(replay.code).toBe(0);
    const report = JSON.parse(replay.stdout) as { differences: number; connections: { id: string; sent: number; received: number; frames: unknown[] }[]; notes: string[] };
    expect(report.differences).toBe(0);
    expect(report.connections).toEqual([expect.objectContaining({ id: 'c1', sent: 5, received: 5, frames: [] })]);
    expect(report.notes).toHaveLength(2);
    const noToken = await CliProcess.complete(['replay', file, '--host', host.control.url]);
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toContain('set COMPANION_CONTROL_TOKEN');
  }, 30_000);

  it('exit code 2 for usage errors, 1 with a message for a file that is not a recording or a missing host', async () => {
    const usage = await CliProcess.complete(['replay']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('missing the recording FILE');
    const bad = await CliProcess.complete(['replay', 'package.json', '--host', '/nonexistent/host.json']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('package.json is not a recording');
    const { file } = await recordXhayperSession(worlds);
    const noHost = await CliProcess.complete(['replay', file, '--host', '/nonexistent/host.json']);
    expect(noHost.code).toBe(1);
    expect(noHost.stderr).toContain('/nonexistent/host.json does not exist');
  }, 30_000);
});
