import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import * as v from 'valibot';
import { WebSocketServer, type RawData, type WebSocket } from '../../../common/src/node/ws-module.js';
import { decodeAudioPacket, MAX_AUDIO_PACKET_BYTES, PCM16_CODEC, stampSsrc, VOICE_PATH, VoiceClose, type WireParticipant } from '../../../common/src/voice/voice-wire.js';
import type { PlatformLogger } from '../support/logger.js';
import type { CallListener, CallService } from './call-service.js';
import { LocalLink, WebSocketLink, type VoiceLink } from './voice-link.js';

const ClientMessage = v.variant('op', [v.object({ op: v.literal('identify'), token: v.string() }), v.object({ op: v.literal('speaking'), speaking: v.boolean() })]);

export interface VoiceServerOptions {
  /** How long a participant whose connection dropped stays in the call, waiting for it to come back (ms). */
  readonly reconnectGraceMs: number;
  /** How long a new connection may take to identify (ms). */
  readonly identifyTimeoutMs: number;
}

export const DEFAULT_VOICE_SERVER_OPTIONS: VoiceServerOptions = { reconnectGraceMs: 20_000, identifyTimeoutMs: 10_000 };

/**
 * The emulator's voice server **(ours)**: a WebSocket at `/voice` on the emulator's port. A
 * participant identifies with the token its join answered; the server relays each audio packet
 * to the other participants of the same call only (stamped with the sender's ssrc), never from
 * a muted participant, never to a deafened one; and tells the call's connections of joins,
 * leaves, voice states and speaking. A dropped connection keeps its participant in the call for
 * `reconnectGraceMs`, so the SDK can reconnect with the same token.
 */
export class VoiceServer implements CallListener {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_AUDIO_PACKET_BYTES, perMessageDeflate: false });
  /** Lobby id → user id → link. */
  private readonly links = new Map<string, Map<string, VoiceLink>>();
  private readonly graceTimers = new Map<string, NodeJS.Timeout>();
  /** Packets relayed (each copy counts), for the admin listing and the bench. */
  relayed = 0;

  constructor(
    private readonly calls: CallService,
    private readonly logger: PlatformLogger,
    private readonly options: VoiceServerOptions = DEFAULT_VOICE_SERVER_OPTIONS,
  ) {
    calls.listen(this);
  }

  /** Takes `upgrade` requests for `/voice`; false for other paths. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== VOICE_PATH) return false;
    this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws));
    return true;
  }

  /** A participant's join (or rejoin): it may connect now; it leaves if it never does within the grace. */
  expect(lobbyId: string, userId: string): void {
    if (this.linkOf(lobbyId, userId) === undefined) this.startGrace(lobbyId, userId);
  }

  /** An in-process participant (the simulated friend): relays to it through callbacks; its audio goes through `relay`. */
  attachLocal(lobbyId: string, userId: string, onAudio?: (packet: Uint8Array) => void): LocalLink | undefined {
    const state = this.calls.state(lobbyId, userId);
    if (state === undefined) return undefined;
    const link = new LocalLink(lobbyId, userId, state.ssrc, onAudio);
    this.register(link);
    return link;
  }

  /** Relays one packet from the link's participant to the others of its call. */
  relay(from: VoiceLink, packet: Uint8Array): void {
    const sender = this.calls.state(from.lobbyId, from.userId);
    if (sender === undefined || sender.self_mute || sender.mute || decodeAudioPacket(packet) === undefined) return;
    stampSsrc(packet, from.ssrc);
    const peers = this.links.get(from.lobbyId);
    if (peers === undefined) return;
    for (const [userId, link] of peers) {
      if (userId === from.userId) continue;
      const state = this.calls.state(from.lobbyId, userId);
      if (state === undefined || state.self_deaf || state.deaf) continue;
      link.sendAudio(packet);
      this.relayed += 1;
    }
  }

  /** Whether the participant has a live voice connection. */
  connected(lobbyId: string, userId: string): boolean {
    return this.linkOf(lobbyId, userId) !== undefined;
  }

  /** Ends the participant's voice connection as a network loss would (QA's fault injection); false when none. */
  dropConnection(lobbyId: string, userId: string): boolean {
    const link = this.linkOf(lobbyId, userId);
    if (link === undefined) return false;
    link.drop();
    if (link instanceof LocalLink) this.unregister(link);
    return true;
  }

  // ---- CallListener

  participant(lobbyId: string, participant: WireParticipant): void {
    this.broadcast(lobbyId, { op: 'participant', participant });
  }

  left(lobbyId: string, userId: string): void {
    this.clearGrace(lobbyId, userId);
    const link = this.linkOf(lobbyId, userId);
    if (link !== undefined) {
      this.unregister(link);
      link.close(VoiceClose.SessionNoLongerValid, 'left the call');
    }
    this.broadcast(lobbyId, { op: 'left', user_id: userId });
  }

  speaking(lobbyId: string, userId: string, speaking: boolean): void {
    this.broadcast(lobbyId, { op: 'speaking', user_id: userId, speaking }, userId);
  }

  /** Closes every voice connection (the emulator closes). */
  close(): void {
    for (const timer of this.graceTimers.values()) clearTimeout(timer);
    this.graceTimers.clear();
    for (const peers of this.links.values()) for (const link of peers.values()) link.close(VoiceClose.ServerClosing, 'the emulator closes');
    this.links.clear();
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }

  // ---- inside

  private accept(ws: WebSocket): void {
    let link: WebSocketLink | undefined;
    const timer = setTimeout(() => ws.close(VoiceClose.NotAuthenticated, 'identify first'), this.options.identifyTimeoutMs);
    timer.unref();
    ws.on('message', (data: RawData, isBinary: boolean) => {
      const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
      if (isBinary) {
        if (link === undefined) ws.close(VoiceClose.NotAuthenticated, 'identify first');
        else this.relayOwn(link, buffer);
        return;
      }
      const message = parseMessage(buffer);
      if (message === undefined) return ws.close(VoiceClose.DecodeError, 'unknown message');
      if (message.op === 'identify') {
        clearTimeout(timer);
        if (link === undefined) link = this.identify(ws, message.token);
        else ws.close(VoiceClose.AlreadyAuthenticated, 'already identified');
      } else if (link === undefined) ws.close(VoiceClose.NotAuthenticated, 'identify first');
      else this.calls.setSpeaking(link.lobbyId, link.userId, message.speaking);
    });
    ws.on('close', () => {
      clearTimeout(timer);
      if (link !== undefined && this.linkOf(link.lobbyId, link.userId) === link) {
        this.unregister(link);
        this.calls.setSpeaking(link.lobbyId, link.userId, false);
        this.startGrace(link.lobbyId, link.userId);
      }
    });
    ws.on('error', () => ws.terminate());
  }

  /**
   * A packet from a participant's own connection: its ssrc must be theirs (or 0, before `ready`
   * told it); a packet for another participant's ssrc closes the connection (4020) and reaches no one.
   */
  private relayOwn(link: WebSocketLink, packet: Buffer): void {
    const claimed = decodeAudioPacket(packet)?.ssrc;
    if (claimed !== undefined && claimed !== 0 && claimed !== link.ssrc) {
      this.logger.debug({ lobbyId: link.lobbyId, userId: link.userId }, 'voice packet for another ssrc refused');
      link.close(VoiceClose.BadRequest, `ssrc ${claimed} is not yours (yours is ${link.ssrc})`);
      return;
    }
    this.relay(link, packet);
  }

  private identify(ws: WebSocket, token: string): WebSocketLink | undefined {
    const participant = this.calls.participantOf(token);
    if (participant === undefined) {
      ws.close(VoiceClose.AuthenticationFailed, 'unknown voice token');
      return undefined;
    }
    const link = new WebSocketLink(ws, participant.lobbyId, participant.userId, participant.ssrc);
    const previous = this.linkOf(link.lobbyId, link.userId);
    if (previous !== undefined) {
      this.unregister(previous);
      previous.close(VoiceClose.Replaced, 'connected again elsewhere');
    }
    this.register(link);
    const call = this.calls.call(link.lobbyId);
    link.send({ op: 'ready', lobby_id: link.lobbyId, user_id: link.userId, ssrc: link.ssrc, codec: PCM16_CODEC, participants: call?.participants ?? [] });
    this.logger.debug({ lobbyId: link.lobbyId, userId: link.userId }, 'voice connection identified');
    return link;
  }

  private register(link: VoiceLink): void {
    this.clearGrace(link.lobbyId, link.userId);
    let peers = this.links.get(link.lobbyId);
    if (peers === undefined) this.links.set(link.lobbyId, (peers = new Map()));
    peers.set(link.userId, link);
  }

  private unregister(link: VoiceLink): void {
    const peers = this.links.get(link.lobbyId);
    if (peers?.get(link.userId) !== link) return;
    peers.delete(link.userId);
    if (peers.size === 0) this.links.delete(link.lobbyId);
  }

  private linkOf(lobbyId: string, userId: string): VoiceLink | undefined {
    return this.links.get(lobbyId)?.get(userId);
  }

  private broadcast(lobbyId: string, message: Parameters<VoiceLink['send']>[0], exceptUserId?: string): void {
    for (const [userId, link] of this.links.get(lobbyId) ?? []) if (userId !== exceptUserId) link.send(message);
  }

  private startGrace(lobbyId: string, userId: string): void {
    this.clearGrace(lobbyId, userId);
    const key = `${lobbyId}\u0000${userId}`;
    const timer = setTimeout(() => {
      this.graceTimers.delete(key);
      if (this.linkOf(lobbyId, userId) === undefined) this.calls.leave(lobbyId, userId);
    }, this.options.reconnectGraceMs);
    timer.unref();
    this.graceTimers.set(key, timer);
  }

  private clearGrace(lobbyId: string, userId: string): void {
    const key = `${lobbyId}\u0000${userId}`;
    const timer = this.graceTimers.get(key);
    if (timer !== undefined) clearTimeout(timer);
    this.graceTimers.delete(key);
  }
}

function parseMessage(buffer: Buffer): v.InferOutput<typeof ClientMessage> | undefined {
  try {
    const parsed = v.safeParse(ClientMessage, JSON.parse(buffer.toString('utf8')));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}
