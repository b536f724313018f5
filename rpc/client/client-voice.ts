import { VOICE_FRAME_SAMPLES } from '../../common/src/voice/voice-wire.js';
import { ClientResult } from './client-result.js';
import { ClientLogging, type LogCallback, type LogSeverity } from './client-logging.js';
import type { ClientLogger } from './logger.js';
import type { BearerCallOptions } from './platform-request.js';
import { AudioClock } from './voice/audio-clock.js';
import { joinCall, leaveCall, updateCallVoiceState } from './call-api.js';
import type { UserAudioCapturedCallback, UserAudioReceivedCallback, VoiceParticipantChangedCallback } from './voice/call-types.js';
import { Call, type CallContext } from './voice/call.js';
import { RawPcmCodec, type VoiceCodec } from './voice/codec.js';
import { fromBus, levelDb, scaled } from './voice/pcm.js';
import { VirtualDeviceSet, type DeviceChangeCallback } from './voice/virtual-device-set.js';
import type { AudioDevice, VirtualInputDevice, VirtualOutputDevice } from './voice/virtual-devices.js';

/** Client::NoAudioInputCallback: whether input is heard again (true) or has been quiet for a second (false). */
export type NoAudioInputCallback = (inputDetected: boolean) => void;

/** Frames below the no-audio threshold before the input counts as silent (1 s). */
const NO_INPUT_FRAMES = 50;

/** The file setVoiceLogDir writes in its directory **(ours: the Social SDK writes discord-webrtc_0)**. */
export const VOICE_LOG_FILE_NAME = 'companion-voice.log';

/** Client's audio processing switches as set (the Social SDK has setters only; ours to read them back). */
export interface AudioProcessing {
  readonly echoCancellation: boolean;
  readonly noiseSuppression: boolean;
  readonly noiseCancellation: boolean;
  readonly automaticGainControl: boolean;
}

/**
 * The Client's voice (issue 29 §2): lobby calls, the player's mute and deafen across them, the
 * virtual audio devices **(ours)** and the audio clock that, every 20 ms, takes one frame from
 * the virtual input (times the input volume) for each call to send, and plays the calls'
 * participants mixed (times the output volume) on the virtual output. The clock runs only
 * while a call exists.
 */
export class ClientVoice {
  readonly devices: VirtualDeviceSet;
  private readonly calls = new Map<string, Call>();
  private readonly clock = new AudioClock((now) => this.tick(now));
  private readonly codec: VoiceCodec = new RawPcmCodec(VOICE_FRAME_SAMPLES);
  private readonly voiceLogging = new ClientLogging({ build: 'debug', sink: () => undefined, fileName: VOICE_LOG_FILE_NAME });
  private selfMuteAll = false;
  private selfDeafAll = false;
  speakerMode = false;
  inputVolume = 100;
  outputVolume = 100;
  echoCancellation = true;
  noiseSuppression = true;
  /** Krisp's noise cancellation in the Social SDK: off by default. */
  noiseCancellation = false;
  automaticGainControl = true;
  noAudioInputThresholdDb = -100;
  private noAudioInputCallback: NoAudioInputCallback | undefined;
  private quietFrames = 0;
  private inputDetected = true;
  private participantCallback: VoiceParticipantChangedCallback | undefined;

  constructor(
    private readonly callOptions: () => BearerCallOptions,
    private readonly logger: ClientLogger,
  ) {
    this.devices = new VirtualDeviceSet((error) => this.logger.error('a callback threw', { callback: 'deviceChange', error }));
  }

  /** The virtual input in use (the game writes into it). */
  get input(): VirtualInputDevice {
    return this.devices.input;
  }

  /** The virtual output in use (the calls' mix plays on it). */
  get output(): VirtualOutputDevice {
    return this.devices.output;
  }

  /** StartCall / StartCallWithAudioCallbacks: the lobby's call (the one already started, if any). */
  startCall(lobbyId: string, received?: UserAudioReceivedCallback, captured?: UserAudioCapturedCallback): Call {
    const existing = this.calls.get(lobbyId);
    if (existing !== undefined) return existing;
    const call = new Call(lobbyId, this.context(received, captured), { selfMute: this.selfMuteAll, selfDeaf: this.selfDeafAll });
    this.calls.set(lobbyId, call);
    this.clock.start();
    void call.start();
    return call;
  }

  async endCall(lobbyId: string): Promise<ClientResult> {
    const call = this.calls.get(lobbyId);
    if (call === undefined) return ClientResult.validation(`no call in lobby ${lobbyId}`);
    await call.end();
    this.forget(call);
    return ClientResult.ok();
  }

  async endCalls(): Promise<ClientResult> {
    await Promise.all([...this.calls.values()].map(async (call) => {
      await call.end();
      this.forget(call);
    }));
    return ClientResult.ok();
  }

  getCall(lobbyId: string): Call | undefined {
    return this.calls.get(lobbyId);
  }

  getCalls(): Call[] {
    return [...this.calls.values()];
  }

  setVoiceParticipantChangedCallback(callback: VoiceParticipantChangedCallback | undefined): void {
    this.participantCallback = callback;
  }

  getSelfMuteAll(): boolean {
    return this.selfMuteAll;
  }

  setSelfMuteAll(mute: boolean): void {
    this.selfMuteAll = mute;
    for (const call of this.calls.values()) call.setSelfMute(mute);
  }

  getSelfDeafAll(): boolean {
    return this.selfDeafAll;
  }

  setSelfDeafAll(deaf: boolean): void {
    this.selfDeafAll = deaf;
    for (const call of this.calls.values()) call.setSelfDeaf(deaf);
  }

  addVoiceLogCallback(callback: LogCallback, minSeverity: LogSeverity): void {
    this.voiceLogging.addCallback(callback, minSeverity);
  }

  /** Client::SetVoiceLogDir: the voice lines of `minSeverity` or more also go to `<dir>/companion-voice.log`; '' or 'none' stops it. */
  setVoiceLogDir(dir: string, minSeverity: LogSeverity): void {
    if (!this.voiceLogging.setDir(dir, minSeverity)) this.logger.warning('the voice log directory could not be made', { path: dir });
  }

  inputDevices(): AudioDevice[] {
    return this.devices.inputDevices();
  }

  outputDevices(): AudioDevice[] {
    return this.devices.outputDevices();
  }

  setDeviceChangeCallback(callback: DeviceChangeCallback | undefined): void {
    this.devices.setChangeCallback(callback);
  }

  /** Client::SetNoiseCancellation: on turns noise suppression off, as the Social SDK does. */
  setNoiseCancellation(on: boolean): void {
    this.noiseCancellation = on;
    if (on) this.noiseSuppression = false;
  }

  audioProcessing(): AudioProcessing {
    return { echoCancellation: this.echoCancellation, noiseSuppression: this.noiseSuppression, noiseCancellation: this.noiseCancellation, automaticGainControl: this.automaticGainControl };
  }

  setNoAudioInputCallback(callback: NoAudioInputCallback | undefined): void {
    this.noAudioInputCallback = callback;
    this.quietFrames = 0;
    this.inputDetected = true;
  }

  /**
   * Ends every call and stops the clock (the Client's disconnect): waits at most a second for
   * the platform to hear of the leaves (an unreachable platform must not hold the disconnect; the
   * voice server takes a participant whose connection closed out of the call after its grace).
   */
  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, 1000);
      timer.unref();
    });
    await Promise.race([this.endCalls(), bound]);
    clearTimeout(timer);
    this.clock.stop();
  }

  // ---- inside

  private context(received: UserAudioReceivedCallback | undefined, captured: UserAudioCapturedCallback | undefined): CallContext {
    return {
      join: (lobbyId, selfMute, selfDeaf) => joinCall(this.callOptions(), lobbyId, selfMute, selfDeaf),
      updateVoiceState: (lobbyId, selfMute, selfDeaf) => updateCallVoiceState(this.callOptions(), lobbyId, selfMute, selfDeaf),
      leave: (lobbyId) => leaveCall(this.callOptions(), lobbyId),
      codec: this.codec,
      receivedCallback: received,
      capturedCallback: captured,
      participantChanged: (lobbyId, userId, added) => {
        try {
          this.participantCallback?.(lobbyId, userId, added);
        } catch (error) {
          this.logger.error('a callback threw', { callback: 'voiceParticipantChanged', error });
        }
      },
      log: (message, severity) => {
        this.voiceLogging.logger[severity](message);
        if (severity === 'warning' || severity === 'error') this.logger[severity](message);
      },
      callbackFailed: (callback, error) => this.logger.error('a callback threw', { callback, error }),
    };
  }

  /** One 20 ms frame: capture for every call, then play every call's participants mixed. */
  private tick(nowMs: number): void {
    const raw = this.input.read(VOICE_FRAME_SAMPLES);
    const frame = this.inputVolume === 100 ? raw : scaled(raw, this.inputVolume / 100);
    this.watchInput(frame);
    for (const call of [...this.calls.values()]) if (call.getStatus() === 0) this.forget(call);
    const calls = [...this.calls.values()];
    for (const call of calls) call.capture(calls.length === 1 ? frame : frame.slice(), nowMs);
    const bus = new Int32Array(VOICE_FRAME_SAMPLES);
    for (const call of calls) call.playout(bus, nowMs);
    this.output.play(fromBus(bus, this.outputVolume / 100));
  }

  private watchInput(frame: Int16Array): void {
    if (this.noAudioInputCallback === undefined) return;
    const heard = levelDb(frame) > this.noAudioInputThresholdDb;
    this.quietFrames = heard ? 0 : this.quietFrames + 1;
    const detected = heard || this.quietFrames < NO_INPUT_FRAMES;
    if (detected === this.inputDetected) return;
    this.inputDetected = detected;
    try {
      this.noAudioInputCallback(detected);
    } catch (error) {
      this.logger.error('a callback threw', { callback: 'noAudioInput', error });
    }
  }

  private forget(call: Call): void {
    if (this.calls.get(call.lobbyId) === call) this.calls.delete(call.lobbyId);
    if (this.calls.size === 0) this.clock.stop();
  }
}
