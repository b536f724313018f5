import { UsageError } from './cli-args.js';
import type { PresenceSettingsPatch, AppRuleInput } from '../../host/presence/presence-service.js';
import { ARBITRATION_POLICIES, REDACTABLE_FIELDS, type ArbitrationPolicyName, type PresenceSettings, type RedactableField } from '../../host/presence/presence-privacy.js';
import type { RelayOutcome } from '../../host/presence/relay-outcomes.js';

/** The actions' lines in `companion control --help`. */
export const PRESENCE_HELP = `  presence                    What friends see of your games: policy, rules,
                              each game's last relay outcome, recent outcomes
  presence set [--policy most-recent|first-connected] [--pin APP | --unpin]
               [--hide-all on|off] [--rule APP=share|hide|redact[:FIELDS]]...
                              Change them; FIELDS: comma-separated of
                              ${REDACTABLE_FIELDS.join(', ')}
`;

/** The options `companion control` must accept for these actions (util.parseArgs form). */
export const PRESENCE_OPTIONS = {
  policy: { type: 'string' },
  pin: { type: 'string' },
  unpin: { type: 'boolean' },
  'hide-all': { type: 'string' },
  rule: { type: 'string', multiple: true },
} as const;

type Call = (method: string, route: string, body?: unknown) => Promise<unknown>;
type Values = Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;

interface GameLike {
  readonly connection_id: string;
  readonly application_id: string;
  readonly application_name: string;
  readonly shown: boolean;
  readonly outcome: RelayOutcome | null;
}
type PresenceViewLike = PresenceSettings & { readonly games: readonly GameLike[]; readonly recent_outcomes: readonly RelayOutcome[] };

const APP_ID = /^[0-9]{1,20}$/;

/** `APP=share|hide|redact[:f1,f2]` as a rule patch entry. */
export function parseRuleOption(text: string): [string, AppRuleInput] {
  const match = /^([^=]+)=(share|hide|redact)(?::(.*))?$/.exec(text);
  if (match === null) throw new UsageError(`--rule ${text}: expected APP=share, APP=hide or APP=redact[:FIELDS]`);
  const [, app, mode, list] = match as unknown as [string, string, 'share' | 'hide' | 'redact', string | undefined];
  if (!APP_ID.test(app)) throw new UsageError(`--rule ${text}: ${app} is not an application id`);
  if (mode !== 'redact') {
    if (list !== undefined) throw new UsageError(`--rule ${text}: only redact takes fields`);
    return [app, { mode }];
  }
  if (list === undefined) return [app, { mode }];
  const fields = list.split(',').map((field) => field.trim());
  for (const field of fields) {
    if (!(REDACTABLE_FIELDS as readonly string[]).includes(field)) throw new UsageError(`--rule ${text}: unknown field '${field}' (fields: ${REDACTABLE_FIELDS.join(', ')})`);
  }
  return [app, { mode, fields: fields as RedactableField[] }];
}

/** The PATCH body for `presence set`'s options. */
export function presencePatchFromOptions(values: Values): PresenceSettingsPatch {
  const patch: { -readonly [K in keyof PresenceSettingsPatch]: PresenceSettingsPatch[K] } = {};
  const policy = values['policy'];
  if (typeof policy === 'string') {
    if (!(ARBITRATION_POLICIES as readonly string[]).includes(policy)) throw new UsageError(`--policy: one of ${ARBITRATION_POLICIES.join(', ')}`);
    patch.policy = policy as ArbitrationPolicyName;
  }
  const pin = values['pin'];
  if (typeof pin === 'string' && values['unpin'] === true) throw new UsageError('give --pin APP or --unpin, not both');
  if (typeof pin === 'string') {
    if (!APP_ID.test(pin)) throw new UsageError(`--pin: ${pin} is not an application id`);
    patch.pinned_application_id = pin;
  }
  if (values['unpin'] === true) patch.pinned_application_id = null;
  const hideAll = values['hide-all'];
  if (typeof hideAll === 'string') {
    if (hideAll !== 'on' && hideAll !== 'off') throw new UsageError('--hide-all: on or off');
    patch.hide_all = hideAll === 'on';
  }
  const rules = values['rule'];
  if (Array.isArray(rules) && rules.length > 0) {
    patch.rules = Object.fromEntries(rules.map((rule) => parseRuleOption(String(rule))));
  }
  if (Object.keys(patch).length === 0) throw new UsageError("presence set needs at least one of --policy, --pin, --unpin, --hide-all, --rule (see 'companion control --help')");
  return patch;
}

export function describeOutcome(outcome: RelayOutcome | null): string {
  if (outcome === null) return '-';
  switch (outcome.kind) {
    case 'coalesced':
      return `coalesced (${outcome.count} updates in one send)`;
    case 'held':
      return `held until ${new Date(outcome.until).toISOString().slice(11, 23)} (${outcome.count} waiting)`;
    case 'shadowed':
      return `shadowed by ${outcome.by_application_id}`;
    case 'hidden':
      return outcome.rule === 'hide-all' ? 'hidden (hide everything)' : 'hidden (app rule)';
    case 'rejected':
      return `rejected: ${outcome.reason}${outcome.retry_after_ms === null ? '' : `, retry after ${outcome.retry_after_ms} ms`}`;
    default:
      return outcome.kind;
  }
}

function describeSettings(settings: PresenceSettings): string[] {
  const rules = Object.entries(settings.rules).map(([app, rule]) => (rule.mode === 'redact' ? `${app} redact ${rule.fields.join(',')}` : `${app} ${rule.mode}`));
  return [
    `policy:   ${settings.policy}${settings.pinned_application_id === null ? '' : `, pinned ${settings.pinned_application_id}`}`,
    `hide all: ${settings.hide_all ? 'on (friends see no game)' : 'off'}`,
    `rules:    ${rules.length === 0 ? 'none (every app shares)' : rules.join('; ')}`,
  ];
}

function describeView(view: PresenceViewLike): string {
  const lines = describeSettings(view);
  lines.push('games:');
  if (view.games.length === 0) lines.push('  none connected');
  for (const game of view.games) {
    lines.push(`  ${game.connection_id}  ${game.application_name} (${game.application_id})  ${game.shown ? 'shown' : 'not shown'}  ${describeOutcome(game.outcome)}`);
  }
  const recent = view.recent_outcomes.slice(-10);
  if (recent.length > 0) lines.push('recent:');
  for (const outcome of recent) {
    const what = outcome.cause === 'disconnect' ? 'close' : outcome.cleared ? 'clear' : 'set';
    lines.push(`  ${new Date(outcome.at).toISOString().slice(11, 23)}  ${outcome.connection_id} #${outcome.update} ${what}: ${describeOutcome(outcome)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `companion control presence [set ...]`. */
export async function presenceAction(
  call: Call,
  args: readonly string[],
  values: Values,
  print: (value: unknown, text: () => string) => void,
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined) {
    const view = (await call('GET', '/v1/presence')) as PresenceViewLike;
    print(view, () => describeView(view));
    return 0;
  }
  if (sub !== 'set' || rest.length > 0) throw new UsageError("control presence takes nothing, or 'set' with options (see 'companion control --help')");
  const settings = (await call('PATCH', '/v1/presence/settings', presencePatchFromOptions(values))) as PresenceSettings;
  print(settings, () => `${describeSettings(settings).join('\n')}\n`);
  return 0;
}
