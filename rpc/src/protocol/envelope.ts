/**
 * Message envelopes inside FRAME. Every reply carries all four keys in the order the real
 * client builds them (`cmd, data, evt, nonce`); pypresence reads `evt` unconditionally and
 * the C library tells replies from events by a string nonce, so events carry `nonce: null`.
 */
export type Nonce = string | number | boolean | object;

export interface CommandReply {
  cmd: string | null;
  data: unknown;
  evt: null | 'ERROR' | string;
  nonce: unknown;
}

export interface EventDispatch {
  cmd: 'DISPATCH';
  data: unknown;
  evt: string;
  nonce: null;
}

export function successReply(cmd: string, nonce: unknown, data: unknown): CommandReply {
  return { cmd, data, evt: null, nonce };
}

export function errorReply(cmd: unknown, nonce: unknown, code: number, message: string): CommandReply {
  return {
    cmd: typeof cmd === 'string' ? cmd : null,
    data: { code, message },
    evt: 'ERROR',
    nonce: nonce ?? null,
  };
}

export function eventDispatch(evt: string, data: unknown): EventDispatch {
  return { cmd: 'DISPATCH', data, evt, nonce: null };
}
