import { describe, expect, it } from 'vitest';
import { knownAppName } from '../src/lib/app-names';
import { playerErrorText } from '../src/lib/player-error';
import { snapshot } from './fake-bridge';

describe('issue 26 §7: error messages shown to players are plain words', () => {
  it('drops the argument path the bridge names (args.0:, bad arguments at 0:)', () => {
    expect(playerErrorText('args.0: a username is 2 to 32 letters, digits, _ or .')).toBe('a username has 2 to 32 characters: letters, digits, _ and . only');
    expect(playerErrorText('bad arguments at 0: must be 1 to 128 letters, digits or _.:-')).toBe('must be 1 to 128 letters, digits or _.:-');
  });

  it('drops a CLI command, in parentheses or in a clause of its own', () => {
    expect(playerErrorText("no user named 'mallory' on the platform (add one with 'companion platform users add NAME')")).toBe('there is no account named mallory');
    expect(playerErrorText("the emulator is down (start it with 'companion platform serve')")).toBe('the emulator is down');
    expect(playerErrorText("no running platform emulator found; start one with 'companion platform serve' or pass --data")).toBe('no running platform emulator found');
    expect(playerErrorText("cannot reach it, run 'companion doctor'")).toBe('cannot reach it');
  });

  it('keeps what is already plain, and names no channel', () => {
    expect(playerErrorText("No user named 'zed'")).toBe("No user named 'zed'");
    expect(playerErrorText('A block stands between you and alice')).toBe('A block stands between you and alice');
    expect(playerErrorText('The host did not answer companion:login in time')).toBe('Companion did not answer in time; try again');
    expect(playerErrorText('')).toBe('something went wrong');
  });
});

describe("issue 26 §7: an app's name wherever the host's data knows it", () => {
  it('from a connected game, the presence relay, an announced app, a grant, a game DM or an invite', () => {
    const base = snapshot({});
    expect(knownAppName(base, '999')).toBeNull();
    const announced = { ...base, presence: { policy: 'most-recent' as const, pinned_application_id: null, hide_all: false, rules: {}, games: [], recent_outcomes: [], announced: [{ application_id: '77', application_name: 'Chess', at: 1 }] } };
    expect(knownAppName(announced, '77')).toBe('Chess');
    const dm = { ...base, conversations: [{ user_id: '7', messages: [{ id: 'm', author_id: '7', content: 'hi', application_id: '78', application_name: 'Go', at: 1, edited_at: null }], unread: 0 }] };
    expect(knownAppName(dm, '78')).toBe('Go');
    const user = { id: '7', username: 'friend', discriminator: '0', global_name: null, avatar: null };
    const invite = { ...base, invites: [{ id: 'i', user, application_id: '79', activity: { name: 'Space' }, content: '', received_at: 1, expires_at: 2, valid: true }] };
    expect(knownAppName(invite, '79')).toBe('Space');
  });
});
