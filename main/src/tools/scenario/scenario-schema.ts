import * as v from 'valibot';
import { SDK_CALLS } from './sdk-calls.js';

/**
 * The scenario file format of `companion scenario run` (YAML or JSON).
 *
 * A file holds one scenario, or several: YAML documents separated by `---`, or a JSON array.
 * A scenario:
 *
 *   name: presence seen by a friend        # required
 *   host:                                  # optional; these are the defaults
 *     use: fresh        # fresh: a new in-process host with its embedded emulator, in temp dirs
 *                       # existing: the running host named by --host / --runtime-dir, else the
 *                       #   one serving the sockets games would find (its runtime file)
 *     user: alice       # fresh only: the emulator user it signs in as
 *     consent: prompt   # the consent policy: prompt, approve or deny (an existing host's
 *                       #   policy is set through its web UI bridge and restored afterwards)
 *     consent_always_ask: false          # fresh only
 *     strict_apps: false                 # fresh only
 *   timeout_ms: 2000    # default wait of the steps that wait for something
 *   steps: [...]        # run in order; the first failure stops the scenario
 *
 * Each step is a mapping with one step kind as its key, and an optional `label` beside it
 * (for expect_timing). Games are named by the `game` step that connected them.
 *
 *   game:            {name, client_id: "digits", activity?, subscribe?: [EVT, ...]}
 *                    connects a fake game (the project's SDK) and waits for READY; then sets
 *                    the activity and subscribes, each of which must succeed
 *   command:         {game, cmd, args?, evt?, expect?, save?, async?: REF, timeout_ms?}
 *                    sends any RPC command. Without `async` it waits for the reply and checks
 *                    `expect`; with `async` the reply is checked later by expect_reply REF
 *   expect_reply:    {ref: REF, expect?, save?, timeout_ms?}
 *   set_activity:    {game, activity: {...} | null, expect?}    SET_ACTIVITY as the SDK sends it
 *                    (kept and sent again after a reconnect); null clears
 *   expect_event:    {game, evt, match?, save?, timeout_ms?}
 *                    the game received (or receives within the timeout) an event `evt` whose
 *                    data matches; each received event satisfies one expect_event only
 *   expect_no_event: {game, evt, match?, window_ms? (300)}
 *                    no matching event not already expected arrives by the end of the window
 *   expect_status:   {game, status?, close_code?, closed?: false, timeout_ms?}
 *                    the game's connection: a CLOSE with this code happened (e.g. 4003 after a
 *                    revoke), it is now in `status` (ready, reconnecting, ...), or it never closed
 *   disconnect:      GAME | {game}          the game closes its connection
 *   consent:         {policy: prompt|approve|deny} | {answer: approve|deny|dismiss, game?, timeout_ms?}
 *                    sets the policy, or answers the next consent prompt (of that game's connection)
 *   authorize:       {game, scopes? ([identify]), answer?: approve|deny|dismiss,
 *                     expect?: approved|denied|{data?, error?}, authenticate? (true),
 *                     expect_authenticate?, expect_token_error?: TEXT, timeout_ms?}
 *                    AUTHORIZE with a PKCE challenge, the answer to the prompt (none: the policy
 *                    or a remembered grant decides), and on approval the token exchange at the
 *                    platform and AUTHENTICATE. expect_token_error: the exchange must fail with
 *                    that error (text or /regex/; e.g. after inject token_error), and nothing is
 *                    authenticated. Tokens are never printed
 *   inject:          {kind: event, game, evt, data?, force?, delivered? (true)}
 *                    {kind: join|spectate, game, secret}  {kind: join_request|invite, game, user, party?}
 *                    {kind: authorize_request|current_user, game}  {kind: guild_status, game, guild, name?, online?}
 *                    {kind: gateway, action: drop|pause, duration_ms?}  {kind: revoke, app}
 *                    {kind: token_error, error, error_description?, status?, app?, grant_type?, count?}
 *                    {kind: token_error_clear}  {kind: output, game, delay_ms?, split?, coalesce?}
 *   friend:          {as, action: presence|offline|ask_to_join|invite|accept|decline, app?,
 *                     activity?, status?, message?, message_id?}      the simulated friend
 *   friend_voice:    {as, action: join|speak|quiet|mute|unmute|deaf|undeaf|leave, channel?
 *                     (join: id or name), lobby?, tone_hz?, ms? (speak: how long, 1000 by default),
 *                     wav? (speak in a lobby call: a 16-bit PCM WAV file, relative to the scenario)}
 *                    the simulated friend in a server voice channel (no audio: speaking is a
 *                    state), or with `lobby` (on every action) in that lobby's call, where the
 *                    tone (440 Hz by default) or the file really plays
 *   expect_speaking: {user, speaking?: true, sdk?, lobby?, timeout_ms?}  Companion shows `user`
 *                    speaking (or not) in the player's voice channel (GET /v1/voice); with `sdk`,
 *                    that SDK game's call's speaking callbacks say so (of `lobby`, or any call)
 *   call:            {sdk, lobby, end?: true, timeout_ms?}  the SDK game starts or joins the
 *                    lobby's call with the audio callbacks (received audio recorded) and waits
 *                    until it is connected; `end: true` leaves it
 *   expect_audio:    {sdk, from, tone_hz? | none: true, tolerance_hz? (20), ms? (400), timeout_ms?}
 *                    the SDK game's received-audio callback got `ms` of sound from `from` at
 *                    `tone_hz` (zero crossings within the tolerance, and the Goertzel power there
 *                    above a half octave's); `none`: no sound from `from` for `ms`. Each one looks
 *                    at what came after the previous expect_audio of that game and user
 *   expect_presence: {seen_by?, user?, app?, activity?: {...} | none, status?, timeout_ms?}
 *                    what `seen_by` (a friend signed in to the emulator's gateway) sees of
 *                    `user` (default: the host's user); without seen_by, what the host sees of
 *                    its friend `user` (GET /v1/friends). `activity` matches one of the user's
 *                    activities (of `app` when given); `none`: no activity (of `app`)
 *   control:         {method? (GET), route, body?, expect?: {status?, match?}, save?, timeout_ms?}
 *                    calls the host's control API; a GET that does not match is retried until
 *                    the timeout
 *   wait:            MS | {ms}
 *   expect_timing:   {max_ms?, min_ms?, from?: LABEL}
 *                    the previous step took at most / at least that long (from the start of the
 *                    step labelled LABEL to the end of the previous step, with `from`)
 *   sdk:             {name, user, app: "digits", scopes? (openid sdk.social_layer), timeout_ms?}
 *                    a Social SDK game (companion/client) playing as the emulator user `user`:
 *                    signed in (dev login), the app authorized with the scopes, the token handed
 *                    over with updateToken, and its own session to the platform ready
 *   sdk_call:        {sdk, call, args?: [...], expect?, save?}
 *                    calls one of the SDK's social calls (createOrJoinLobby, sendLobbyMessage,
 *                    sendUserMessage, getRelationships, sendFriendRequest, blockUser, ... see
 *                    sdk-calls.ts) and checks its result: `error.code` is the platform's code
 *                    (e.g. 50035, 10031, 530017); `data` the rest of what it answered
 *   expect_sdk_event: {sdk, event, match?, save?, timeout_ms?}
 *                    the SDK game's callback `event` ran (lobbyCreated, memberAdded,
 *                    messageCreated, relationshipCreated, tokenExpiration, ...) with data
 *                    matching; message events carry the message handle as `message`
 *
 * `expect` on a reply: `{data: MATCH}` (the reply succeeded and its data matches) or
 * `{error: {code?, message?}}` (it failed with that code; the message contains the text, or
 * matches `/regex/`). No `expect`: the reply must not be an error.
 *
 * Matching (`match`, `data`, `activity`): a subset match. Every key given must be there with a
 * matching value; keys not given are ignored; arrays match item by item and must have the same
 * length; a string `/.../flags` is a regular expression.
 *
 * Placeholders in any string of a step: `{{me}}` (the host's user id), `{{user:NAME}}` (a
 * user's id), `{{NAME}}` (a value saved earlier with `save: {NAME: path.in.data}`).
 */

export const STEP_KINDS = [
  'game',
  'command',
  'expect_reply',
  'set_activity',
  'expect_event',
  'expect_no_event',
  'expect_status',
  'disconnect',
  'consent',
  'authorize',
  'inject',
  'friend',
  'expect_presence',
  'control',
  'wait',
  'expect_timing',
  'sdk',
  'sdk_call',
  'expect_sdk_event',
  'friend_voice',
  'expect_speaking',
  'call',
  'expect_audio',
] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/** The SDK game's callbacks an expect_sdk_event can wait for. */
export const SDK_EVENTS = [
  'lobbyCreated',
  'lobbyUpdated',
  'lobbyDeleted',
  'memberAdded',
  'memberUpdated',
  'memberRemoved',
  'messageCreated',
  'messageUpdated',
  'messageDeleted',
  'relationshipCreated',
  'relationshipDeleted',
  'tokenExpiration',
  'platformStatus',
  'speakingStatusChanged',
  'participantChanged',
] as const;
export const CONSENT_POLICY_NAMES = ['prompt', 'approve', 'deny'] as const;
export const CONSENT_ANSWERS = ['approve', 'deny', 'dismiss'] as const;
export const FRIEND_ACTIONS = ['presence', 'offline', 'ask_to_join', 'invite', 'accept', 'decline'] as const;
export const INJECT_KINDS = [
  'event',
  'join',
  'spectate',
  'join_request',
  'invite',
  'authorize_request',
  'current_user',
  'guild_status',
  'gateway',
  'revoke',
  'token_error',
  'token_error_clear',
  'output',
] as const;
const GAME_STATUSES = ['ready', 'connecting', 'reconnecting', 'disconnected', 'disconnecting'] as const;
const PRESENCE_STATUSES = ['online', 'idle', 'dnd', 'invisible', 'offline'] as const;

const UNKNOWN = 'is not a known field';
const str = () => v.string('must be a string');
const text = () => v.pipe(str(), v.minLength(1, 'must not be empty'));
const bool = () => v.boolean('must be true or false');
const int = (min: number, max: number) =>
  v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(min, `must be at least ${min}`), v.maxValue(max, `must be at most ${max}`));
const ms = () => int(0, 600_000);
const timeout = () => v.optional(int(1, 600_000));
const snowflake = () => v.pipe(v.string('must be a string of digits (quote it in YAML: long numbers lose digits)'), v.regex(/^[0-9]{1,20}$/, 'must be an id of 1 to 20 digits'));
const eventName = () => v.pipe(str(), v.regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'must be an event name in capitals, like ACTIVITY_JOIN'));
const plainObject = (what: string) => v.custom<Record<string, unknown>>((input) => typeof input === 'object' && input !== null && !Array.isArray(input), `must be ${what}`);
const pick = <T extends readonly [string, ...string[]]>(options: T) => v.picklist(options, `must be one of ${options.join(', ')}`);
/** `{NAME: path.in.data}`: values to keep for later `{{NAME}}` placeholders. */
const save = () =>
  v.optional(
    v.record(
      v.pipe(str(), v.regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be a name of letters, digits and _')),
      v.pipe(str(), v.regex(/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/, 'must be a path like data.message_id')),
      'must be a mapping of names to paths',
    ),
  );

/** What a reply must be: `data` (success, matching) or `error` (failure with that code / text). */
export const ReplyExpectSchema = v.strictObject(
  {
    data: v.optional(v.unknown()),
    error: v.optional(v.strictObject({ code: v.optional(int(0, 1_000_000)), message: v.optional(str()) }, UNKNOWN)),
  },
  UNKNOWN,
);
export type ReplyExpect = v.InferOutput<typeof ReplyExpectSchema>;

const GameStep = v.strictObject(
  {
    name: v.pipe(str(), v.regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be a name of letters, digits and _.-')),
    client_id: snowflake(),
    activity: v.optional(plainObject('an activity object')),
    subscribe: v.optional(v.array(eventName(), 'must be a list of event names')),
    timeout_ms: timeout(),
  },
  UNKNOWN,
);

const CommandStep = v.strictObject(
  {
    game: text(),
    cmd: v.pipe(str(), v.regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'must be a command name in capitals, like SET_ACTIVITY')),
    args: v.optional(v.unknown()),
    evt: v.optional(eventName()),
    expect: v.optional(ReplyExpectSchema),
    save: save(),
    async: v.optional(v.pipe(str(), v.regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be a name of letters, digits and _.-'))),
    timeout_ms: timeout(),
  },
  UNKNOWN,
);

const ExpectReplyStep = v.strictObject({ ref: text(), expect: v.optional(ReplyExpectSchema), save: save(), timeout_ms: timeout() }, UNKNOWN);

const SetActivityStep = v.strictObject(
  { game: text(), activity: v.nullable(plainObject('an activity object or null (clears it)')), expect: v.optional(ReplyExpectSchema), timeout_ms: timeout() },
  UNKNOWN,
);

const ExpectEventStep = v.strictObject({ game: text(), evt: eventName(), match: v.optional(v.unknown()), save: save(), timeout_ms: timeout() }, UNKNOWN);

const ExpectNoEventStep = v.strictObject({ game: text(), evt: eventName(), match: v.optional(v.unknown()), window_ms: v.optional(ms()) }, UNKNOWN);

const ExpectStatusStep = v.strictObject(
  {
    game: text(),
    status: v.optional(pick(GAME_STATUSES)),
    close_code: v.optional(int(0, 65_535)),
    closed: v.optional(v.literal(false, 'can only be false (the connection never closed)')),
    timeout_ms: timeout(),
  },
  UNKNOWN,
);

const DisconnectStep = v.union([text(), v.strictObject({ game: text() }, UNKNOWN)], 'must be a game name or {game}');

const ConsentStep = v.strictObject(
  { policy: v.optional(pick(CONSENT_POLICY_NAMES)), answer: v.optional(pick(CONSENT_ANSWERS)), game: v.optional(text()), timeout_ms: timeout() },
  UNKNOWN,
);

const AuthorizeStep = v.strictObject(
  {
    game: text(),
    scopes: v.optional(v.union([text(), v.array(text(), 'must be a list of scopes')], 'must be a list of scopes or a space-separated string')),
    answer: v.optional(pick(CONSENT_ANSWERS)),
    expect: v.optional(v.union([v.picklist(['approved', 'denied']), ReplyExpectSchema], "must be approved, denied or {data, error}")),
    authenticate: v.optional(bool()),
    expect_authenticate: v.optional(ReplyExpectSchema),
    expect_token_error: v.optional(text()),
    timeout_ms: timeout(),
  },
  UNKNOWN,
);

const InjectStep = v.strictObject(
  {
    kind: pick(INJECT_KINDS),
    game: v.optional(text()),
    evt: v.optional(eventName()),
    data: v.optional(v.unknown()),
    force: v.optional(bool()),
    delivered: v.optional(bool()),
    secret: v.optional(text()),
    user: v.optional(text()),
    party: v.optional(text()),
    guild: v.optional(snowflake()),
    name: v.optional(text()),
    online: v.optional(int(0, 1_000_000)),
    username: v.optional(text()),
    action: v.optional(pick(['drop', 'pause'] as const)),
    duration_ms: v.optional(int(1, 600_000)),
    app: v.optional(snowflake()),
    error: v.optional(v.pipe(str(), v.regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be an OAuth2 error code like invalid_grant'))),
    error_description: v.optional(str()),
    status: v.optional(int(400, 599)),
    grant_type: v.optional(pick(['authorization_code', 'refresh_token'] as const)),
    count: v.optional(int(1, 1000)),
    delay_ms: v.optional(int(0, 60_000)),
    split: v.optional(v.strictObject({ parts: int(2, 64), gap_ms: v.optional(int(0, 10_000)) }, UNKNOWN)),
    coalesce: v.optional(v.strictObject({ frames: int(2, 64), window_ms: v.optional(int(1, 10_000)) }, UNKNOWN)),
  },
  UNKNOWN,
);

const FriendStep = v.strictObject(
  {
    as: text(),
    action: pick(FRIEND_ACTIONS),
    to: v.optional(text()),
    app: v.optional(snowflake()),
    activity: v.optional(plainObject('an activity object')),
    status: v.optional(pick(['online', 'idle', 'dnd', 'invisible'] as const)),
    message: v.optional(str()),
    message_id: v.optional(snowflake()),
  },
  UNKNOWN,
);

const ExpectPresenceStep = v.strictObject(
  {
    seen_by: v.optional(text()),
    user: v.optional(text()),
    app: v.optional(snowflake()),
    activity: v.optional(v.union([v.literal('none'), plainObject('an activity to match')], "must be an activity to match or 'none'")),
    status: v.optional(pick(PRESENCE_STATUSES)),
    timeout_ms: timeout(),
  },
  UNKNOWN,
);

const ControlStep = v.strictObject(
  {
    method: v.optional(pick(['GET', 'POST', 'PATCH', 'DELETE'] as const)),
    route: v.pipe(str(), v.regex(/^\/v1\/[^\s]*$/, 'must be a control API route like /v1/status')),
    body: v.optional(v.unknown()),
    expect: v.optional(v.strictObject({ status: v.optional(int(100, 599)), match: v.optional(v.unknown()) }, UNKNOWN)),
    save: save(),
    timeout_ms: timeout(),
  },
  UNKNOWN,
);

const SdkStep = v.strictObject(
  {
    name: v.pipe(str(), v.regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be a name of letters, digits and _.-')),
    user: text(),
    app: snowflake(),
    scopes: v.optional(v.union([text(), v.array(text(), 'must be a list of scopes')], 'must be a list of scopes or a space-separated string')),
    timeout_ms: timeout(),
  },
  UNKNOWN,
);

const SdkCallStep = v.strictObject(
  {
    sdk: text(),
    call: pick(SDK_CALLS),
    args: v.optional(v.array(v.unknown(), 'must be a list of arguments')),
    expect: v.optional(ReplyExpectSchema),
    save: save(),
  },
  UNKNOWN,
);

const ExpectSdkEventStep = v.strictObject({ sdk: text(), event: pick(SDK_EVENTS), match: v.optional(v.unknown()), save: save(), timeout_ms: timeout() }, UNKNOWN);

/** The simulated friend in a server voice channel (`companion platform friend voice`). */
export const FRIEND_VOICE_STEP_ACTIONS = ['join', 'speak', 'quiet', 'mute', 'unmute', 'deaf', 'undeaf', 'leave'] as const;
const FriendVoiceStep = v.strictObject(
  {
    as: text(),
    action: pick(FRIEND_VOICE_STEP_ACTIONS),
    channel: v.optional(text()),
    lobby: v.optional(text()),
    wav: v.optional(text()),
    tone_hz: v.optional(int(20, 20_000)),
    ms: v.optional(int(1, 600_000)),
  },
  UNKNOWN,
);

/** Who speaks in the host's voice channel (GET /v1/voice), or with `sdk` in that SDK game's lobby call. */
const ExpectSpeakingStep = v.strictObject({ user: text(), speaking: v.optional(bool()), sdk: v.optional(text()), lobby: v.optional(text()), timeout_ms: timeout() }, UNKNOWN);

/** An SDK game starts or joins a lobby's call (received audio recorded), or ends it. */
const CallStep = v.strictObject({ sdk: text(), lobby: text(), end: v.optional(bool()), timeout_ms: timeout() }, UNKNOWN);

/** What an SDK game's received-audio callback got from a participant: a tone, or nothing. */
const ExpectAudioStep = v.strictObject(
  {
    sdk: text(),
    from: text(),
    tone_hz: v.optional(int(20, 20_000)),
    tolerance_hz: v.optional(int(1, 1000)),
    none: v.optional(v.literal(true, 'must be true')),
    ms: v.optional(int(20, 10_000)),
    timeout_ms: timeout(),
  },
  UNKNOWN,
);

const WaitStep = v.union([ms(), v.strictObject({ ms: ms() }, UNKNOWN)], 'must be a number of milliseconds or {ms}');

const ExpectTimingStep = v.strictObject({ max_ms: v.optional(ms()), min_ms: v.optional(ms()), from: v.optional(text()) }, UNKNOWN);

/** Each step kind's body schema. */
export const STEP_SCHEMAS = {
  game: GameStep,
  command: CommandStep,
  expect_reply: ExpectReplyStep,
  set_activity: SetActivityStep,
  expect_event: ExpectEventStep,
  expect_no_event: ExpectNoEventStep,
  expect_status: ExpectStatusStep,
  disconnect: DisconnectStep,
  consent: ConsentStep,
  authorize: AuthorizeStep,
  inject: InjectStep,
  friend: FriendStep,
  expect_presence: ExpectPresenceStep,
  control: ControlStep,
  wait: WaitStep,
  expect_timing: ExpectTimingStep,
  sdk: SdkStep,
  sdk_call: SdkCallStep,
  expect_sdk_event: ExpectSdkEventStep,
  friend_voice: FriendVoiceStep,
  expect_speaking: ExpectSpeakingStep,
  call: CallStep,
  expect_audio: ExpectAudioStep,
} as const satisfies Record<StepKind, v.GenericSchema>;

export type StepBodies = { [K in StepKind]: v.InferOutput<(typeof STEP_SCHEMAS)[K]> };

/** One validated step: its kind, its body, and its label. */
export type Step = { [K in StepKind]: { readonly kind: K; readonly body: StepBodies[K]; readonly label?: string } }[StepKind];

export const HostSchema = v.strictObject(
  {
    use: v.optional(pick(['fresh', 'existing'] as const)),
    user: v.optional(text()),
    consent: v.optional(pick(CONSENT_POLICY_NAMES)),
    consent_always_ask: v.optional(bool()),
    strict_apps: v.optional(bool()),
  },
  UNKNOWN,
);
export type HostSettings = v.InferOutput<typeof HostSchema>;

/** The scenario's own fields; `steps` are checked one by one (see scenario-loader.ts). */
export const ScenarioHeadSchema = v.strictObject(
  {
    name: text(),
    description: v.optional(str()),
    host: v.optional(HostSchema),
    timeout_ms: timeout(),
    steps: v.pipe(v.array(v.unknown(), 'must be a list of steps'), v.minLength(1, 'must hold at least one step')),
  },
  UNKNOWN,
);

export interface Scenario {
  readonly name: string;
  readonly description?: string;
  readonly host: HostSettings;
  /** Default wait of steps that wait (ms). */
  readonly timeoutMs: number;
  readonly steps: readonly Step[];
}

/** A scenario file: its path as given, and its scenarios in order. */
export interface ScenarioFile {
  readonly file: string;
  readonly scenarios: readonly Scenario[];
}

export const DEFAULT_TIMEOUT_MS = 2000;
export const DEFAULT_NO_EVENT_WINDOW_MS = 300;
