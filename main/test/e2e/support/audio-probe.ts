import type { Call, Client, UserAudioReceivedCallback } from '../../../../rpc/client/index.js';
import { goertzelPower, peak, zeroCrossingHz } from '../../../src/tools/audio/tone-analysis.js';
import { eventually } from './world.js';

export { goertzelPower as goertzel, peak, zeroCrossingHz };

/** What a game's received-audio callback got, per participant, frame by frame; `muteAll` makes it answer "mute". */
export class ReceivedAudio {
  readonly frames = new Map<string, Int16Array[]>();
  muteAll = false;

  readonly callback: UserAudioReceivedCallback = (userId, data, samplesPerChannel, sampleRate, channels) => {
    if (sampleRate !== 48_000 || channels !== 1 || samplesPerChannel !== data.length) throw new Error(`unexpected audio format ${sampleRate} Hz x${channels}`);
    const list = this.frames.get(userId) ?? [];
    list.push(data.slice());
    this.frames.set(userId, list);
    return this.muteAll;
  };

  count(userId: string): number {
    return this.frames.get(userId)?.length ?? 0;
  }

  /** The frames of `userId` from index `from` on, as one array. */
  samples(userId: string, from = 0): Int16Array {
    const frames = (this.frames.get(userId) ?? []).slice(from);
    const out = new Int16Array(frames.reduce((n, frame) => n + frame.length, 0));
    let at = 0;
    for (const frame of frames) {
      out.set(frame, at);
      at += frame.length;
    }
    return out;
  }

  /** The median of the loud frames' peaks from `from` on (concealed frames, quieter, and a stray frame do not move it). */
  medianPeak(userId: string, from = 0): number {
    const peaks = (this.frames.get(userId) ?? []).slice(from).map(peak).filter((p) => p > 100).sort((a, b) => a - b);
    return peaks[Math.floor(peaks.length / 2)] ?? 0;
  }

  /** Frames that carried sound (not silence), from `from` on. */
  loudFrames(userId: string, from = 0): number {
    return (this.frames.get(userId) ?? []).slice(from).filter((frame) => peak(frame) > 100).length;
  }
}

/** Plays `ms` of a tone into the game's virtual input and waits until the input has taken all of it. */
export async function speak(game: Client, ms = 600, frequencyHz = 440): Promise<void> {
  const input = game.getVirtualInputDevice();
  input.playTone(frequencyHz, ms);
  await eventually(() => input.queuedSamples === 0, 'the tone to be captured', ms + 5000);
}

export async function connectedCall(call: Call | undefined, what: string): Promise<Call> {
  if (call === undefined) throw new Error(`${what}: no call`);
  if (!(await call.waitConnected(10_000))) throw new Error(`${what}: the call did not connect (status ${call.getStatus()})`);
  return call;
}
