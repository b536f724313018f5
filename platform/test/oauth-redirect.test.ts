import { describe, expect, it } from 'vitest';
import { redirectMatches } from '../src/oauth/service.js';

describe('redirect matching', () => {
  it.each([
    ['http://127.0.0.1/callback', 'http://127.0.0.1/callback', true],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:49152/callback', true],
    ['http://127.0.0.1:8000/callback', 'http://127.0.0.1:49152/callback', true],
    ['http://localhost/callback', 'http://localhost:5000/callback', true],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:49152/other', false],
    ['http://127.0.0.1/callback', 'http://localhost:49152/callback', false],
    ['http://127.0.0.1/callback', 'https://127.0.0.1:49152/callback', false],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:49152/callback?x=1', false],
    ['https://game.example/callback', 'https://game.example:444/callback', false],
    ['discord-1234567890123456789:/authorize/callback', 'discord-1234567890123456789:/authorize/callback', true],
    ['discord-1234567890123456789:/authorize/callback', 'discord-9:/authorize/callback', false],
  ])('%s vs %s: %s', (registered, requested, expected) => {
    expect(redirectMatches(registered, requested)).toBe(expected);
  });
});
