import { describe, expect, it } from 'vitest';
import { ONE_TIME_TOKEN_MS, WebAccess } from '../../../src/shells/web/web-access.js';

describe('WebAccess one-time tokens (companion ui)', () => {
  const access = (): WebAccess => new WebAccess(4321, WebAccess.token(undefined));

  it('opens once, within its time, and is never the lasting token', () => {
    const web = access();
    const token = web.issueOneTime(1_000);
    expect(token).not.toBe(web.token);
    expect(web.tokenMatches(token)).toBe(false);
    expect(web.redeemOneTime(token, 1_000 + ONE_TIME_TOKEN_MS - 1)).toBe(true);
    expect(web.redeemOneTime(token, 1_000 + 1)).toBe(false);
    const late = web.issueOneTime(1_000);
    expect(web.redeemOneTime(late, 1_000 + ONE_TIME_TOKEN_MS)).toBe(false);
    expect(web.redeemOneTime('never-issued-token-value', 1_000)).toBe(false);
  });

  it('keeps at most 16 waiting: the oldest goes first', () => {
    const web = access();
    const tokens = Array.from({ length: 17 }, () => web.issueOneTime(0));
    expect(web.redeemOneTime(tokens[0]!, 1)).toBe(false);
    for (const token of tokens.slice(1)) expect(web.redeemOneTime(token, 1)).toBe(true);
  });
});
