import { asciiFrameOf, encodeFrame, encodeRawFrame } from '../framing/frame-codec.js';
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
  const head = new JsonWriter().raw('{"cmd":');
  if (reply.cmd === null) head.raw('null');
  else head.string(reply.cmd);
  head.raw(',"data":');
  const tail = new JsonWriter().raw(',"evt":');
  if (reply.evt === null) tail.raw('null');
  else tail.string(reply.evt);
  tail.raw(',"nonce":');
  if (typeof reply.nonce === 'string') tail.string(reply.nonce);
  else tail.raw(JSON.stringify(reply.nonce) ?? 'null');
  tail.raw('}');
  const ascii = head.ascii && data.ascii && tail.ascii && (typeof reply.nonce === 'string' || isAscii(tail.text));
  if (!ascii) return encodeRawFrame(Opcode.Frame, head.text + data.text + tail.text);
  // The three pieces are copied into the frame one after the other: joined first, the ~800-byte
  // envelope was a second flat copy of the activity's text on every reply (garbage per frame
  // 1.3 -> 0.7 KB, measured 2026-11-25 like activityJsonTextAfter's figure).
  return asciiFrameOf(Opcode.Frame, head.text, data.text, tail.text);
}

/** The reply as plain data (JsonText unwrapped), for traces. */
export function plainReply(reply: CommandReply): CommandReply {
  // Built field by field (an object spread costs more on the traced hot path), in the envelope's key order.
  return reply.data instanceof JsonText ? { cmd: reply.cmd, data: reply.data.value, evt: reply.evt, nonce: reply.nonce } : reply;
}
