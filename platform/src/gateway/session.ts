import { FixedWindow, type PlatformLimits } from '../support/limits.js';
import type { PresenceUpdateCommand } from '../wire/index.js';
import { mayReceive } from './oauth-scopes.js';

/** What a session needs from the connection it is attached to. */
export interface SessionTransport {
  sendText(text: string): void;
}

interface BufferedDispatch {
  readonly s: number;
  readonly text: string;
}

export const DEFAULT_PRESENCE: PresenceUpdateCommand = { since: null, activities: [], status: 'online', afk: false };

const serialized = new WeakMap<object, string>();

/** Records the JSON of an object about to be dispatched, when the caller has it already. */
export function primeSerialized(d: object, text: string): void {
  serialized.set(d, text);
}

/** JSON of a dispatch's data, cached per object: dispatched objects are never changed afterwards. */
function serializedData(d: unknown): string {
  if (typeof d !== 'object' || d === null) return JSON.stringify(d ?? null);
  let text = serialized.get(d);
  if (text === undefined) {
    text = JSON.stringify(d);
    serialized.set(d, text);
  }
  return text;
}

/**
 * A gateway session: outlives its connection (for resume), numbers its dispatches and keeps
 * the last ones so a resuming client gets what it missed.
 */
export class Session {
  seq = 0;
  private readonly buffer: BufferedDispatch[] = [];
  transport: SessionTransport | undefined;
  presence: PresenceUpdateCommand = DEFAULT_PRESENCE;
  /**
   * When a game's session (its OAuth2 token) last changed its status (op 3 or the IDENTIFY's
   * presence): the player's chosen status, which the newest choice sets for all their sessions
   * (presence.ts). **(ours)**
   */
  statusChosenAt: number | undefined;
  readonly gameActivityWindow: FixedWindow;
  /** When the connection dropped (epoch ms of the emulator's clock); undefined while attached. */
  detachedAt: number | undefined;
  expiryTimer: NodeJS.Timeout | undefined;
  ended = false;
  /**
   * Set for a session identified with a game's OAuth2 access token: its app, its scopes spelled
   * out (only the dispatches they allow are sent, oauth-scopes.ts) and its token.
   */
  oauth: { readonly applicationId: string; readonly scopes: readonly string[]; readonly tokenId: string } | undefined;

  constructor(
    readonly id: string,
    readonly userId: string,
    /** Creation order: presences merge in session order. */
    readonly order: number,
    private readonly limits: PlatformLimits,
    now: () => number,
  ) {
    this.gameActivityWindow = new FixedWindow(limits.gameActivityLimit, now);
  }

  dispatch(t: string, d: unknown): number {
    if (this.oauth !== undefined && !mayReceive(this.oauth.scopes, t)) return this.seq;
    this.seq += 1;
    // Same bytes as JSON.stringify({op: 0, d, s, t}); `d` is serialised once per event object,
    // not once per receiving session (a presence fans out to every friend's sessions).
    const text = `{"op":0,"d":${serializedData(d)},"s":${this.seq},"t":${JSON.stringify(t)}}`;
    this.buffer.push({ s: this.seq, text });
    if (this.buffer.length > this.limits.resumeBufferSize) this.buffer.splice(0, this.buffer.length - this.limits.resumeBufferSize);
    this.transport?.sendText(text);
    return this.seq;
  }

  /**
   * The dispatches after `seq` in order, or undefined when they cannot all be replayed
   * (seq ahead of the session, or the next one already dropped from the buffer).
   */
  replayAfter(seq: number): string[] | undefined {
    if (!Number.isInteger(seq) || seq < 0 || seq > this.seq) return undefined;
    if (seq === this.seq) return [];
    const first = this.buffer[0];
    if (first === undefined || first.s > seq + 1) return undefined;
    return this.buffer.filter((entry) => entry.s > seq).map((entry) => entry.text);
  }
}
