import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { isValidSetActivityArgs } from '../../src/commands/activity-fast-check.js';
import { SetActivityArgsSchema } from '../../src/commands/activity-schema.js';
import { normalizeActivity } from '../../src/commands/set-activity.js';
import { setActivityArgs as args } from '../support/activity-arbitraries.js';

const schemaAccepts = (input: unknown): boolean => v.safeParse(SetActivityArgsSchema, input).success;

describe('SET_ACTIVITY fast check against the valibot schema', () => {
  it('accepts exactly what the schema accepts', () => {
    fc.assert(
      fc.property(args, (input) => {
        expect(isValidSetActivityArgs(input)).toBe(schemaAccepts(input));
      }),
      { numRuns: 20000 },
    );
  });

  it('finds a good share of valid inputs in that run (the property is not vacuous)', () => {
    const samples = fc.sample(args, 3000);
    const valid = samples.filter((input) => schemaAccepts(input)).length;
    expect(valid).toBeGreaterThan(900);
    expect(valid).toBeLessThan(2900);
  });

  it('normalises the raw input exactly as it normalises the schema output', () => {
    const context = { applicationId: '123456789012345678', applicationName: 'Game', transport: 'ipc' as const, now: () => 1_750_000_000_000 };
    fc.assert(
      fc.property(args, (input) => {
        if (!isValidSetActivityArgs(input) || input.activity === null || input.activity === undefined) return;
        const output = v.parse(SetActivityArgsSchema, input).activity;
        if (output === null || output === undefined) throw new Error('the schema dropped a valid activity');
        expect(normalizeActivity(input.activity, context)).toStrictEqual(normalizeActivity(output, context));
      }),
      { numRuns: 3000 },
    );
  });

  it('is fooled by none of the shapes that look like objects', () => {
    for (const notObject of [[], [{ state: 'ok' }], null, 'activity']) {
      expect(isValidSetActivityArgs({ pid: 1, activity: { assets: notObject } })).toBe(false);
    }
    expect(isValidSetActivityArgs({ pid: 1, activity: { party: { size: [Number.NaN, 2] } } })).toBe(false);
  });
});
