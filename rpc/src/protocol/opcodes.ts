/** Frame opcodes of the local RPC protocol (uint32 LE in the frame header). */
export const Opcode = {
  Handshake: 0,
  Frame: 1,
  Close: 2,
  Ping: 3,
  Pong: 4,
} as const;

export type Opcode = (typeof Opcode)[keyof typeof Opcode];
