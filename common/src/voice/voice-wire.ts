/**
 * The emulator's voice transport **(ours)**, shared by the voice server (platform/src/calls/)
 * and the SDK (rpc/client/voice/): a WebSocket on the emulator's own port, path `/voice`.
 * Text frames carry JSON control messages; binary frames carry one audio packet each.
 * The real platform's voice gateway (v8, UDP, DAVE end-to-end encryption) is not emulated.
 */

/** The path of the voice WebSocket on the emulator's HTTP listener. */
export const VOICE_PATH = '/voice';

/** Audio as the SDK captures and plays it: 48 kHz, 16-bit, mono, 20 ms per packet. */
export const VOICE_SAMPLE_RATE = 48_000;
export const VOICE_CHANNELS = 1;
export const VOICE_FRAME_MS = 20;
export const VOICE_FRAME_SAMPLES = (VOICE_SAMPLE_RATE * VOICE_FRAME_MS) / 1000;

/** Bytes before an audio packet's payload: kind, flags, sequence (u16), timestamp (u32, samples), ssrc (u32). */
export const AUDIO_HEADER_BYTES = 12;
const KIND_AUDIO = 1;
/** The largest binary frame the server takes (a raw PCM frame is 1,932 bytes). */
export const MAX_AUDIO_PACKET_BYTES = 8_192;

/** Close codes of the voice WebSocket **(ours, in the voice gateway's 40xx range)**. */
export const VoiceClose = {
  /** A frame that is not a known message. */
  DecodeError: 4002,
  /** Audio or a message before `identify`. */
  NotAuthenticated: 4003,
  /** The token names no participant of a call (never given, or the participant left). */
  AuthenticationFailed: 4004,
  /** A second `identify` on a connection that already identified. */
  AlreadyAuthenticated: 4005,
  /** The participant left the call (or was taken out of the lobby) while connected. */
  SessionNoLongerValid: 4006,
  /** The same participant connected again elsewhere: this older connection ends. */
  Replaced: 4008,
  /** An audio packet for another participant's ssrc (the voice gateway's "bad request"). */
  BadRequest: 4020,
  /** The emulator closes. */
  ServerClosing: 1001,
} as const;

/** One participant of a call as the voice server tells of it. */
export interface WireParticipant {
  readonly user_id: string;
  readonly ssrc: number;
  readonly self_mute: boolean;
  readonly self_deaf: boolean;
  /** Muted or deafened by the lobby's server side: always false in the emulator (VoiceStateHandle has self mute and deaf only). */
  readonly mute: boolean;
  readonly deaf: boolean;
  readonly speaking: boolean;
}

export interface WireCodec {
  readonly name: 'pcm16';
  readonly sample_rate: number;
  readonly channels: number;
  readonly frame_ms: number;
}

/** Client to server. */
export type VoiceClientMessage = { readonly op: 'identify'; readonly token: string } | { readonly op: 'speaking'; readonly speaking: boolean };

/** Server to client. */
export type VoiceServerMessage =
  | { readonly op: 'ready'; readonly lobby_id: string; readonly user_id: string; readonly ssrc: number; readonly codec: WireCodec; readonly participants: readonly WireParticipant[] }
  | { readonly op: 'participant'; readonly participant: WireParticipant }
  | { readonly op: 'left'; readonly user_id: string }
  | { readonly op: 'speaking'; readonly user_id: string; readonly speaking: boolean };

export const PCM16_CODEC: WireCodec = { name: 'pcm16', sample_rate: VOICE_SAMPLE_RATE, channels: VOICE_CHANNELS, frame_ms: VOICE_FRAME_MS };

/** One audio packet: its sender's ssrc, sequence number, RTP-like timestamp (in samples) and the codec's payload. */
export interface AudioPacket {
  readonly ssrc: number;
  readonly sequence: number;
  readonly timestamp: number;
  readonly payload: Uint8Array;
}

function view(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

export function encodeAudioPacket(packet: AudioPacket): Uint8Array {
  const out = new Uint8Array(AUDIO_HEADER_BYTES + packet.payload.byteLength);
  const header = view(out);
  header.setUint8(0, KIND_AUDIO);
  header.setUint8(1, 0);
  header.setUint16(2, packet.sequence & 0xffff);
  header.setUint32(4, packet.timestamp >>> 0);
  header.setUint32(8, packet.ssrc >>> 0);
  out.set(packet.payload, AUDIO_HEADER_BYTES);
  return out;
}

/** The packet in `data`, or undefined when it is not one (too short, too long, another kind). */
export function decodeAudioPacket(data: Uint8Array): AudioPacket | undefined {
  if (data.byteLength < AUDIO_HEADER_BYTES || data.byteLength > MAX_AUDIO_PACKET_BYTES || data[0] !== KIND_AUDIO) return undefined;
  const header = view(data);
  return { sequence: header.getUint16(2), timestamp: header.getUint32(4), ssrc: header.getUint32(8), payload: data.subarray(AUDIO_HEADER_BYTES) };
}

/** Stamps the sender's ssrc into a packet in place (the server relays the client's bytes with the ssrc it gave). */
export function stampSsrc(data: Uint8Array, ssrc: number): void {
  view(data).setUint32(8, ssrc >>> 0);
}
