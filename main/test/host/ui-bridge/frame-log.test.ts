import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameLog, MAX_FRAME_PAYLOAD_CHARS, redactPayload } from '../../../src/host/ui-bridge/frame-log.js';
import { defaultRendererDir, resolveStatic } from '../../../src/shells/web/static-files.js';
import { fakeRenderer } from './support.js';

const trace = (payload: unknown, direction: 'in' | 'out' = 'in') => ({ connectionId: 'ipc-1', direction, opcode: 1, payload, at: 1_700_000_000_000 });

describe('frame redaction', () => {
  it('redacts tokens, AUTHORIZE codes, join secrets at any depth, keeps the RPC nonce and error codes', () => {
    expect(redactPayload({ cmd: 'AUTHENTICATE', args: { access_token: 'tok' }, nonce: 'n1' })).toEqual({ cmd: 'AUTHENTICATE', args: { access_token: '[redacted]' }, nonce: 'n1' });
    expect(redactPayload({ cmd: 'AUTHORIZE', data: { code: 'abc' }, evt: null, nonce: 'n2' })).toEqual({ cmd: 'AUTHORIZE', data: { code: '[redacted]' }, evt: null, nonce: 'n2' });
    expect(redactPayload({ cmd: 'AUTHORIZE', data: { code: 4006, message: 'Not authenticated' }, evt: 'ERROR', nonce: 'n3' })).toMatchObject({ data: { code: 4006 } });
    expect(redactPayload({ args: { activity: { secrets: { join: 'j', match: 'm' }, state: 's' } } })).toEqual({ args: { activity: { secrets: '[redacted]', state: 's' } } });
    expect(redactPayload({ evt: 'ACTIVITY_JOIN', data: { secret: 'j' } })).toEqual({ evt: 'ACTIVITY_JOIN', data: { secret: '[redacted]' } });
    expect(redactPayload({ data: { refresh_token: 'r', user: { id: '1' } } })).toEqual({ data: { refresh_token: '[redacted]', user: { id: '1' } } });
    expect(redactPayload([{ access_token: 't' }])).toEqual([{ access_token: '[redacted]' }]);
  });

  it('bounds the depth, so nothing hides below where the scrubbing stops', () => {
    let deep: unknown = { access_token: 'deep-secret' };
    for (let i = 0; i < 20; i++) deep = { a: deep };
    expect(JSON.stringify(redactPayload(deep))).not.toContain('deep-secret');
  });
});

describe('FrameLog', () => {
  it('numbers frames, extracts cmd/evt/nonce', () => {
    const log = new FrameLog();
    const first = log.record(trace({ cmd: 'DISPATCH', evt: 'READY', nonce: null, data: {} }, 'out')).view();
    expect(first).toEqual({ seq: 1, connection_id: 'ipc-1', direction: 'out', opcode: 1, at: 1_700_000_000_000, cmd: 'DISPATCH', evt: 'READY', nonce: null, payload: { cmd: 'DISPATCH', evt: 'READY', nonce: null, data: {} } });
    expect(log.lastSeq).toBe(1);
  });

  it('answers the rows above a seq still kept', () => {
    const log = new FrameLog(8);
    for (let i = 0; i < 10; i++) log.record(trace({ cmd: 'PING', nonce: String(i) }));
    // A head of 2 (a quarter), then the newest 6.
    expect(log.since(6).map((view) => view.seq)).toEqual([7, 8, 9, 10]);
    expect(log.since(0).map((view) => view.seq)).toEqual([1, 2, 5, 6, 7, 8, 9, 10]);
    expect(log.since(10)).toEqual([]);
    expect(log.since(6)[0]).toEqual(log.since(6)[0]);
  });
  it('replaces an oversized payload with a bounded preview', () => {
    const log = new FrameLog(10);
    const view = log.record(trace({ cmd: 'SET_ACTIVITY', args: { blob: 'x'.repeat(MAX_FRAME_PAYLOAD_CHARS * 2) } })).view();
    expect(view.payload).toMatchObject({ truncated: true, length: expect.any(Number) });
    expect(JSON.stringify(view.payload).length).toBeLessThan(4096);
    expect(view.cmd).toBe('SET_ACTIVITY');
  });
});

describe('frame lints', () => {
  it('an incoming SET_ACTIVITY carries the linter\'s findings; other frames carry none', () => {
    const seen: unknown[] = [];
    const apps = new Map([['ipc-1', '42']]);
    const log = new FrameLog(10, {
      applicationOf: (connectionId) => apps.get(connectionId) ?? '',
      lint: (applicationId, args, at) => {
        seen.push([applicationId, args, at]);
        return [{ code: 'timestamp-seconds', field: 'timestamps.start', message: 'looks like seconds', severity: 'warning' }];
      },
    });
    const args = { pid: 1, activity: { timestamps: { start: 1_700_000_000 } } };
    const entry = log.record(trace({ cmd: 'SET_ACTIVITY', args, nonce: 'n' }));
    // The game leaves before the frame is shown: the lint still knows its application.
    apps.delete('ipc-1');
    expect(seen).toEqual([]);
    expect(entry.view().lints).toEqual([
      { code: 'timestamp-seconds', field: 'timestamps.start', message: 'looks like seconds', severity: 'warning' },
    ]);
    expect(seen).toEqual([['42', args, 1_700_000_000_000]]);
    expect(log.record(trace({ cmd: 'SET_ACTIVITY', data: {}, evt: null, nonce: 'n' }, 'out')).view().lints).toBeUndefined();
    expect(log.record(trace({ cmd: 'SUBSCRIBE', evt: 'ACTIVITY_JOIN', nonce: 'm' })).view().lints).toBeUndefined();
    expect(new FrameLog(10).record(trace({ cmd: 'SET_ACTIVITY', args, nonce: 'n' })).view().lints).toBeUndefined();
    expect(seen).toHaveLength(1);
  });
});

describe('static files', () => {
  it('finds <repo>/out/renderer from source and from the build', () => {
    const repo = path.resolve('/srv/companion');
    expect(defaultRendererDir(pathToFileURL(path.join(repo, 'main/src/shells/web/web-ui-server.ts')).href)).toBe(path.join(repo, 'out/renderer'));
    expect(defaultRendererDir(pathToFileURL(path.join(repo, 'out/main/src/shells/web/web-ui-server.js')).href)).toBe(path.join(repo, 'out/renderer'));
  });

  it('resolves files under the root and refuses everything that leaves it', async () => {
    const fake = await fakeRenderer();
    try {
      expect(await resolveStatic(fake.rendererDir, '/assets/app.js')).toMatchObject({ kind: 'file' });
      expect(await resolveStatic(fake.rendererDir, '/settings')).toEqual({ kind: 'missing', spa: true });
      expect(await resolveStatic(fake.rendererDir, '/nope.png')).toEqual({ kind: 'missing', spa: false });
      expect(await resolveStatic(fake.rendererDir, '/assets')).toEqual({ kind: 'missing', spa: true });
      for (const bad of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '//etc/passwd', '/a\\..\\b', 'relative']) {
        expect(await resolveStatic(fake.rendererDir, bad), bad).toEqual({ kind: 'bad' });
      }
    } finally {
      await fake.remove();
    }
  });
});

describe('FrameLog: the fast path for frames without secrets', () => {
  const key = fc.oneof(fc.constantFrom('nonce', 'code', 'secret', 'secrets', 'access_token', 'token', 'state', 'party', 'cmd', 'args', 'password', 'data'), fc.string({ maxLength: 6 }));
  const payloadArb = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 3 }),
    object: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  })).object;

  it('shows exactly what the copying path shows, whatever the payload holds', () => {
    fc.assert(
      fc.property(payloadArb, fc.constantFrom<'in' | 'out'>('in', 'out'), (payload, direction) => {
        const trace = { connectionId: 'c1', direction, opcode: 1, payload, at: 0 };
        const slow = new FrameLog().record(trace).view().payload;
        const fast = new FrameLog().record({ ...trace, json: Buffer.from(JSON.stringify(payload)) }).view().payload;
        expect(fast).toEqual(slow);
      }),
      { numRuns: 2000 },
    );
  });

  it('still redacts a secret and bounds a deep payload when the wire JSON is given', () => {
    const payload = { cmd: 'AUTHENTICATE', args: { access_token: 'tok-123' }, nonce: 'n1', deep: { a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } } };
    const view = new FrameLog().record({ connectionId: 'c1', direction: 'in', opcode: 1, payload, at: 0, json: Buffer.from(JSON.stringify(payload)) }).view();
    expect(JSON.stringify(view.payload)).not.toContain('tok-123');
    expect(JSON.stringify(view.payload)).toContain('[too deep]');
    expect((view.payload as { nonce: string }).nonce).toBe('n1');
  });
});

describe('issue 26 §4: the host keeps every connection\'s conversation from the first byte in a bounded ring', () => {
  const at = (connectionId: string, cmd: string, direction: 'in' | 'out' = 'in') => ({ connectionId, direction, opcode: 1, payload: { cmd, nonce: cmd }, at: 0 });

  it("keeps a connection's opening and its newest rows, and says how many were dropped where they were", () => {
    const log = new FrameLog({ head: 3, maxEntries: 10 });
    log.recordEvent({ kind: 'open', connection: 'c1', transport: 'ipc' }, 0);
    log.record(at('c1', 'HANDSHAKE'));
    log.record(at('c1', 'READY', 'out'));
    for (let i = 0; i < 100; i++) log.record(at('c1', `SET_ACTIVITY-${i}`));
    const rows = log.list();
    expect(rows).toHaveLength(10);
    expect(rows.slice(0, 3).map((row) => row.cmd)).toEqual(['open', 'HANDSHAKE', 'READY']);
    expect(rows[3]).toMatchObject({ cmd: 'SET_ACTIVITY-93', dropped_before: 93 });
    expect(rows.filter((row) => row.dropped_before !== undefined)).toHaveLength(1);
    // A reader that already has the rows up to after the gap gets no marker again.
    expect(log.since(rows[4]?.seq ?? 0).some((row) => row.dropped_before !== undefined)).toBe(false);
  });

  it("a busy connection does not push a quiet one's conversation out; the total is bounded", () => {
    const log = new FrameLog({ head: 2, maxEntries: 1_000, maxTotalEntries: 300 });
    log.record(at('quiet', 'HANDSHAKE'));
    log.record(at('quiet', 'READY', 'out'));
    log.record(at('quiet', 'SET_ACTIVITY'));
    for (let i = 0; i < 5_000; i++) log.record(at('busy', `SET_ACTIVITY-${i}`));
    expect(log.kept.entries).toBe(300);
    expect(log.list().filter((row) => row.connection_id === 'quiet').map((row) => row.cmd)).toEqual(['HANDSHAKE', 'READY', 'SET_ACTIVITY']);
    expect(log.list().find((row) => row.connection_id === 'busy' && row.dropped_before !== undefined)?.dropped_before).toBe(5_000 - 297);
  });

  it('bounds the bytes of a ring and of all of them', () => {
    const big = { cmd: 'SET_ACTIVITY', args: { activity: { state: 'x'.repeat(1_000) } } };
    const log = new FrameLog({ head: 1, maxBytes: 20_000, maxTotalBytes: 50_000 });
    for (let c = 0; c < 5; c++) for (let i = 0; i < 200; i++) log.record({ connectionId: `c${c}`, direction: 'in', opcode: 1, payload: big, at: 0 });
    expect(log.kept.bytes).toBeLessThanOrEqual(50_000);
    for (let c = 0; c < 5; c++) expect(log.list().filter((row) => row.connection_id === `c${c}`).length).toBeLessThanOrEqual(20);
  });

  it("keeps a closed connection's ring for a while, and only the newest few", () => {
    let now = 0;
    const log = new FrameLog({ closedKept: 2, closedForMs: 1_000 }, undefined, () => now);
    for (const id of ['c1', 'c2', 'c3']) {
      log.record(at(id, 'HANDSHAKE'));
      log.recordEvent({ kind: 'close', connection: id, reason: 'client', code: 1000 }, now);
      now += 10;
    }
    expect(new Set(log.list().map((row) => row.connection_id))).toEqual(new Set(['c2', 'c3']));
    now += 2_000;
    expect(log.list()).toEqual([]);
    expect(log.kept).toEqual({ entries: 0, bytes: 0, connections: 0 });
  });

  it("forgets a probe's ring (a connection that left without a byte) at once", () => {
    const log = new FrameLog();
    log.recordEvent({ kind: 'open', connection: 'probe-1', transport: 'ipc' }, 0);
    log.forgetConnection('probe-1');
    expect(log.kept).toEqual({ entries: 0, bytes: 0, connections: 0 });
  });

  it('never keeps a token, an authorization code or a join secret in memory (the recording redaction)', () => {
    const log = new FrameLog();
    const payload = { cmd: 'AUTHENTICATE', args: { access_token: 'tok-kept-nowhere' }, nonce: 'n' };
    const entry = log.record({ connectionId: 'c1', direction: 'in', opcode: 1, payload, at: 0, json: Buffer.from(JSON.stringify(payload)) });
    const join = log.record({ connectionId: 'c1', direction: 'in', opcode: 1, payload: { cmd: 'SET_ACTIVITY', args: { activity: { secrets: { join: 'join-kept-nowhere' } } } }, at: 0 });
    const gateway = log.recordEvent({ kind: 'gateway', type: 'READY', data: { access_token: 'gw-kept-nowhere' } }, 0);
    // What each entry holds (its fields, before any view is made).
    const held = [entry, join, gateway].map((kept) => JSON.stringify(Object.values(kept))).join('');
    expect(held).toContain('[redacted]');
    expect(held).not.toMatch(/kept-nowhere/);
    expect(JSON.stringify(log.list())).not.toMatch(/kept-nowhere/);
  });
});
