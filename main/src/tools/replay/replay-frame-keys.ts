import { Opcode } from '../../../../rpc/src/index.js';

/** What an outbound frame is, for pairing: a reply (by nonce), an event (by name), a CLOSE. */
export type FrameKey =
  | { readonly kind: 'reply'; readonly nonce: string; readonly cmd: string }
  | { readonly kind: 'event'; readonly name: string }
  | { readonly kind: 'close' };

interface FrameLike {
  readonly opcode: number;
  readonly payload: unknown;
}

/** `payload[key]` when the payload is an object, else undefined. */
export function field(payload: unknown, key: string): unknown {
  return typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? (payload as Record<string, unknown>)[key] : undefined;
}

export function nonceOf(payload: unknown): string | null {
  const nonce = field(payload, 'nonce');
  return typeof nonce === 'string' || typeof nonce === 'number' ? String(nonce) : null;
}

/** The nonces of the commands a connection sends, so replies can be told from events. */
export function commandNonces(inbound: readonly FrameLike[]): Set<string> {
  const nonces = new Set<string>();
  for (const frame of inbound) {
    const nonce = frame.opcode === Opcode.Frame ? nonceOf(frame.payload) : null;
    if (nonce !== null) nonces.add(nonce);
  }
  return nonces;
}

export function keyOf(frame: FrameLike, nonces: ReadonlySet<string>): FrameKey {
  if (frame.opcode === Opcode.Close) return { kind: 'close' };
  const nonce = nonceOf(frame.payload);
  const cmd = field(frame.payload, 'cmd');
  if (nonce !== null && nonces.has(nonce)) return { kind: 'reply', nonce, cmd: typeof cmd === 'string' ? cmd : '?' };
  const evt = field(frame.payload, 'evt');
  const name = typeof evt === 'string' ? evt : typeof cmd === 'string' ? cmd : `opcode ${frame.opcode}`;
  return { kind: 'event', name };
}

/** The slot frames are paired in: a reply's nonce, an event's name, CLOSE. */
export function slot(key: FrameKey): string {
  return key.kind === 'reply' ? `reply ${key.nonce}` : key.kind === 'event' ? `event ${key.name}` : 'close';
}

export function describeKey(key: FrameKey, index: number): string {
  const nth = index === 0 ? '' : ` #${index + 1}`;
  if (key.kind === 'reply') return `reply to ${key.cmd} (nonce ${key.nonce})${nth}`;
  if (key.kind === 'event') return `event ${key.name}${nth}`;
  return `CLOSE${nth}`;
}

/** How many frames there are per slot. */
export function slotCounts(frames: readonly FrameLike[], nonces: ReadonlySet<string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const frame of frames) {
    const name = slot(keyOf(frame, nonces));
    out.set(name, (out.get(name) ?? 0) + 1);
  }
  return out;
}

/** Every slot of `wanted` has at least as many frames in `got`. */
export function covers(got: ReadonlyMap<string, number>, wanted: ReadonlyMap<string, number>): boolean {
  for (const [name, count] of wanted) if ((got.get(name) ?? 0) < count) return false;
  return true;
}
