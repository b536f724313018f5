import * as v from 'valibot';
import type { PlatformLimitsInput } from './limits.js';

/**
 * The shape of a limits override given from outside the process (`companion platform serve
 * --limits`): any subset of PlatformLimits, `http` a subset one level deeper. Unknown keys are
 * refused, so a misspelt limit is an error instead of a silent default.
 */
const durationMs = v.pipe(v.number('must be a number of milliseconds'), v.finite(), v.minValue(0, 'must be 0 or more'));
const positiveMs = v.pipe(v.number('must be a number of milliseconds'), v.finite(), v.gtValue(0, 'must be more than 0'));
const count = v.pipe(v.number('must be a whole number'), v.safeInteger('must be a whole number'), v.minValue(0, 'must be 0 or more'));
const positiveCount = v.pipe(v.number('must be a whole number'), v.safeInteger('must be a whole number'), v.gtValue(0, 'must be more than 0'));

function unknownKey(issue: v.BaseIssue<unknown>): string {
  if (issue.expected === 'never') return 'is not a known limit';
  return issue.received === 'undefined' ? 'is required' : 'must be an object';
}

const windowLimit = v.strictObject({ count, windowMs: positiveMs }, unknownKey);

export const PlatformLimitsInputSchema = v.strictObject(
  {
    heartbeatIntervalMs: v.exactOptional(positiveMs),
    heartbeatTimeoutFactor: v.exactOptional(v.pipe(v.number('must be a number'), v.finite(), v.gtValue(0, 'must be more than 0'))),
    resumeWindowMs: v.exactOptional(durationMs),
    resumeBufferSize: v.exactOptional(count),
    sendLimit: v.exactOptional(windowLimit),
    maxPayloadBytes: v.exactOptional(positiveCount),
    gameActivityLimit: v.exactOptional(windowLimit),
    allMembersCooldownMs: v.exactOptional(durationMs),
    reconnectCloseAfterMs: v.exactOptional(durationMs),
    inviteTtlMs: v.exactOptional(durationMs),
    http: v.exactOptional(
      v.strictObject({ messageCreate: v.exactOptional(windowLimit), devLogin: v.exactOptional(windowLimit), appRegister: v.exactOptional(windowLimit), lobbyJoin: v.exactOptional(windowLimit), lobbyMessage: v.exactOptional(windowLimit), partnerSdk: v.exactOptional(windowLimit), relationshipChange: v.exactOptional(windowLimit), botRequests: v.exactOptional(windowLimit) }, unknownKey),
    ),
    serverLobbiesPerApp: v.exactOptional(count),
    autoRegisteredAppsMax: v.exactOptional(count),
    unusedAppTtlMs: v.exactOptional(durationMs),
    persistDebounceMs: v.exactOptional(durationMs),
    messagesPerChannel: v.exactOptional(positiveCount),
    maxHttpBodyBytes: v.exactOptional(positiveCount),
    oauthCodeTtlMs: v.exactOptional(durationMs),
    deviceCodeTtlMs: v.exactOptional(durationMs),
    deviceCodeIntervalMs: v.exactOptional(durationMs),
    oauthAccessTokenTtlMs: v.exactOptional(durationMs),
    provisionalTokenTtlMs: v.exactOptional(durationMs),
    oidcFetchTimeoutMs: v.exactOptional(durationMs),
    webhookTimeoutMs: v.exactOptional(positiveMs),
    webhookRetryFirstMs: v.exactOptional(durationMs),
    webhookRetryMaxMs: v.exactOptional(durationMs),
    voiceGraceMs: v.exactOptional(durationMs),
  },
  unknownKey,
);

/** Both ways: the schema accepts exactly the fields of PlatformLimitsInput, with their types. */
type Output = v.InferOutput<typeof PlatformLimitsInputSchema>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesType: Same<Required<Output>, Required<PlatformLimitsInput>> = true;
void schemaMatchesType;

/** A limits override that does not fit PlatformLimitsInput; the message names the field. */
export class LimitsInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LimitsInputError';
  }
}

/** Checks an override (parsed JSON); throws LimitsInputError naming the first bad field. */
export function parseLimitsInput(input: unknown): PlatformLimitsInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new LimitsInputError('limits must be a JSON object');
  const result = v.safeParse(PlatformLimitsInputSchema, input);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const field = v.getDotPath(issue) ?? 'limits';
  const got = issue.kind === 'schema' && issue.received !== 'undefined' && issue.expected !== 'never' ? `, got ${issue.received}` : '';
  throw new LimitsInputError(`${field} ${issue.message}${got}`);
}
