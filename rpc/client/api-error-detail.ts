import * as v from 'valibot';

/**
 * What a 400 50035 (Invalid Form Body) says beyond its message: the platform's `errors` object
 * mirrors the request's fields, each problem under `_errors` as `{code, message}`
 * (`{"errors": {"activity": {"_errors": [{"code": "...", "message": "... not joinable"}]}}}`).
 * Without it a game reads only "Invalid Form Body" and cannot tell which argument, or which
 * state, was refused. The detail names the field's path (snake_case names and indexes; any other
 * key, such as a metadata key the player typed, is `*`) and the platform's words, never a value
 * the game sent.
 */

/** The most problems named in one detail. */
const PROBLEMS_NAMED = 3;
/** The most characters of one platform message. */
const MESSAGE_CHARS = 200;

const ProblemSchema = v.object({ code: v.exactOptional(v.string()), message: v.string() });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function keyName(key: string): string {
  if (/^\d{1,6}$/.test(key)) return `[${key}]`;
  return /^[a-z][a-z0-9_]{0,63}$/.test(key) ? key : '*';
}

function joinPath(path: readonly string[]): string {
  return path.map(keyName).reduce((joined, part) => (joined === '' || part.startsWith('[') ? `${joined}${part}` : `${joined}.${part}`), '');
}

/** Each `_errors` problem in the tree, depth first, as `path: message`. */
function collect(node: unknown, path: readonly string[], found: string[]): void {
  if (!isRecord(node) || found.length >= PROBLEMS_NAMED) return;
  const problems = node['_errors'];
  if (Array.isArray(problems)) {
    for (const problem of problems) {
      const checked = v.safeParse(ProblemSchema, problem);
      if (!checked.success || found.length >= PROBLEMS_NAMED) continue;
      const where = joinPath(path);
      const words = checked.output.message.slice(0, MESSAGE_CHARS);
      found.push(where === '' ? words : `${where}: ${words}`);
    }
  }
  for (const [key, child] of Object.entries(node)) if (key !== '_errors') collect(child, [...path, key], found);
}

/** `activity: The user's activity for this application is not joinable` (joined with '; '), or '' when `errors` names nothing. */
export function describeFormErrors(errors: unknown): string {
  const found: string[] = [];
  collect(errors, [], found);
  return found.join('; ');
}
