import type { INJECT_KINDS, Scenario, Step, StepBodies } from './scenario-schema.js';

type InjectKind = (typeof INJECT_KINDS)[number];

/** For each inject kind: the fields it needs, and the ones it may take besides `kind`. */
const INJECT_FIELDS: Readonly<Record<InjectKind, { readonly required: readonly string[]; readonly optional: readonly string[] }>> = {
  event: { required: ['game', 'evt'], optional: ['data', 'force', 'delivered'] },
  join: { required: ['game', 'secret'], optional: ['force', 'delivered'] },
  spectate: { required: ['game', 'secret'], optional: ['force', 'delivered'] },
  join_request: { required: ['game', 'user'], optional: ['force', 'delivered'] },
  invite: { required: ['game', 'user'], optional: ['party', 'force', 'delivered'] },
  authorize_request: { required: ['game'], optional: ['force', 'delivered'] },
  current_user: { required: ['game'], optional: ['username', 'force', 'delivered'] },
  guild_status: { required: ['game', 'guild'], optional: ['name', 'online', 'force', 'delivered'] },
  gateway: { required: ['action'], optional: ['duration_ms'] },
  revoke: { required: ['app'], optional: [] },
  token_error: { required: ['error'], optional: ['error_description', 'status', 'app', 'grant_type', 'count'] },
  token_error_clear: { required: [], optional: [] },
  output: { required: ['game'], optional: ['delay_ms', 'split', 'coalesce'] },
};

const PLACEHOLDER = /\{\{\s*([^}]*?)\s*\}\}/g;

/** Every `{{NAME}}` placeholder that names a saved value (not `me`, not `user:X`). */
function savedReferences(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') {
    for (const match of value.matchAll(PLACEHOLDER)) {
      const name = match[1] as string;
      if (name !== 'me' && !name.startsWith('user:')) found.push(name);
    }
  } else if (Array.isArray(value)) {
    for (const item of value) savedReferences(item, found);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) savedReferences(item, found);
  }
  return found;
}

function gameOf(step: Step): string | undefined {
  if (step.kind === 'disconnect') return typeof step.body === 'string' ? step.body : step.body.game;
  if (step.kind === 'game' || step.kind === 'wait' || step.kind === 'expect_timing' || step.kind === 'sdk' || step.kind === 'sdk_call' || step.kind === 'expect_sdk_event') return undefined;
  const body = step.body as { game?: unknown };
  return typeof body.game === 'string' ? body.game : undefined;
}

function friendVoiceProblem(body: StepBodies['friend_voice']): string | undefined {
  if (body.channel !== undefined && body.lobby !== undefined) return "give 'channel' (a server voice channel) or 'lobby' (a lobby call), not both";
  if (body.lobby === undefined && (body.action === 'join') !== (body.channel !== undefined)) return "'channel' goes with action join, and join needs it (or 'lobby' for a lobby call)";
  if ((body.tone_hz !== undefined || body.ms !== undefined) && body.action !== 'speak') return "'tone_hz' and 'ms' are only for action speak";
  if (body.wav !== undefined && (body.action !== 'speak' || body.lobby === undefined)) return "'wav' is for action speak in a lobby call (with 'lobby')";
  if (body.wav !== undefined && (body.tone_hz !== undefined || body.ms !== undefined)) return "'wav' plays the file: give it alone, or 'tone_hz'/'ms'";
  return undefined;
}

function injectProblem(body: StepBodies['inject']): string | undefined {
  const fields = INJECT_FIELDS[body.kind];
  const given = Object.keys(body).filter((key) => key !== 'kind' && (body as Record<string, unknown>)[key] !== undefined);
  for (const name of fields.required) if (!given.includes(name)) return `'${name}' is required for kind ${body.kind}`;
  for (const name of given) {
    if (!fields.required.includes(name) && !fields.optional.includes(name)) return `'${name}' is not a field of kind ${body.kind}`;
  }
  if (body.kind === 'gateway' && body.action === 'pause' && body.duration_ms === undefined) return "'duration_ms' is required for action pause";
  if (body.kind === 'gateway' && body.action === 'drop' && body.duration_ms !== undefined) return "'duration_ms' is only for action pause";
  return undefined;
}

/** Problems of one step that its schema cannot see alone (fields that go together). */
function shapeProblem(step: Step): string | undefined {
  switch (step.kind) {
    case 'consent':
      if ((step.body.policy === undefined) === (step.body.answer === undefined)) return "needs either 'policy' or 'answer'";
      if (step.body.policy !== undefined && step.body.game !== undefined) return "'game' goes with 'answer' only";
      return undefined;
    case 'inject':
      return injectProblem(step.body);
    case 'friend':
      if (step.body.action === 'invite' && step.body.app === undefined) return "'app' is required for action invite";
      if (step.body.activity !== undefined && step.body.action !== 'presence') return "'activity' is only for action presence";
      if (step.body.activity !== undefined && step.body.app === undefined) return "'app' is required with 'activity' (the game the friend plays)";
      if (step.body.status !== undefined && step.body.action !== 'presence') return "'status' is only for action presence";
      if (step.body.message !== undefined && step.body.action !== 'invite') return "'message' is only for action invite";
      if (step.body.message_id !== undefined && step.body.action !== 'accept' && step.body.action !== 'decline') return "'message_id' is only for accept and decline";
      return undefined;
    case 'friend_voice':
      return friendVoiceProblem(step.body);
    case 'expect_audio':
      if ((step.body.tone_hz === undefined) === (step.body.none === undefined)) return "needs either 'tone_hz' (the frequency heard) or 'none: true' (silence)";
      if (step.body.tolerance_hz !== undefined && step.body.tone_hz === undefined) return "'tolerance_hz' goes with 'tone_hz'";
      return undefined;
    case 'expect_speaking':
      if (step.body.lobby !== undefined && step.body.sdk === undefined) return "'lobby' goes with 'sdk' (the SDK game whose call is watched)";
      return undefined;
    case 'expect_presence':
      if (step.body.seen_by === undefined && step.body.user === undefined) return "needs 'seen_by' (a friend watching the host's user) or 'user' (a friend the host watches)";
      if (step.body.activity === undefined && step.body.status === undefined) return "needs 'activity' or 'status'";
      return undefined;
    case 'expect_status':
      if (step.body.status === undefined && step.body.close_code === undefined && step.body.closed === undefined) return "needs 'status', 'close_code' or 'closed'";
      if (step.body.closed === false && step.body.close_code !== undefined) return "'closed: false' and 'close_code' contradict each other";
      return undefined;
    case 'expect_timing':
      if (step.body.max_ms === undefined && step.body.min_ms === undefined) return "needs 'max_ms' or 'min_ms'";
      return undefined;
    case 'authorize':
      if (step.body.expect_authenticate !== undefined && step.body.authenticate === false) return "'expect_authenticate' needs authenticate";
      if (step.body.expect_token_error !== undefined && step.body.authenticate === false) return "'expect_token_error' needs authenticate";
      if (step.body.expect_token_error !== undefined && step.body.expect_authenticate !== undefined) return "'expect_token_error' and 'expect_authenticate' exclude each other (a failed exchange authenticates nothing)";
      return undefined;
    default:
      return undefined;
  }
}

/**
 * Checks what spans steps: games used only after a `game` step connected them (and not after
 * their `disconnect`, until connected again), async replies and labels defined before use,
 * saved values saved before use; and the fields that go together within a step.
 */
export function checkScenarioReferences(scenario: Scenario): string[] {
  const problems: string[] = [];
  const connected = new Set<string>();
  const sdks = new Set<string>();
  const asyncRefs = new Set<string>();
  const labels = new Set<string>();
  const saved = new Set<string>();
  scenario.steps.forEach((step, index) => {
    const where = `step ${index + 1} (${step.kind})`;
    const problem = (text: string): void => void problems.push(`${where}: ${text}`);
    const shape = shapeProblem(step);
    if (shape !== undefined) problem(shape);

    const game = gameOf(step);
    if (step.kind === 'game') {
      if (connected.has(step.body.name)) problem(`'name' ${step.body.name} is already connected (disconnect it first, or pick another name)`);
      connected.add(step.body.name);
    } else if (game !== undefined && !connected.has(game)) {
      problem(`'game' ${game} is not connected by an earlier game step`);
    }
    if (step.kind === 'disconnect' && game !== undefined) connected.delete(game);
    if (step.kind === 'sdk') {
      if (sdks.has(step.body.name)) problem(`'name' ${step.body.name} is already an open SDK game`);
      sdks.add(step.body.name);
    } else if ((step.kind === 'sdk_call' || step.kind === 'expect_sdk_event') && !sdks.has(step.body.sdk)) {
      problem(`'sdk' ${step.body.sdk} is not opened by an earlier sdk step`);
    }

    for (const name of savedReferences(step.body)) if (!saved.has(name)) problem(`{{${name}}} is not saved by an earlier step (save: {${name}: path})`);

    if (step.kind === 'command' && step.body.async !== undefined) {
      if (asyncRefs.has(step.body.async)) problem(`'async' ${step.body.async} is already used by an earlier step`);
      asyncRefs.add(step.body.async);
      if (step.body.save !== undefined) problem("'save' goes on the expect_reply of an async command");
    }
    if (step.kind === 'expect_reply') {
      if (!asyncRefs.has(step.body.ref)) problem(`'ref' ${step.body.ref} is not the async name of an earlier command step`);
      asyncRefs.delete(step.body.ref);
    }
    if (step.kind === 'expect_timing') {
      if (index === 0) problem('must follow the step it times');
      if (step.body.from !== undefined && !labels.has(step.body.from)) problem(`'from' ${step.body.from} is not the label of an earlier step`);
    }
    if (step.label !== undefined) {
      if (labels.has(step.label)) problem(`'label' ${step.label} is used by an earlier step`);
      labels.add(step.label);
    }
    const save = (step.body as { save?: Record<string, string> }).save;
    if (save !== undefined) for (const name of Object.keys(save)) saved.add(name);
  });
  return problems;
}
