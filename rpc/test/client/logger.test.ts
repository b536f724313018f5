import { describe, expect, it } from 'vitest';
import { createClientLogger, DEBUG_BUILD_WARNING, LOG_LEVELS, MAX_LOG_SECRETS, type LogLevel } from '../../client/logger.js';

const TOKEN = 'mfa.AbCdEf0123456789_token-value';

function capture(build: 'release' | 'debug', minLevel?: LogLevel) {
  const lines: string[] = [];
  const logger = createClientLogger({ build, sink: (line) => lines.push(line), ...(minLevel !== undefined ? { minLevel } : {}), now: () => new Date(0) });
  return { logger, lines };
}

function logAll(logger: ReturnType<typeof capture>['logger']): void {
  for (const level of LOG_LEVELS) logger.log(level, `${level} line`);
}

describe('createClientLogger', () => {
  it('release emits only error and warning, with no debug warning', () => {
    const { logger, lines } = capture('release');
    logAll(logger);
    expect(lines).toEqual(['1970-01-01T00:00:00.000Z [error] error line', '1970-01-01T00:00:00.000Z [warning] warning line']);
    expect(logger.enabled('info')).toBe(false);
    expect(logger.level).toBe('warning');
  });

  it('release cannot be opened up by minLevel', () => {
    const { logger, lines } = capture('release', 'verbose');
    logAll(logger);
    expect(lines.map((l) => l.split(' ')[1])).toEqual(['[error]', '[warning]']);
  });

  it('debug emits all four levels after a first line warning that this is a debug build', () => {
    const { logger, lines } = capture('debug');
    expect(lines).toHaveLength(1);
    logAll(logger);
    expect(lines[0]).toBe(`1970-01-01T00:00:00.000Z [warning] ${DEBUG_BUILD_WARNING}`);
    expect(lines[0]).toContain('debug build');
    expect(lines.slice(1).map((l) => l.split(' ')[1])).toEqual(['[error]', '[warning]', '[info]', '[verbose]']);
  });

  it('minLevel raises the threshold, but the debug warning still comes first', () => {
    const { logger, lines } = capture('debug', 'error');
    logAll(logger);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(DEBUG_BUILD_WARNING);
    expect(lines[1]).toContain('[error] error line');
  });

  it('redacts registered secrets, Bearer values and token-like fields at every level', () => {
    const { logger, lines } = capture('debug');
    logger.addSecret(TOKEN);
    logger.addSecret('');
    for (const level of LOG_LEVELS) {
      logger.log(level, `sending Authorization: Bearer ${TOKEN} and raw ${TOKEN}`, { header: `Bearer ${TOKEN}`, nested: { value: TOKEN } });
      logger.log(level, 'token fields', { access_token: 'unregistered-secret-1', refreshToken: 'unregistered-secret-2', code: 'abc', ok: 'visible' });
      logger.log(level, 'other bearer Bearer some.other.token here');
      logger.log(level, `url ${encodeURIComponent(`${TOKEN}/x`)} ${encodeURIComponent(TOKEN)}`);
    }
    const text = lines.join('\n');
    expect(lines).toHaveLength(1 + 4 * LOG_LEVELS.length);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('unregistered-secret');
    expect(text).not.toContain('some.other.token');
    expect(text).not.toContain('"abc"');
    expect(text).toContain('Bearer [redacted]');
    expect(text).toContain('"ok":"visible"');
    expect(text).toContain('other bearer Bearer [redacted] here');
    expect(text).toContain('{"header":"Bearer [redacted]","nested":{"value":"[redacted]"}}');
    for (const level of LOG_LEVELS) expect(lines.some((l) => l.includes(`[${level}] sending Authorization: Bearer [redacted] and raw [redacted]`))).toBe(true);
  });

  it('redacts in release builds too and exposes redact()', () => {
    const { logger, lines } = capture('release');
    logger.addSecret(TOKEN);
    logger.error(`failed with ${TOKEN}`);
    logger.warning('w', { err: new Error(`boom ${TOKEN}`) });
    logger.info(`hidden ${TOKEN}`);
    expect(lines).toEqual(['1970-01-01T00:00:00.000Z [error] failed with [redacted]', '1970-01-01T00:00:00.000Z [warning] w {"err":{"name":"Error","message":"boom [redacted]"}}']);
    expect(logger.redact(`x ${TOKEN} y`)).toBe('x [redacted] y');
  });

  it('never throws from a failing sink, and rejects an unknown build', () => {
    const logger = createClientLogger({ build: 'release', sink: () => { throw new Error('disk full'); } });
    expect(() => logger.error('x')).not.toThrow();
    expect(() => createClientLogger({ build: 'beta' as 'release' })).toThrow(RangeError);
  });

  it('redacts a code field only when it holds a string: numeric error codes stay readable', () => {
    const { logger, lines } = capture('release');
    logger.warning('request failed', { cmd: 'SET_ACTIVITY', code: 4000, closeCode: 4003, nested: { code: 5005, Code: 'oauth-code-1' } });
    logger.warning('authorize', { code: 'oauth-code-2', code_verifier: 42 });
    expect(lines[0]).toContain('{"cmd":"SET_ACTIVITY","code":4000,"closeCode":4003,"nested":{"code":5005,"Code":"[redacted]"}}');
    expect(lines[1]).toContain('{"code":"[redacted]","code_verifier":"[redacted]"}');
    expect(lines.join('\n')).not.toContain('oauth-code');
  });

  it('keeps the last MAX_LOG_SECRETS secrets; re-adding one makes it the newest', () => {
    const { logger, lines } = capture('release');
    expect(MAX_LOG_SECRETS).toBe(64);
    const secret = (i: number): string => `secret-value-${String(i).padStart(3, '0')}`;
    for (let i = 0; i < MAX_LOG_SECRETS; i += 1) logger.addSecret(secret(i));
    logger.addSecret(secret(0)); // the oldest, touched again
    logger.addSecret(secret(MAX_LOG_SECRETS)); // pushes out the oldest untouched one: 1
    logger.error(Array.from({ length: MAX_LOG_SECRETS + 1 }, (_, i) => secret(i)).join(' '));
    const words = (lines[0] ?? '').split(' ').slice(2);
    expect(words).toHaveLength(MAX_LOG_SECRETS + 1);
    expect(words.filter((w) => w !== '[redacted]')).toEqual([secret(1)]);
  });
});
