import { encodeAsciiFrame, encodeFrame, encodeRawFrame } from '../framing/frame-codec.js';
import type { CommandReply } from '../protocol/envelope.js';
import { isAscii, JsonText, JsonWriter } from '../protocol/json-text.js';
import { Opcode } from '../protocol/opcodes.js';

/**
 * The FRAME for a reply. When `data` already is JSON text (the SET_ACTIVITY hot path) the
 * envelope is assembled around it, byte-identical to JSON.stringify of the whole reply.
 */
export function encodeReplyFrame(reply: CommandReply): Buffer {
  const data = reply.data;
  if (!(data instanceof JsonText)) return encodeFrame(Opcode.Frame, reply);
  const w = new JsonWriter().raw('{"cmd":');
  if (reply.cmd === null) w.raw('null');
  else w.string(reply.cmd);
  w.raw(',"data":').raw(data.text).raw(',"evt":');
  if (reply.evt === null) w.raw('null');
  else w.string(reply.evt);
  w.raw(',"nonce":');
  if (typeof reply.nonce === 'string') w.string(reply.nonce);
  else w.raw(JSON.stringify(reply.nonce) ?? 'null');
  w.raw('}');
  const ascii = w.ascii && data.ascii && (typeof reply.nonce === 'string' || isAscii(w.text));
  return ascii ? encodeAsciiFrame(Opcode.Frame, w.text) : encodeRawFrame(Opcode.Frame, w.text);
}

/** The reply as plain data (JsonText unwrapped), for traces. */
export function plainReply(reply: CommandReply): CommandReply {
  // Built field by field (an object spread costs more on the traced hot path), in the envelope's key order.
  return reply.data instanceof JsonText ? { cmd: reply.cmd, data: reply.data.value, evt: reply.evt, nonce: reply.nonce } : reply;
}
