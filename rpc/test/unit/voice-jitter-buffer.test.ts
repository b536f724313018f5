import { describe, expect, it } from 'vitest';
import { JitterBuffer } from '../../client/voice/jitter-buffer.js';
import { CallSender } from '../../client/voice/call-sender.js';
import { AudioModeType } from '../../client/voice/call-types.js';
import { RawPcmCodec } from '../../client/voice/codec.js';
import { decodeAudioPacket } from '../../../common/src/voice/voice-wire.js';
import { ToneSource } from '../../../common/src/voice/tone.js';

const frame = (value: number): Int16Array => new Int16Array(960).fill(value);
const kinds = (buffer: JitterBuffer, ticks: number): string[] => Array.from({ length: ticks }, () => {
  const out = buffer.pop();
  return out.kind === 'silence' ? 'silence' : `${out.kind}:${out.samples[0]}`;
});

describe('issue 29 §1 audio: the receiving jitter buffer (sequence numbers, timestamps, adaptive depth, concealment)', () => {
  it('plays in sequence order whatever the arrival order, and drops a frame that comes after its turn', () => {
    const buffer = new JitterBuffer(20, 48_000);
    buffer.push(11, 11 * 960, frame(11), 220);
    buffer.push(10, 10 * 960, frame(10), 221);
    expect(kinds(buffer, 2)).toEqual(['audio:10', 'audio:11']);
    buffer.push(13, 13 * 960, frame(13), 260);
    expect(kinds(buffer, 1)).toEqual(['concealed:6']); // frame 11 at half level
    buffer.push(12, 12 * 960, frame(12), 262);
    expect(buffer.stats.late).toBe(1);
    expect(kinds(buffer, 1)).toEqual(['audio:13']);
  });

  it('conceals a lost frame with the last one, fading, and goes silent when the sender stops', () => {
    const buffer = new JitterBuffer(20, 48_000);
    buffer.push(0, 0, frame(1000), 0);
    buffer.push(2, 1920, frame(3000), 40);
    expect(kinds(buffer, 3)).toEqual(['audio:1000', 'concealed:500', 'audio:3000']);
    expect(buffer.stats.lost).toBe(1);
    // Nothing more comes: two fading frames, then silence until enough is buffered again.
    expect(kinds(buffer, 4)).toEqual(['concealed:1500', 'concealed:750', 'silence', 'silence']);
  });

  it('waits for more frames before playing when packets come with jitter, and wraps the 16-bit sequence', () => {
    const buffer = new JitterBuffer(20, 48_000);
    expect(buffer.target).toBe(1);
    // Arrival times off by up to 30 ms from the 20 ms cadence.
    for (let i = 0; i < 40; i += 1) buffer.push((65_530 + i) & 0xffff, i * 960, frame(i), i * 20 + (i % 2 === 0 ? 0 : 30));
    expect(buffer.target).toBeGreaterThan(1);
    const played = kinds(buffer, 10).filter((kind) => kind.startsWith('audio'));
    expect(played.length).toBeGreaterThan(0);
    expect(buffer.stats.overflow).toBeGreaterThan(0);
  });
});

describe('issue 29 §2 speaking: voice activity detection and push to talk decide what is sent', () => {
  it('VAD sends while the level is above the threshold (and a short hangover), not silence; PTT sends while pressed', () => {
    const sender = new CallSender(new RawPcmCodec(960));
    const tone = new ToneSource(440, 0.3);
    const sent = (samples: Int16Array, now = 0): boolean => sender.frame(samples, 7, true, now).packet !== undefined;
    expect(sent(new Int16Array(960))).toBe(false);
    const first = sender.frame(tone.next(), 7, true, 0).packet;
    expect(first === undefined ? undefined : decodeAudioPacket(first)).toMatchObject({ ssrc: 7, sequence: 0, timestamp: 960 });
    expect(Array.from({ length: 10 }, () => sent(new Int16Array(960)))).toEqual([...Array(9).fill(true), false]);
    // Muted (cannot send): nothing, however loud.
    expect(sender.frame(tone.next(), 7, false, 0)).toEqual({ speaking: false, packet: undefined });
    sender.audioMode = AudioModeType.PTT;
    expect(sent(tone.next(), 0)).toBe(false);
    sender.setPTTActive(true, 0);
    expect(sent(new Int16Array(960), 0)).toBe(true);
    sender.setPTTActive(false, 100);
    expect(sent(new Int16Array(960), 110)).toBe(true);
    expect(sent(new Int16Array(960), 130)).toBe(false);
  });
});

describe('issue 29 §1 audio: a frame a little late on a quiet loopback', () => {
  it('is stretched for rather than dropped, and the next talk spurt waits for one frame more', () => {
    const buffer = new JitterBuffer(20, 48_000);
    buffer.push(0, 0, frame(1000), 0);
    expect(kinds(buffer, 2)).toEqual(['audio:1000', 'concealed:500']);
    buffer.push(1, 960, frame(2000), 22);
    expect(kinds(buffer, 1)).toEqual(['audio:2000']);
    expect(buffer.stats).toMatchObject({ late: 0, lost: 0, underruns: 1 });
    expect(buffer.target).toBe(2);
  });
});

describe('issue 29 §1 audio: the end of a talk spurt', () => {
  it('is not an underrun: the next spurt starts at the same depth', () => {
    const buffer = new JitterBuffer(20, 48_000);
    buffer.push(0, 0, frame(1000), 0);
    expect(kinds(buffer, 4)).toEqual(['audio:1000', 'concealed:500', 'concealed:250', 'silence']);
    expect(buffer.stats.underruns).toBe(0);
    expect(buffer.target).toBe(1);
  });
});
