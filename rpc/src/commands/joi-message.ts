import * as v from 'valibot';
import { RpcError, RpcErrorCode } from '../protocol/codes.js';

/**
 * Renders a validation issue in the Joi text the real client sends and clients parse, e.g.
 *   child "activity" fails because [child "state" fails because ["state" length must be at least 2 characters long]]
 *   child "activity" fails because [child "buttons" fails because ["buttons" at position 0 fails because [child "label" fails because ["label" is required]]]]
 * Schemas carry Joi's rule text as their message; this adds the labels and nesting.
 */
export function joiMessage(issue: v.BaseIssue<unknown>): string {
  const keys = (issue.path ?? []).map((item) => item.key as string | number);
  const rule = ruleText(issue);
  if (keys.length === 0) return `"value" ${rule}`;
  return renderKey(keys, 0, rule);
}

/** String rules: Joi rejects an empty string before any of them. */
const STRING_RULES = new Set(['min_length', 'max_length', 'check', 'regex']);

function ruleText(issue: v.BaseIssue<unknown>): string {
  if (issue.input === undefined) return 'is required';
  if (issue.input === '' && STRING_RULES.has(issue.type)) return 'is not allowed to be empty';
  return issue.message;
}

function renderKey(keys: readonly (string | number)[], i: number, rule: string): string {
  const key = String(keys[i]);
  const last = i === keys.length - 1;
  const next = keys[i + 1];
  let inner: string;
  if (last) inner = `"${key}" ${rule}`;
  else if (typeof next === 'number') inner = `"${key}" at position ${next} fails because [${renderItem(keys, i + 1, rule)}]`;
  else inner = renderKey(keys, i + 1, rule);
  return `child "${key}" fails because [${inner}]`;
}

function renderItem(keys: readonly (string | number)[], i: number, rule: string): string {
  if (i === keys.length - 1) return `"${String(keys[i])}" ${rule}`;
  return renderKey(keys, i + 1, rule);
}

/** Parses command args with a schema; a failure is ERROR 4000 with the Joi text clients parse. */
export function parseArgs<T extends v.GenericSchema>(schema: T, args: unknown): v.InferOutput<T> {
  const result = v.safeParse(schema, args, { abortEarly: true });
  if (!result.success) throw new RpcError(RpcErrorCode.InvalidPayload, joiMessage(result.issues[0]));
  return result.output;
}
