import { describe, expect, it } from 'vitest';
import { ClientGuesser, refineGuess, type ClientGuess } from '../../src/server/client-guess.js';

const UNKNOWN: ClientGuess = { library: 'unknown', reason: '' };
const UUID = '3b241101-e2bb-4255-8caf-4136c566a962';

describe('client library guess', () => {
  it('tells the libraries apart by the nonces they generate', () => {
    expect(refineGuess(UNKNOWN, { cmd: 'SUBSCRIBE', nonce: '1795307500.86525917053222656250' }).library).toBe('pypresence');
    expect(refineGuess(UNKNOWN, { cmd: 'SUBSCRIBE', nonce: '1' }).library).toBe('discord-rpc-c');
    expect(refineGuess(UNKNOWN, { cmd: 'SUBSCRIBE', nonce: UUID }).library).toBe('uuid-client');
    expect(refineGuess(UNKNOWN, { cmd: 'SUBSCRIBE', nonce: 'whatever' }).library).toBe('unknown');
    expect(refineGuess(UNKNOWN, { cmd: 'SUBSCRIBE', nonce: 17 }).library).toBe('unknown');
  });

  it('a UUID client is told apart by its first SET_ACTIVITY: xhayper adds type and created_at', () => {
    const xhayper = { cmd: 'SET_ACTIVITY', nonce: UUID, args: { pid: 1, activity: { type: 0, created_at: 1, state: 's' } } };
    const npm = { cmd: 'SET_ACTIVITY', nonce: UUID, args: { pid: 1, activity: { state: 's' } } };
    expect(refineGuess(UNKNOWN, xhayper).library).toBe('@xhayper/discord-rpc');
    expect(refineGuess(UNKNOWN, npm).library).toBe('discord-rpc');
    // A clear ({pid} only) says nothing new.
    expect(refineGuess({ library: 'uuid-client', reason: '' }, { cmd: 'SET_ACTIVITY', nonce: UUID, args: { pid: 1 } }).library).toBe('uuid-client');
  });

  it('per connection: the guess settles, and later commands do not undo it', () => {
    const guesser = new ClientGuesser();
    const a = {};
    const b = {};
    guesser.observe(a, { cmd: 'SUBSCRIBE', nonce: UUID });
    guesser.observe(a, { cmd: 'SET_ACTIVITY', nonce: UUID, args: { activity: { type: 0, created_at: 2 } } });
    guesser.observe(a, { cmd: 'SET_ACTIVITY', nonce: UUID, args: { activity: { state: 'x' } } });
    guesser.observe(b, { cmd: 'SUBSCRIBE', nonce: '2' });
    expect(guesser.guess(a).library).toBe('@xhayper/discord-rpc');
    expect(guesser.guess(b).library).toBe('discord-rpc-c');
    expect(guesser.guess({}).library).toBe('unknown');
  });
});
