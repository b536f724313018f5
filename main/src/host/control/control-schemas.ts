import * as v from 'valibot';
import { opaqueId, snowflake, text } from '../../../../preload/src/contract/schemas.js';
import type { LoginInput, RequestToJoinInput, SendInviteInput } from './control-backend.js';

/** A request the API refuses before it reaches the backend; `field` names what is wrong. */
export class InvalidRequest extends Error {
  override readonly name = 'InvalidRequest';

  constructor(readonly field: string, problem: string) {
    super(`${field}: ${problem}`);
  }
}

// The primitives (ids, text) are the contract's: the UI's calls and the API's routes check alike.

const SendInviteSchema = v.object({
  user_id: snowflake,
  application_id: v.optional(snowflake),
  content: v.optional(v.pipe(v.string('must be a string'), v.maxLength(2000, 'must be at most 2000 characters'))),
});

const JoinSchema = v.object({ application_id: v.optional(snowflake) });

const LoginSchema = v.object({
  username: v.optional(text(32)),
  token: v.optional(text(512)),
});

const EmptySchema = v.object({});

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validates and names the first wrong field (valibot reports missing keys as a type error). */
export function check<S extends v.GenericSchema>(schema: S, input: unknown, root: string): v.InferOutput<S> {
  if (root === 'body' && !isPlainObject(input)) throw new InvalidRequest('body', 'must be a JSON object');
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = v.getDotPath(issue);
  const field = path === null ? root : path;
  const problem = path !== null && issue.input === undefined ? 'is required' : issue.message;
  throw new InvalidRequest(field, problem);
}

export function parseSendInvite(body: unknown): SendInviteInput {
  const parsed = check(SendInviteSchema, body, 'body');
  // Built key by key: the backend's optional fields are absent, never undefined.
  const input: { user_id: string; application_id?: string; content?: string } = { user_id: parsed.user_id };
  if (parsed.application_id !== undefined) input.application_id = parsed.application_id;
  if (parsed.content !== undefined) input.content = parsed.content;
  return input;
}

export function parseRequestToJoin(userId: string, body: unknown): RequestToJoinInput {
  const user_id = check(snowflake, userId, 'user_id');
  const parsed = check(JoinSchema, body, 'body');
  return parsed.application_id === undefined ? { user_id } : { user_id, application_id: parsed.application_id };
}

export function parseLogin(body: unknown): LoginInput {
  const parsed = check(LoginSchema, body, 'body');
  if (parsed.username !== undefined && parsed.token !== undefined) {
    throw new InvalidRequest('body', 'give either username or token, not both');
  }
  if (parsed.username !== undefined) return { username: parsed.username };
  if (parsed.token !== undefined) return { token: parsed.token };
  throw new InvalidRequest('username', 'is required (or token)');
}

/** Routes without input accept no body, an empty one, or `{}`. */
export function parseEmpty(body: unknown): void {
  check(EmptySchema, body, 'body');
}

export function parseId(id: string, field: string): string {
  return check(opaqueId, id, field);
}

/** A path segment that must be a snowflake (an application id), named `field` in errors. */
export function parseSnowflake(id: string, field: string): string {
  return check(snowflake, id, field);
}
