import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { activityJsonText, activityJsonTextAfter, sameText } from '../../src/commands/activity-json.js';
import { isValidSetActivityArgs } from '../../src/commands/activity-fast-check.js';
import { normalizeActivity } from '../../src/commands/set-activity.js';
import { encodeFrame, Opcode, successReply } from '../../src/index.js';
import { encodeReplyFrame } from '../../src/server/reply-frame.js';
import { isAscii } from '../../src/protocol/json-text.js';
import { setActivityArgs } from '../support/activity-arbitraries.js';

const context = { applicationId: '123456789012345678', applicationName: 'Game', transport: 'ipc' as const, now: () => 1_750_000_000_000 };

/** Normalised activities from every valid input the generator produces. */
const activities = setActivityArgs
  .filter((input) => isValidSetActivityArgs(input) && input.activity !== null && input.activity !== undefined)
  .map((input) => normalizeActivity((input as { activity: Parameters<typeof normalizeActivity>[0] }).activity, context));

const nonces = fc.oneof(fc.uuid(), fc.string(), fc.constantFrom('1795307500.86525917053222656250', 'é-ñ', '"quoted"'), fc.integer(), fc.double({ noNaN: true }));

describe('activity JSON text on the SET_ACTIVITY hot path', () => {
  it('is byte-identical to JSON.stringify of the normalised activity', () => {
    fc.assert(
      fc.property(activities, (activity) => {
        const json = activityJsonText(activity);
        expect(json.text).toBe(JSON.stringify(activity));
        expect(json.ascii).toBe(isAscii(json.text));
        expect(json.value).toBe(activity);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the same reply frame bytes as encoding the reply object', () => {
    fc.assert(
      fc.property(activities, nonces, (activity, nonce) => {
        const fast = encodeReplyFrame(successReply('SET_ACTIVITY', nonce, activityJsonText(activity)));
        const plain = encodeFrame(Opcode.Frame, successReply('SET_ACTIVITY', nonce, activity));
        expect(fast.equals(plain)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('escapes what JSON escapes: quotes, backslashes, controls, lone surrogates, non-ASCII', () => {
    const tricky = ['say "hi"', 'back\\slash', 'line\nbreak', 'tab\there', '\u0000nul', 'lone \ud800 surrogate', 'naïve café', '😀 emoji', '\u2028sep'];
    for (const state of tricky) {
      const activity = normalizeActivity({ state, details: state, buttons: [{ label: state.slice(0, 32), url: 'https://a.b' }] }, context);
      const json = activityJsonText(activity);
      expect(json.text).toBe(JSON.stringify(activity));
      expect(JSON.parse(json.text)).toEqual(JSON.parse(JSON.stringify(activity)));
    }
  });

  it('marks text with any non-ASCII character as not ASCII', () => {
    expect(activityJsonText(normalizeActivity({ state: 'plain text' }, context)).ascii).toBe(true);
    expect(activityJsonText(normalizeActivity({ state: 'naïve' }, context)).ascii).toBe(false);
    expect(activityJsonText(normalizeActivity({ state: 'ok', assets: { small_text: '😀😀' } }, context)).ascii).toBe(false);
  });

  it('serialises as its value anywhere a generic JSON.stringify meets it', () => {
    const activity = normalizeActivity({ state: 'inside' }, context);
    expect(JSON.stringify({ data: activityJsonText(activity) })).toBe(JSON.stringify({ data: activity }));
  });

  it('reuses the previous text exactly when the activity would be written the same', () => {
    fc.assert(
      fc.property(activities, activities, fc.boolean(), (a, other, clone) => {
        const b = clone ? (JSON.parse(JSON.stringify(a)) as typeof a) : other;
        const previous = activityJsonText(a);
        const same = previous.text === activityJsonText(b).text;
        expect(sameText(a, b)).toBe(same);
        const next = activityJsonTextAfter(previous, b);
        expect(next.text).toBe(JSON.stringify(b));
        expect(next === previous).toBe(same);
        expect(activityJsonTextAfter(null, b).text).toBe(JSON.stringify(b));
      }),
      { numRuns: 3000 },
    );
  });
});
