import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Opcode, RawIpcClient, type RawIpcClientOptions, type RawIpcFrame } from '../../../../rpc/src/index.js';
import { redactSecrets } from '../../host/record/redact-secrets.js';
import { AuthorizationSubstitutes } from './authorization-substitutes.js';
import { ABSENT, comparePayloads, type Difference } from './compare-payloads.js';
import type { PlannedConnection, ReplayPlan, Step, TimedFrame } from './replay-plan.js';

export interface ReplayTarget {
  /** The host's IPC socket. */
  readonly ipcPath: string;
  /** Its platform (for the token endpoint), or null when unknown. */
  readonly platformUrl: string | null;
}

export interface ReplayOptions {
  /** Send each frame once the previous one's reply arrived, instead of at its recorded time. */
  readonly fast: boolean;
  /** How long to wait for a reply or the frames a connection still expects (default 5 s). */
  readonly timeoutMs?: number;
  /** For confidential applications' token exchange. */
  readonly clientSecret?: string | undefined;
}

/** The differences of one recorded frame (or a frame the host sent that the recording does not have). */
export interface FrameDifferences {
  /** What the frame is: `reply to SET_ACTIVITY (nonce 3)`, `event READY`, `CLOSE`, `token exchange`. */
  readonly what: string;
  readonly differences: readonly Difference[];
}

export interface ConnectionReport {
  readonly id: string;
  readonly clientId: string | null;
  /** Why it was not replayed, else null. */
  readonly skipped: string | null;
  readonly sent: number;
  readonly received: number;
  readonly frames: readonly FrameDifferences[];
}

export interface ReplayReport {
  readonly connections: readonly ConnectionReport[];
  /** What was substituted, for the reader (never a value). */
  readonly notes: readonly string[];
  /** Every difference, over all connections. */
  readonly differenceCount: number;
}

export const DEFAULT_REPLAY_TIMEOUT_MS = 5000;

/**
 * The game's end of a replayed connection: frames written exactly as recorded, every frame the
 * host sends collected; PING answered with PONG as every client does (the host does not trace
 * PING and PONG, so the recording has neither). 16 MiB: far above any frame a host sends.
 */
const REPLAY_SOCKET: RawIpcClientOptions = { maxPayload: 16 * 1024 * 1024, answerPings: true };

interface Live {
  readonly plan: PlannedConnection;
  socket: RawIpcClient | null;
  sent: number;
  /** Nonces of the commands sent, so replies can be told from events. */
  readonly nonces: Set<string>;
  readonly extra: FrameDifferences[];
}

/** What an outbound frame is, for pairing: a reply (by nonce), an event (by name), a CLOSE. */
type FrameKey = { readonly kind: 'reply'; readonly nonce: string; readonly cmd: string } | { readonly kind: 'event'; readonly name: string } | { readonly kind: 'close' };

function field(payload: unknown, key: string): unknown {
  return typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? (payload as Record<string, unknown>)[key] : undefined;
}

function nonceOf(payload: unknown): string | null {
  const nonce = field(payload, 'nonce');
  return typeof nonce === 'string' || typeof nonce === 'number' ? String(nonce) : null;
}

function keyOf(frame: { opcode: number; payload: unknown }, nonces: ReadonlySet<string>): FrameKey {
  if (frame.opcode === Opcode.Close) return { kind: 'close' };
  const nonce = nonceOf(frame.payload);
  const cmd = field(frame.payload, 'cmd');
  if (nonce !== null && nonces.has(nonce)) return { kind: 'reply', nonce, cmd: typeof cmd === 'string' ? cmd : '?' };
  const evt = field(frame.payload, 'evt');
  const name = typeof evt === 'string' ? evt : typeof cmd === 'string' ? cmd : `opcode ${frame.opcode}`;
  return { kind: 'event', name };
}

function slot(key: FrameKey): string {
  return key.kind === 'reply' ? `reply ${key.nonce}` : key.kind === 'event' ? `event ${key.name}` : 'close';
}

function describeKey(key: FrameKey, index: number): string {
  const nth = index === 0 ? '' : ` #${index + 1}`;
  if (key.kind === 'reply') return `reply to ${key.cmd} (nonce ${key.nonce})${nth}`;
  if (key.kind === 'event') return `event ${key.name}${nth}`;
  return `CLOSE${nth}`;
}

/**
 * Plays the game side of a recording against a running host: per recorded connection a real
 * IPC socket, the recorded frames (with fresh authorization values, see
 * AuthorizationSubstitutes) at their recorded times or, with `fast`, each once the previous
 * reply arrived; then compares what the host sent with what the recording says it sent.
 * Replies are paired by nonce (replay sends the recorded nonces), events by name and position
 * within the connection, CLOSE frames by position. Payloads are compared with
 * comparePayloads' rules, with secrets redacted on both sides, so a report never prints one.
 */
export async function runReplay(plan: ReplayPlan, target: ReplayTarget, options: ReplayOptions): Promise<ReplayReport> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_REPLAY_TIMEOUT_MS;
  const substitutes = new AuthorizationSubstitutes({ platformUrl: target.platformUrl, clientSecret: options.clientSecret, timeoutMs });
  const notes: string[] = [];
  const redemptions: Promise<unknown>[] = [];
  const closing: Promise<void>[] = [];
  const live = new Map<string, Live>();
  for (const connection of plan.connections) {
    const nonces = new Set<string>();
    for (const frame of connection.inbound) {
      const nonce = frame.opcode === Opcode.Frame ? nonceOf(frame.payload) : null;
      if (nonce !== null) nonces.add(nonce);
    }
    live.set(connection.id, { plan: connection, socket: null, sent: 0, nonces, extra: [] });
  }
  const origin = performance.now();
  // Time zero is the first game action, not the start of the recording (a recording started
  // from the UI may wait minutes for its first game).
  const shift = plan.steps[0]?.t ?? 0;
  try {
    for (const step of plan.steps) {
      const state = live.get(step.connection.id) as Live;
      if (!options.fast) await sleepUntil(origin + step.t - shift);
      await perform(step, state);
    }
    await Promise.all(closing);
    await Promise.all([...live.values()].map(async (state) => finish(state)));
    substitutes.abandon();
    await Promise.all(redemptions);
  } finally {
    for (const state of live.values()) state.socket?.close();
  }

  async function perform(step: Step, state: Live): Promise<void> {
    switch (step.kind) {
      case 'open':
        try {
          state.socket = await RawIpcClient.connect(target.ipcPath, REPLAY_SOCKET);
        } catch (error) {
          state.extra.push({ what: 'connect', differences: [{ path: '$', expected: 'a connection', actual: `cannot connect to ${target.ipcPath} (${(error as NodeJS.ErrnoException).code ?? 'error'})` }] });
        }
        return;
      case 'send':
        await send(state, step.frame);
        return;
      case 'close':
        // Paced, a connection that waits for its last frames must not hold the others' timeline back.
        if (options.fast) await finish(state);
        else closing.push(finish(state));
        return;
    }
  }

  async function send(state: Live, frame: TimedFrame): Promise<void> {
    const socket = state.socket;
    if (socket === null || socket.isClosed) return;
    const payload = await substitute(state, frame);
    socket.send(frame.opcode, payload);
    state.sent += 1;
    if (!options.fast) return;
    // Fast: the next frame goes once this one's answer (if the recording has one) is here.
    const key = frame.opcode === Opcode.Handshake ? 'handshake' : nonceOf(frame.payload);
    if (key === 'handshake') {
      if (state.plan.outbound.length > 0) await socket.until(() => socket.frames.length > 0, timeoutMs);
    } else if (key !== null && frame.opcode === Opcode.Frame) {
      const expected = state.plan.outbound.filter((out) => nonceOf(out.payload) === key).length;
      if (expected > 0) await socket.until(() => socket.frames.filter((got) => nonceOf(got.payload) === key).length >= expected, timeoutMs);
    }
  }

  /** The payload as replay sends it: authorization values issued anew. */
  async function substitute(state: Live, frame: TimedFrame): Promise<unknown> {
    if (frame.opcode !== Opcode.Frame) return frame.payload;
    const cmd = field(frame.payload, 'cmd');
    const args = field(frame.payload, 'args');
    const nonce = nonceOf(frame.payload) ?? '?';
    const key = `${state.plan.id} AUTHORIZE (nonce ${nonce})`;
    if (cmd === 'AUTHORIZE' && typeof args === 'object' && args !== null) {
      const applicationId = String((args as Record<string, unknown>)['client_id'] ?? state.plan.clientId ?? '');
      const sentArgs = substitutes.authorizeSent(key, applicationId, args as Record<string, unknown>);
      let gotCode = false;
      state.socket?.onReply(nonce, (reply) => {
        const code = field(field(reply.payload, 'data'), 'code');
        gotCode = typeof code === 'string';
        substitutes.authorizeAnswered(key, typeof code === 'string' ? { code } : { error: 'its reply carried no code' });
      });
      const token = substitutes.accessToken(applicationId);
      if (token !== undefined) {
        redemptions.push(
          token.then((outcome) => {
            if (outcome.ok) notes.push(`${key}: the new code was redeemed at the platform's token endpoint`);
            else if (gotCode) state.extra.push({ what: `token exchange for ${key}`, differences: [{ path: '$', expected: 'an access token', actual: outcome.error }] });
          }),
        );
      }
      return { ...(frame.payload as Record<string, unknown>), args: sentArgs };
    }
    if (cmd === 'AUTHENTICATE' && typeof args === 'object' && args !== null) {
      const applicationId = state.plan.clientId ?? '';
      const pending = substitutes.accessToken(applicationId);
      const what = `${state.plan.id} AUTHENTICATE (nonce ${nonce})`;
      if (pending === undefined) {
        notes.push(`${what}: no AUTHORIZE of this replay asked for a token for ${applicationId}; sent the recorded value`);
        return frame.payload;
      }
      const outcome = await withTimeout(pending, timeoutMs, { ok: false, error: 'no token in time' });
      if (!outcome.ok) {
        notes.push(`${what}: no new token (${outcome.error}); sent the recorded value`);
        return frame.payload;
      }
      notes.push(`${what}: sent the access token redeemed for ${outcome.from}`);
      return { ...(frame.payload as Record<string, unknown>), args: { ...(args as Record<string, unknown>), access_token: outcome.token } };
    }
    return frame.payload;
  }

  /** Waits for what the connection still expects (bounded), then closes it. */
  async function finish(state: Live): Promise<void> {
    const socket = state.socket;
    if (socket === null || socket.isClosed) return;
    const expected = counts(state.plan.outbound, state.nonces);
    await socket.until(() => covers(counts(socket.frames, state.nonces), expected), timeoutMs);
    socket.close();
  }

  const reports = plan.connections.map((connection) => {
    const state = live.get(connection.id) as Live;
    return report(state);
  });
  const differenceCount = reports.reduce((sum, r) => sum + r.frames.reduce((n, f) => n + f.differences.length, 0), 0);
  return { connections: reports, notes, differenceCount };
}

function counts(frames: readonly { opcode: number; payload: unknown }[], nonces: ReadonlySet<string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const frame of frames) {
    const name = slot(keyOf(frame, nonces));
    out.set(name, (out.get(name) ?? 0) + 1);
  }
  return out;
}

function covers(got: ReadonlyMap<string, number>, wanted: ReadonlyMap<string, number>): boolean {
  for (const [name, count] of wanted) if ((got.get(name) ?? 0) < count) return false;
  return true;
}

/** `promise`, or `fallback` after `ms` (the timer does not outlive the race). */
async function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function sleepUntil(at: number): Promise<void> {
  const wait = at - performance.now();
  if (wait > 0) await sleep(wait);
}

function report(state: Live): ConnectionReport {
  const { plan } = state;
  const received: readonly RawIpcFrame[] = state.socket?.frames ?? [];
  const frames: FrameDifferences[] = [...state.extra];
  if (plan.skipped === null && state.socket !== null) {
    // Pair per slot (a reply's nonce, an event's name, CLOSE), in order within the slot.
    const actualBySlot = new Map<string, RawIpcFrame[]>();
    for (const frame of received) {
      const name = slot(keyOf(frame, state.nonces));
      const list = actualBySlot.get(name) ?? [];
      list.push(frame);
      actualBySlot.set(name, list);
    }
    const used = new Map<string, number>();
    for (const frame of plan.outbound) {
      const key = keyOf(frame, state.nonces);
      const name = slot(key);
      const index = used.get(name) ?? 0;
      used.set(name, index + 1);
      const actual = actualBySlot.get(name)?.[index];
      const differences = comparePayloads(redactSecrets(frame.payload), actual === undefined ? ABSENT : redactSecrets(actual.payload));
      if (differences.length > 0) frames.push({ what: describeKey(key, index), differences });
    }
    for (const [name, list] of actualBySlot) {
      const expectedCount = used.get(name) ?? 0;
      list.slice(expectedCount).forEach((frame, offset) => {
        const key = keyOf(frame, state.nonces);
        frames.push({ what: `${describeKey(key, expectedCount + offset)}, not in the recording`, differences: [{ path: '$', expected: ABSENT, actual: redactSecrets(frame.payload) }] });
      });
    }
    if (state.socket.garbled !== null) frames.push({ what: 'framing', differences: [{ path: '$', expected: 'valid frames', actual: state.socket.garbled }] });
  }
  return { id: plan.id, clientId: plan.clientId, skipped: plan.skipped, sent: state.sent, received: received.length, frames };
}
