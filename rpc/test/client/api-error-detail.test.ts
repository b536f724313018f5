/**
 * Issue 28 trial: a 50035's `errors` as a line a game can read: the field's path and the
 * platform's words, never a key or value the game sent.
 */
import { describe, expect, it } from 'vitest';
import { describeFormErrors } from '../../client/api-error-detail.js';

describe("issue 28 trial: a 50035's errors named", () => {
  it('names each problem by its path, indexes in brackets, up to three, skipping what is not a problem', () => {
    const errors = {
      activity: { _errors: [{ code: 'INVALID', message: 'not joinable' }] },
      members: { 0: { id: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] } } },
      content: { _errors: [{ message: 'too long' }, { message: 'fourth, left out' }] },
      junk: { _errors: [42, { code: 'X' }] },
    };
    expect(describeFormErrors(errors)).toBe('activity: not joinable; members[0].id: This field is required; content: too long');
  });

  it("shows a key that is not a field name (a metadata key the player typed) as '*', and cuts long words", () => {
    const errors = { metadata: { 'Secret Plan!': { _errors: [{ message: 'x'.repeat(500) }] } } };
    expect(describeFormErrors(errors)).toBe(`metadata.*: ${'x'.repeat(200)}`);
  });

  it('answers nothing for errors that name nothing', () => {
    for (const errors of [undefined, null, 'bad', [], {}, { a: { b: {} } }]) expect(describeFormErrors(errors)).toBe('');
    expect(describeFormErrors({ _errors: [{ message: 'at the top' }] })).toBe('at the top');
  });
});
