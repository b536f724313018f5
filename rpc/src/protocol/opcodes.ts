/** Frame opcodes of the local RPC protocol (uint32 LE in the frame header). */
export const Opcode = {
  Handshake: 0,
  Frame: 1,
  Close: 2,
  Ping: 3,
  Pong: 4,
} as const;

export type Opcode = (typeof Opcode)[keyof typeof Opcode];

export function isKnownOpcode(value: number): value is Opcode {
  return value >= Opcode.Handshake && value <= Opcode.Pong;
}
