/**
 * Scenario output never shows secrets: access and refresh tokens, OAuth2 codes and verifiers,
 * join / spectate / match secrets. Values under such keys are replaced wherever a value is
 * printed (step lines, JSON output, JUnit), also when an expectation names them.
 */
const SECRET_KEY = /token|secret|verifier|password|^code$/i;
export const REDACTED = '[redacted]';

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** A copy of `value` with every secret-named string (or object of secrets) replaced. */
export function redact(value: unknown, key?: string): unknown {
  if (key !== undefined && isSecretKey(key) && value !== null && (typeof value === 'string' || typeof value === 'object')) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redact(item));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, redact(item, name)]));
  }
  return value;
}

/** A value for a message: strings in quotes, the rest as JSON, cut at `max` characters. */
export function formatValue(value: unknown, key?: string, max = 160): string {
  const shown = redact(value, key);
  if (shown === undefined) return 'nothing';
  const text = typeof shown === 'string' ? (shown === REDACTED ? shown : `'${shown}'`) : JSON.stringify(shown);
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** Removes secrets from free text (an error message that quotes a value, say) by the values themselves. */
export function scrubText(text: string, secrets: Iterable<string>): string {
  let scrubbed = text;
  for (const secret of secrets) if (secret.length >= 4) scrubbed = scrubbed.split(secret).join(REDACTED);
  return scrubbed;
}
