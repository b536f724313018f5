import type { ClientResult } from './client-result.js';
import * as dm from './dm-api.js';
import type { MessageHandle } from './lobby-api.js';
import { attempt, type BearerCallOptions } from './platform-request.js';

/**
 * The Client's direct messages in the Social SDK's shape (SendUserMessage,
 * GetUserMessagesWithLimit, EditUserMessage, DeleteUserMessage): each resolves with its
 * ClientResult and calls the callback when given; none throws. The DM channel of each
 * recipient is asked for once.
 */
export class ClientDms {
  private readonly channels = new Map<string, string>();

  constructor(
    private readonly options: () => BearerCallOptions,
    /** Keeps a message for getMessageHandle. */
    private readonly remember: (message: MessageHandle) => MessageHandle,
    /** Drops a deleted message from what getMessageHandle answers. */
    private readonly forget: (messageId: string) => void = () => undefined,
  ) {}

  async send(recipientId: string, content: string, callback?: (result: ClientResult, messageId: string | null) => void, metadata?: Readonly<Record<string, string>>): Promise<{ result: ClientResult; messageId: string | null }> {
    const outcome = await attempt(async () => this.remember(await dm.sendDm(this.options(), await this.channel(recipientId), content, metadata)).id);
    callback?.(outcome.result, outcome.value);
    return { result: outcome.result, messageId: outcome.value };
  }

  async read(recipientId: string, limit: number, callback?: (result: ClientResult, messages: readonly MessageHandle[]) => void): Promise<{ result: ClientResult; messages: readonly MessageHandle[] }> {
    const outcome = await attempt(async () => (await dm.readDms(this.options(), await this.channel(recipientId), limit)).map(this.remember));
    const messages = outcome.value ?? [];
    callback?.(outcome.result, messages);
    return { result: outcome.result, messages };
  }

  /** Client::EditUserMessage: the player's own message to `recipientId` gets `content`; its handle is the edited message. */
  async edit(recipientId: string, messageId: string, content: string, callback?: (result: ClientResult) => void): Promise<ClientResult> {
    const outcome = await attempt(async () => this.remember(await dm.editDm(this.options(), await this.channel(recipientId), messageId, content)));
    callback?.(outcome.result);
    return outcome.result;
  }

  /** Client::DeleteUserMessage: the player's own message to `recipientId` is deleted; getMessageHandle no longer answers it. */
  async delete(recipientId: string, messageId: string, callback?: (result: ClientResult) => void): Promise<ClientResult> {
    const outcome = await attempt(async () => {
      await dm.deleteDm(this.options(), await this.channel(recipientId), messageId);
      this.forget(messageId);
      return null;
    });
    callback?.(outcome.result);
    return outcome.result;
  }

  /** The DM channels opened so far: recipient id → channel id. */
  opened(): ReadonlyMap<string, string> {
    return this.channels;
  }

  private async channel(recipientId: string): Promise<string> {
    const known = this.channels.get(recipientId);
    if (known !== undefined) return known;
    const id = await dm.dmChannel(this.options(), recipientId);
    this.channels.set(recipientId, id);
    return id;
  }
}
