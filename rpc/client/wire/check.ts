import * as v from 'valibot';

/**
 * Checking what the platform sent against a schema: the value as the schema gives it, or what
 * was wrong with it in words that name the schema's fields and expectations only. The values
 * themselves (and keys that are no field name, such as metadata's) never reach the words (they may hold message contents, metadata or tokens), so the problem
 * can go into a log line or a status callback as it is.
 */

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

/** The most issues named in one problem. */
const ISSUES_NAMED = 3;

export function check<S extends v.GenericSchema>(schema: S, value: unknown): Checked<v.InferOutput<S>> {
  const result = v.safeParse(schema, value);
  if (result.success) return { ok: true, value: result.output };
  return { ok: false, problem: describeIssues(result.issues) };
}

/** `d.members[0].id: expected string; ...`: where and what was expected, never what was received. */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  const named = issues.slice(0, ISSUES_NAMED).map(describeIssue);
  const more = issues.length - named.length;
  return `${named.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`;
}

/** A field's name as the schemas name fields (snake_case); any other key (a metadata record's: the platform's data) is `*`. */
function fieldName(key: unknown): string {
  return typeof key === 'string' && /^[a-z][a-z0-9_]{0,63}$/.test(key) ? key : '*';
}

function describeIssue(issue: v.BaseIssue<unknown>): string {
  const path = (issue.path ?? []).map((item) => (typeof item.key === 'number' ? `[${item.key}]` : `.${fieldName(item.key)}`)).join('');
  const where = path === '' ? 'the value' : path.slice(path.startsWith('.') ? 1 : 0);
  if (issue.input === undefined && issue.kind === 'schema') return `${where}: missing`;
  // A custom check carries its own message (written here, without the value); the others name what they expected.
  if (issue.type === 'check') return `${where}: ${issue.message}`;
  const rule = issue.kind === 'validation' ? `${issue.type.replace(/_/g, ' ')} ` : '';
  const expected = issue.expected !== null ? `expected ${rule}${issue.expected}` : `not a valid ${issue.type}`;
  return `${where}: ${expected}`;
}
