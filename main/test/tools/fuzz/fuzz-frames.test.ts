import { describe, expect, it } from 'vitest';
import { Opcode, RPC_COMMANDS } from '../../../../rpc/src/index.js';
import { fuzzFrame, type FuzzFrame } from '../../../src/tools/fuzz/fuzz-frames.js';
import type { FuzzTargets } from '../../../src/tools/fuzz/valid-commands.js';

const TARGETS: FuzzTargets = {
  clientId: '1234567890123456789',
  otherClientIds: ['1000000000000000001'],
  selfUserId: '100000000000000001',
  guildIds: ['200000000000000001'],
  channelIds: ['300000000000000001'],
  accessToken: 'token-of-the-test',
};

const bytes = (frame: FuzzFrame): string => Buffer.concat(frame.chunks).toString('hex');

describe('fuzz frames', () => {
  it('a seed and an index give the same frame, whatever was generated before', () => {
    const forward = Array.from({ length: 3000 }, (_, i) => fuzzFrame(7, i, TARGETS));
    for (let i = 2999; i >= 0; i -= 1) {
      const again = fuzzFrame(7, i, TARGETS);
      expect(again.label).toBe(forward[i]?.label);
      expect(bytes(again)).toBe(bytes(forward[i] as FuzzFrame));
    }
    expect(bytes(fuzzFrame(8, 0, TARGETS))).not.toBe(bytes(forward[0] as FuzzFrame));
  });

  it('covers every command, every phase, and every opcode', () => {
    const frames = Array.from({ length: 20_000 }, (_, i) => fuzzFrame(11, i, TARGETS));
    const commands = new Set(frames.map((frame) => frame.label.split(' ')[0]));
    for (const cmd of Object.keys(RPC_COMMANDS)) expect(commands).toContain(cmd);
    expect(new Set(frames.map((frame) => frame.phase))).toEqual(new Set(['ready', 'authenticated', 'handshake']));
    const opcodes = new Set(frames.map((frame) => Buffer.concat(frame.chunks)).filter((wire) => wire.length >= 4).map((wire) => wire.readUInt32LE(0)));
    for (const opcode of Object.values(Opcode)) expect(opcodes).toContain(opcode);
    expect(new Set(frames.map((frame) => frame.expect))).toEqual(new Set(['reply', 'pong', 'reply-or-close', 'ended', 'handshake']));
  });
});
