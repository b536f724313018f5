import { describe, expect, it } from 'vitest';
import type { GameView, PresenceView } from '../../preload/src/contract';
import { friendsSeeSentence, replacedBy } from '../src/lib/presence-reason';

const ACTIVITY = { name: 'Game', type: 0 } as unknown as NonNullable<GameView['activity']>;

function game(connection: string, clientId: string, name: string, activity: GameView['activity'] = ACTIVITY): GameView {
  return { connection_id: connection, client_id: clientId, application_name: name, pid: 1, transport: 'ipc', client_library: { library: 'unknown', reason: '' }, activity, connected_at: 0, link_requests: false };
}

function presence(shown: string | null, patch: Partial<PresenceView> = {}): PresenceView {
  const sent = { connection_id: 'c1', application_id: '1', update: 1, cause: 'command', cleared: false, at: 0, kind: 'sent' } as const;
  return {
    policy: 'most-recent',
    pinned_application_id: null,
    hide_all: false,
    rules: {},
    games: [
      { connection_id: 'c1', application_id: '1', application_name: 'Alpha', shown: shown === 'c1', outcome: sent, friends_see: null },
      { connection_id: 'c2', application_id: '2', application_name: 'Beta', shown: shown === 'c2', outcome: { ...sent, connection_id: 'c2', application_id: '2' }, friends_see: null },
    ],
    recent_outcomes: [],
    announced: [],
    ...patch,
  };
}

const ALPHA = game('c1', '1', 'Alpha');
const BETA = game('c2', '2', 'Beta');

describe('issue 26 §8: the Games card says which game friends see and why', () => {
  it('names the pinned game shown instead, and says the shown game is pinned', () => {
    const view = presence('c2', { pinned_application_id: '2' });
    expect(friendsSeeSentence(ALPHA, view, [ALPHA, BETA])).toBe('Friends see Beta instead: you pinned that game to show whenever it runs.');
    expect(friendsSeeSentence(BETA, view, [ALPHA, BETA])).toBe('Friends see this game rather than Alpha: you pinned it to show whenever it runs.');
  });

  it('says hide everything hides every game', () => {
    expect(friendsSeeSentence(ALPHA, presence(null, { hide_all: true }), [ALPHA, BETA])).toBe('Friends see no game: "Hide everything" is on in Settings.');
  });

  it('says a game without an activity has none, and the other is the only one', () => {
    const idle = game('c1', '1', 'Alpha', null);
    const view = presence('c2');
    expect(friendsSeeSentence(idle, view, [idle, BETA])).toBe('Friends see Beta instead: this game has no activity set.');
    expect(friendsSeeSentence(BETA, view, [idle, BETA])).toBe('Friends see this game: it is the only game with an activity they may see.');
  });

  it("a sent update another game's displaced is replaced by it; the shown game's is not", () => {
    const view = presence('c2');
    expect(replacedBy(view.games[0], view, [ALPHA, BETA])?.connection_id).toBe('c2');
    expect(replacedBy(view.games[1], view, [ALPHA, BETA])).toBeUndefined();
  });
});
