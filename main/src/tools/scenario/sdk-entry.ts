import { EventEmitter } from 'node:events';
import { Client, type Call } from '../../../../rpc/client/index.js';
import { getToken } from '../../../../rpc/client/oauth-http.js';
import { PlatformApi } from '../../host/gateway/platform-api.js';
import { CallAudio } from './call-audio.js';
import { probeUntil } from './waiting.js';

/** One callback of the SDK as it ran: its name and its arguments (with the message handle of a message event). */
export interface SdkEvent {
  readonly event: string;
  readonly data: Readonly<Record<string, unknown>>;
}

export interface SdkEntryOptions {
  readonly name: string;
  /** The emulator's URL. */
  readonly platformUrl: string;
  /** The emulator user the game plays as (dev login). */
  readonly username: string;
  /** A public client (the seeded demo app by default). */
  readonly applicationId: string;
  readonly scopes: string;
  readonly timeoutMs: number;
}

const LOBBY_CALLBACKS = ['lobbyCreated', 'lobbyUpdated', 'lobbyDeleted', 'memberAdded', 'memberUpdated', 'memberRemoved', 'messageCreated', 'messageUpdated', 'messageDeleted'] as const;
const ARGUMENT_NAMES: Readonly<Record<string, readonly string[]>> = {
  lobbyCreated: ['lobbyId'],
  lobbyUpdated: ['lobbyId'],
  lobbyDeleted: ['lobbyId'],
  memberAdded: ['lobbyId', 'memberId'],
  memberUpdated: ['lobbyId', 'memberId'],
  memberRemoved: ['lobbyId', 'memberId'],
  messageCreated: ['messageId'],
  messageUpdated: ['messageId'],
  messageDeleted: ['messageId', 'channelId'],
  relationshipCreated: ['userId', 'isDiscordRelationshipUpdate'],
  relationshipDeleted: ['userId', 'isDiscordRelationshipUpdate'],
  tokenExpiration: ['reason', 'code', 'message'],
  speakingStatusChanged: ['lobbyId', 'userId', 'speaking'],
  participantChanged: ['lobbyId', 'userId', 'added'],
};

/**
 * A scenario's Social SDK game: a `companion/client` Client signed in on the emulator as a
 * user (dev login, then the game's own token for the app with the given scopes, handed over
 * with updateToken), talking to the platform over its own session as a game built on the
 * Social SDK does. Every callback is recorded as an event for `expect_sdk_event`.
 */
export class SdkEntry {
  readonly events: SdkEvent[] = [];
  /** What its lobby calls' received-audio callbacks got. */
  readonly audio = new CallAudio();
  /** Whether each participant speaks now, per lobby call (`lobby\u0000user`), from the speaking callbacks. */
  private readonly speakingNow = new Map<string, boolean>();
  private readonly consumed = new Set<SdkEvent>();
  private readonly changes = new EventEmitter<{ event: [] }>();

  private constructor(
    readonly name: string,
    readonly userId: string,
    readonly client: Client,
  ) {
    this.listen();
  }

  static async open(options: SdkEntryOptions): Promise<SdkEntry> {
    const api = new PlatformApi({ baseUrl: options.platformUrl, timeoutMs: options.timeoutMs });
    const login = await api.login(options.username).catch((error: unknown) => {
      throw new Error((error as { status?: unknown }).status === 400 ? `the platform has no user named '${options.username}'` : `cannot sign in as ${options.username}`);
    });
    const code = await authorizeCode(options, login.token);
    const token = await getToken({ platformBase: options.platformUrl, applicationId: options.applicationId, code, timeoutMs: options.timeoutMs });
    const client = new Client({ platformBase: options.platformUrl, logger: { sink: () => undefined }, connection: { socketPaths: [] } });
    const entry = new SdkEntry(options.name, login.user_id, client);
    const updated = await client.updateToken('Bearer', token.accessToken);
    if (!updated.successful && client.getPlatformStatus() === 'disconnected') throw new Error(`updateToken failed: ${updated.error}`);
    const ready = await entry.waitFor(() => (client.getPlatformStatus() === 'ready' ? true : undefined), options.timeoutMs);
    if (ready === undefined) {
      await client.disconnect();
      throw new Error(`${options.name}'s session to the platform was not ready within ${options.timeoutMs} ms (does the token have the gateway's scopes?)`);
    }
    return entry;
  }

  /** Recorded events of `event` that no expect_sdk_event has used yet. */
  unused(event: string): SdkEvent[] {
    return this.events.filter((recorded) => recorded.event === event && !this.consumed.has(recorded));
  }

  use(recorded: SdkEvent): void {
    this.consumed.add(recorded);
  }

  /** The first value `probe` gives (now, and after each recorded event or status change), or undefined after `timeoutMs`. */
  waitFor<T>(probe: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
    return probeUntil(this.changes, 'event', probe, timeoutMs);
  }

  close(): Promise<void> {
    return this.client.disconnect();
  }

  /**
   * Starts or joins the lobby's call with the audio callbacks (received audio recorded in
   * `audio`, speaking and participant changes as events) and waits until it is connected.
   */
  async startCall(lobbyId: string, timeoutMs: number): Promise<Call> {
    const call = this.client.startCallWithAudioCallbacks(lobbyId, (userId, data, _samples, sampleRate, channels) => this.audio.record(userId, data, sampleRate, channels), undefined);
    if (call === undefined) throw new Error(`${this.name} could not start the call of lobby ${lobbyId} (is it a member, with its session ready?)`);
    call.setSpeakingStatusChangedCallback((userId, speaking) => {
      this.speakingNow.set(`${lobbyId}\u0000${userId}`, speaking);
      this.record('speakingStatusChanged', [lobbyId, userId, speaking]);
    });
    call.setParticipantChangedCallback((userId, added) => this.record('participantChanged', [lobbyId, userId, added]));
    if (!(await call.waitConnected(timeoutMs))) throw new Error(`${this.name}'s call of lobby ${lobbyId} did not connect within ${timeoutMs} ms (status ${String(call.getStatus())})`);
    return call;
  }

  /** Whether `userId` speaks in the lobby call, as the speaking callbacks said (undefined: never said). */
  speaking(lobbyId: string | undefined, userId: string): boolean | undefined {
    if (lobbyId !== undefined) return this.speakingNow.get(`${lobbyId}\u0000${userId}`);
    const states = [...this.speakingNow].filter(([key]) => key.endsWith(`\u0000${userId}`)).map(([, on]) => on);
    return states.length === 0 ? undefined : states.some((on) => on);
  }

  private record(event: string, args: readonly unknown[]): void {
    const names = ARGUMENT_NAMES[event] ?? [];
    const data: Record<string, unknown> = {};
    names.forEach((name, index) => (data[name] = args[index]));
    if (event === 'tokenExpiration') Object.assign(data, args[0]);
    if (event.startsWith('message') && typeof data.messageId === 'string') {
      const message = this.client.getMessageHandle(data.messageId);
      if (message !== null && message !== undefined) data.message = JSON.parse(JSON.stringify(message)) as unknown;
    }
    this.events.push({ event, data });
    this.changes.emit('event');
  }

  private listen(): void {
    const lobby: Record<string, (...args: unknown[]) => void> = {};
    for (const name of LOBBY_CALLBACKS) lobby[name] = (...args) => this.record(name, args);
    this.client.setLobbyCallbacks(lobby);
    // Discord and game relationships alike (the second argument says which).
    this.client.setRelationshipCreatedCallback((...args: unknown[]) => this.record('relationshipCreated', args));
    this.client.setRelationshipDeletedCallback((...args: unknown[]) => this.record('relationshipDeleted', args));
    this.client.setTokenExpirationCallback((info) => this.record('tokenExpiration', [info]));
    this.client.setPlatformStatusChangedCallback((status) => this.record('platformStatus', [status]));
  }
}

/** The RPC-flow code of the user for the app (as the host gets one), with the user's token. */
async function authorizeCode(options: SdkEntryOptions, userToken: string): Promise<string> {
  const query = new URLSearchParams({ client_id: options.applicationId, response_type: 'code', scope: options.scopes });
  const response = await fetch(`${options.platformUrl}/api/v10/oauth2/authorize?${query.toString()}`, {
    method: 'POST',
    headers: { Authorization: userToken, 'Content-Type': 'application/json' },
    body: JSON.stringify({ authorize: true, rpc: true }),
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  const body = (await response.json().catch(() => ({}))) as { code?: unknown; message?: unknown; error_description?: unknown };
  if (response.ok && typeof body.code === 'string') return body.code;
  const why = typeof body.error_description === 'string' ? body.error_description : typeof body.message === 'string' ? body.message : `HTTP ${response.status}`;
  throw new Error(`${options.username} could not authorize application ${options.applicationId}: ${why}`);
}

