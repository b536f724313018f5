import { EventEmitter } from 'node:events';
import {
  RpcError,
  RpcErrorCode,
  SELECT_CHANNEL_TIMED_OUT_MESSAGE,
  type RpcVoiceChannelSelect,
  type RpcVoiceConnectionState,
  type RpcVoiceConnectionStatus,
  type VoiceSettings,
} from '../../../../rpc/src/index.js';
import { GatewayOp, type PlatformUser } from '../../../../platform/src/wire/index.js';
import type { ChannelVoiceState, VoiceChannelBook, VoiceChannelChange } from './voice-channel-book.js';

/** What the player's voice needs of the platform session. */
export interface VoiceSessionPort {
  readonly user: PlatformUser | null;
  readonly sessionId: string | undefined;
  /** The gateway's last heartbeat round trip (ms), when one was measured. */
  readonly gatewayLatencyMs: number | undefined;
  send(op: number, d: unknown): boolean;
}

export interface PlayerVoiceEvents {
  /** The player's voice channel changed (VOICE_CHANNEL_SELECT). */
  selected: [RpcVoiceChannelSelect];
  /** The host's voice connection changed state (VOICE_CONNECTION_STATUS). */
  status: [RpcVoiceConnectionStatus];
}

interface Waiter {
  readonly done: (state: ChannelVoiceState | undefined) => boolean;
  readonly resolve: () => void;
}

/** How long a join or leave waits for the platform when the game gives no timeout **(ours)**. */
export const DEFAULT_SELECT_TIMEOUT_MS = 10_000;

/**
 * The player's own place in a server voice channel, joined for them by games
 * (SELECT_VOICE_CHANNEL) over the host's gateway session (op 4). The host's voice connection is
 * audio-less: it holds the voice state (who is where, muted, deafened) and never sends or
 * receives sound, since the emulator has no voice server for server channels. Self mute and deaf
 * follow the player's voice settings. Announces the selected channel and the connection state.
 */
export class PlayerVoice extends EventEmitter<PlayerVoiceEvents> {
  private selectedChannel: RpcVoiceChannelSelect = { channel_id: null, guild_id: null };
  private connection: RpcVoiceConnectionState = 'DISCONNECTED';
  private readonly waiters = new Set<Waiter>();
  /** A check of the player's channel is queued (a move is a delete and a create: one announcement). */
  private checkQueued = false;
  /** The channel a game joined the player to and nobody left since: a new gateway session joins it again. */
  private wanted: { readonly guildId: string; readonly channelId: string } | null = null;
  /** This host's sessions that held the player's voice state (an earlier one may still hold it in its resume window). */
  private readonly ownSessions = new Set<string>();

  constructor(
    private readonly session: VoiceSessionPort,
    private readonly book: VoiceChannelBook,
    private readonly settings: () => VoiceSettings,
    /** The voice connection's host name in VOICE_CONNECTION_STATUS: the platform's. */
    private readonly hostname: string,
  ) {
    super();
    book.on('change', this.onChange);
  }

  /** The player's voice state held by this host's session, when in a channel. */
  get state(): ChannelVoiceState | undefined {
    const me = this.session.user?.id;
    const state = me === undefined ? undefined : this.book.stateOf(me);
    return state !== undefined && state.session_id === this.session.sessionId ? state : undefined;
  }

  get selected(): RpcVoiceChannelSelect {
    return this.selectedChannel;
  }

  get status(): RpcVoiceConnectionStatus {
    const latency = this.session.gatewayLatencyMs;
    const pings = latency === undefined ? [] : [{ time: Date.now(), value: latency }];
    return { state: this.connection, hostname: this.hostname, pings, average_ping: latency ?? 0, last_ping: latency ?? null };
  }

  /** Joins (or moves to) the channel; resolves once the platform's VOICE_STATE_UPDATE says so. */
  async join(guildId: string, channelId: string, timeoutMs: number, signal: AbortSignal): Promise<void> {
    if (this.state?.channel_id === channelId) return;
    const { mute, deaf } = this.settings();
    this.setConnection('CONNECTING');
    const joined = this.waitFor((state) => state?.channel_id === channelId, timeoutMs, signal);
    this.wanted = { guildId, channelId };
    if (!this.session.send(GatewayOp.VoiceStateUpdate, { guild_id: guildId, channel_id: channelId, self_mute: mute, self_deaf: deaf })) {
      this.wanted = null;
      this.setConnection(this.state === undefined ? 'DISCONNECTED' : 'VOICE_CONNECTED');
      throw new RpcError(RpcErrorCode.ServiceUnavailable, 'Companion is not connected to the platform; try again once it is');
    }
    await joined;
  }

  /** Leaves the voice channel the player is in (nothing to do when none). */
  async leave(timeoutMs: number, signal: AbortSignal): Promise<void> {
    this.wanted = null;
    const state = this.state;
    if (state === undefined) return;
    const left = this.waitFor((now) => now === undefined, timeoutMs, signal);
    if (!this.session.send(GatewayOp.VoiceStateUpdate, { guild_id: state.guild_id, channel_id: null, self_mute: false, self_deaf: false })) {
      throw new RpcError(RpcErrorCode.ServiceUnavailable, 'Companion is not connected to the platform; try again once it is');
    }
    await left;
  }

  /** The player's mute or deafen changed: the voice state on the platform follows. */
  settingsChanged(settings: VoiceSettings): void {
    const state = this.state;
    if (state === undefined || (state.self_mute === settings.mute && state.self_deaf === settings.deaf)) return;
    this.session.send(GatewayOp.VoiceStateUpdate, { guild_id: state.guild_id, channel_id: state.channel_id, self_mute: settings.mute, self_deaf: settings.deaf });
  }

  /** Another account signed in (or none): the previous one's channel is no longer the player's. */
  accountChanged(): void {
    this.wanted = null;
    this.ownSessions.clear();
    this.selectedChannel = { channel_id: null, guild_id: null };
    this.setConnection('DISCONNECTED');
  }

  /**
   * A new gateway session (READY; a resumed one keeps its voice state): the old session's state
   * ended with it, so the player joins their channel again, as the desktop client reconnects to
   * voice. Not when READY shows them in voice through another session (they joined elsewhere).
   * Runs after the book has read that READY.
   */
  sessionReady(): void {
    queueMicrotask(() => {
      const wanted = this.wanted;
      const me = this.session.user?.id;
      if (wanted === null || me === undefined || this.state !== undefined) return;
      const elsewhere = this.book.stateOf(me);
      if (elsewhere !== undefined && !this.ownSessions.has(elsewhere.session_id)) {
        this.wanted = null;
        return;
      }
      const { mute, deaf } = this.settings();
      this.setConnection('CONNECTING');
      this.session.send(GatewayOp.VoiceStateUpdate, { guild_id: wanted.guildId, channel_id: wanted.channelId, self_mute: mute, self_deaf: deaf });
    });
  }

  dispose(): void {
    this.book.off('change', this.onChange);
    for (const waiter of this.waiters) waiter.resolve();
    this.waiters.clear();
  }

  private readonly onChange = (change: VoiceChannelChange): void => {
    if (change.kind === 'speaking') return;
    const me = this.session.user?.id;
    if (me === undefined || change.state.user_id !== me || this.checkQueued) return;
    this.checkQueued = true;
    queueMicrotask(this.check);
  };

  private readonly check = (): void => {
    this.checkQueued = false;
    const state = this.state;
    if (state !== undefined) this.ownSessions.add(state.session_id);
    const next: RpcVoiceChannelSelect = state === undefined ? { channel_id: null, guild_id: null } : { channel_id: state.channel_id, guild_id: state.guild_id };
    for (const waiter of [...this.waiters]) if (waiter.done(state)) waiter.resolve();
    if (next.channel_id === this.selectedChannel.channel_id) return;
    this.selectedChannel = next;
    this.setConnection(state === undefined ? 'DISCONNECTED' : 'VOICE_CONNECTED');
    this.emit('selected', next);
  };

  private setConnection(state: RpcVoiceConnectionState): void {
    if (state === this.connection) return;
    this.connection = state;
    this.emit('status', this.status);
  }

  /** Resolves when `done` holds for the player's state; 5001 after `timeoutMs`; ends when the game leaves. */
  private waitFor(done: Waiter['done'], timeoutMs: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const finish = (error?: RpcError): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.waiters.delete(waiter);
        if (error === undefined) resolve();
        else reject(error);
      };
      const waiter: Waiter = { done, resolve: () => finish() };
      const timer = setTimeout(() => {
        if (this.connection === 'CONNECTING') this.setConnection(this.state === undefined ? 'DISCONNECTED' : 'VOICE_CONNECTED');
        finish(new RpcError(RpcErrorCode.SelectChannelTimedOut, SELECT_CHANNEL_TIMED_OUT_MESSAGE));
      }, timeoutMs);
      const onAbort = (): void => finish(new RpcError(RpcErrorCode.UnknownError, 'The client disconnected'));
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(waiter);
    });
  }
}
