import * as v from 'valibot';
import { ClientResult } from './client-result.js';

/**
 * The arguments of the Client's platform calls, checked before anything is sent: ids are
 * snowflakes (strings of 1 to 20 digits), message content is not blank and at most 2,000
 * characters, metadata maps strings to strings, limits are integers in their range, lobby
 * secrets are 1 to 250 characters, the argument records (AuthorizationArgs, DeviceAuthorizationArgs,
 * an invite) are what they say. A call given bad arguments answers (and calls back with) a
 * `ValidationError` result naming the call and the argument, with the shape of its usual
 * answer; nothing reaches the network. One table, applied once to the Client's prototype
 * (`guardCalls`), so no call checks by hand.
 */

/** The platform's limit of a message's content. */
export const MAX_CONTENT_CHARS = 2000;
/** The platform's limit of a lobby secret. */
export const MAX_SECRET_CHARS = 250;

const id = (name: string) =>
  v.pipe(v.string(`${name} must be a snowflake id string`), v.regex(/^\d{1,20}$/, `${name} must be a snowflake id (a string of 1 to 20 digits)`));
const content = (name: string) =>
  v.pipe(
    v.string(`${name} must be a string`),
    v.check((text) => text.trim().length > 0, `${name} must not be empty`),
    v.maxLength(MAX_CONTENT_CHARS, `${name} must be at most ${MAX_CONTENT_CHARS} characters`),
  );
const metadata = (name: string) =>
  v.pipe(
    // valibot's record takes an array as an object of index keys: refuse it first, with the same words.
    v.custom<unknown>((value) => !Array.isArray(value), `${name} must be an object of string keys and string values`),
    v.record(v.string(), v.string(`${name} values must be strings`), `${name} must be an object of string keys and string values`),
  );
const limit = (max: number) =>
  v.pipe(v.number('limit must be a number'), v.integer(`limit must be an integer from 1 to ${max}`), v.minValue(1, `limit must be an integer from 1 to ${max}`), v.maxValue(max, `limit must be an integer from 1 to ${max}`));
const secret = v.pipe(v.string('secret must be a string'), v.minLength(1, 'secret must not be empty'), v.maxLength(MAX_SECRET_CHARS, `secret must be at most ${MAX_SECRET_CHARS} characters`));
const username = v.pipe(v.string('username must be a string'), v.check((name) => name.trim().length > 0, 'username must not be empty'));
const accept = v.boolean('accept must be a boolean');
/** The SDK's argument records, by what they can do (a second copy of the SDK in a process would fail `instanceof`). */
const hasMethods =
  (...methods: readonly string[]) =>
  (value: unknown): boolean =>
    typeof value === 'object' && value !== null && methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function');
const authorizationArgs = v.custom<unknown>(hasMethods('isValid', 'clientId', 'scopes'), 'args must be an AuthorizationArgs (new AuthorizationArgs())');
const deviceArgs = v.custom<unknown>(hasMethods('clientId', 'scopes'), 'args must be a DeviceAuthorizationArgs (new DeviceAuthorizationArgs())');
const invite = v.object({ messageId: id('messageId') }, 'invite must be an ActivityInvite (or an object with its messageId)');

/** What a call answers when its arguments are refused: its usual shape, and what its callback gets. */
interface Refusal {
  readonly value: unknown;
  readonly callbackArgs: readonly unknown[];
}

type Answer = (result: ClientResult) => Refusal;

const plain: Answer = (result) => ({ value: result, callbackArgs: [result] });
const withNull =
  (key: string): Answer =>
  (result) => ({ value: { result, [key]: null }, callbackArgs: [result, null] });
const withList =
  (key: string): Answer =>
  (result) => ({ value: { result, [key]: [] }, callbackArgs: [result, []] });

export interface CallRule {
  /** The arguments before the callback, in order. */
  readonly args: readonly v.GenericSchema[];
  readonly answer: Answer;
  /** The call takes no callback after its arguments. */
  readonly noCallback?: true;
}

/** getToken's shape: `{result, token: null}`; the callback `(result, accessToken, refreshToken, tokenType, expiresIn, scopes)`. */
const noToken: Answer = (result) => ({ value: { result, token: null }, callbackArgs: [result, null, null, null, 0, ''] });
const noCode: Answer = (result) => ({ value: { result, code: null, redirectUri: null, via: 'rpc' }, callbackArgs: [result, null, null] });

const userCall: CallRule = { args: [id('userId')], answer: plain };

/** Every Client call with arguments that go to the platform, by method name. */
export const CLIENT_CALL_RULES: Readonly<Record<string, CallRule>> = {
  createOrJoinLobby: { args: [secret], answer: withNull('lobbyId') },
  createOrJoinLobbyWithMetadata: { args: [secret, metadata('lobbyMetadata'), metadata('memberMetadata')], answer: withNull('lobbyId') },
  leaveLobby: { args: [id('lobbyId')], answer: plain },
  endCall: { args: [id('lobbyId')], answer: plain },
  linkChannelToLobby: { args: [id('lobbyId'), id('channelId')], answer: plain },
  unlinkChannelFromLobby: { args: [id('lobbyId')], answer: plain },
  refreshLobby: { args: [id('lobbyId')], answer: withNull('lobby'), noCallback: true },
  sendLobbyMessage: { args: [id('lobbyId'), content('content')], answer: withNull('messageId') },
  editLobbyMessage: { args: [id('lobbyId'), id('messageId'), content('content')], answer: plain },
  deleteLobbyMessage: { args: [id('lobbyId'), id('messageId')], answer: plain },
  getLobbyMessagesWithLimit: { args: [id('lobbyId'), limit(200)], answer: withList('messages') },
  sendUserMessage: { args: [id('recipientId'), content('content')], answer: withNull('messageId') },
  getUserMessagesWithLimit: { args: [id('recipientId'), limit(100)], answer: withList('messages') },
  editUserMessage: { args: [id('recipientId'), id('messageId'), content('content')], answer: plain },
  deleteUserMessage: { args: [id('recipientId'), id('messageId')], answer: plain },
  getGuildChannels: { args: [id('guildId')], answer: withList('channels') },
  sendFriendRequest: userCall,
  removeRelationship: userCall,
  sendDiscordFriendRequest: { args: [username], answer: plain },
  sendGameFriendRequest: { args: [username], answer: plain },
  sendDiscordFriendRequestById: userCall,
  sendGameFriendRequestById: userCall,
  acceptDiscordFriendRequest: userCall,
  acceptGameFriendRequest: userCall,
  rejectDiscordFriendRequest: userCall,
  rejectGameFriendRequest: userCall,
  cancelDiscordFriendRequest: userCall,
  cancelGameFriendRequest: userCall,
  removeDiscordAndGameFriend: userCall,
  removeGameFriend: userCall,
  blockUser: userCall,
  unblockUser: userCall,
  sendActivityInvite: { args: [id('userId'), v.nullable(v.pipe(v.string('content must be a string or null'), v.maxLength(MAX_CONTENT_CHARS, `content must be at most ${MAX_CONTENT_CHARS} characters`)))], answer: plain },
  sendActivityJoinRequestReply: { args: [id('userId'), accept], answer: plain },
  sendActivityJoinRequest: userCall,
  acceptActivityInvite: { args: [invite], answer: withNull('joinSecret') },
  authorize: { args: [authorizationArgs], answer: noCode },
  getTokenFromDevice: { args: [deviceArgs], answer: noToken },
  getTokenFromDeviceProvisionalMerge: { args: [deviceArgs, v.unknown(), v.unknown()], answer: noToken },
  sendUserMessageWithMetadata: { args: [id('recipientId'), content('content'), metadata('metadata')], answer: withNull('messageId') },
  sendLobbyMessageWithMetadata: { args: [id('lobbyId'), content('content'), metadata('metadata')], answer: withNull('messageId') },
};

/** The refusal of `args` for the call `name` under `rule`, or null when they are valid. */
export function refusal(name: string, rule: CallRule, args: readonly unknown[]): ClientResult | null {
  for (const [index, schema] of rule.args.entries()) {
    const checked = v.safeParse(schema, args[index]);
    if (!checked.success) return ClientResult.validation(`${name}: ${checked.issues[0].message}`);
  }
  return null;
}

/**
 * Wraps each method of `prototype` named in `rules`: bad arguments answer the refusal (a
 * resolved Promise of the call's usual shape, the callback, when given, called with it) without
 * running the method.
 */
export function guardCalls(prototype: object, rules: Readonly<Record<string, CallRule>>): void {
  const methods = prototype as Record<string, unknown>;
  for (const [name, rule] of Object.entries(rules)) {
    const original = methods[name];
    if (typeof original !== 'function') throw new TypeError(`guardCalls: no method ${name}`);
    methods[name] = function guarded(this: unknown, ...args: unknown[]): unknown {
      const refused = refusal(name, rule, args);
      if (refused === null) return (original as (...a: unknown[]) => unknown).apply(this, args);
      const { value, callbackArgs } = rule.answer(refused);
      const callback = rule.noCallback === true ? undefined : args[rule.args.length];
      if (typeof callback === 'function') (callback as (...a: unknown[]) => void)(...callbackArgs);
      return Promise.resolve(value);
    };
  }
}
