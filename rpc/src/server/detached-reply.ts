import type { CommandReply } from '../protocol/envelope.js';

/** The reply of a concurrent command: sent when ready, without holding later frames back. */
export class DetachedReply {
  constructor(readonly reply: Promise<CommandReply>) {}
}
