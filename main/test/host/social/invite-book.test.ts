import { describe, expect, it } from 'vitest';
import { InviteBook, type IncomingJoinRequest, type ReceivedInvite } from '../../../src/host/social/invite-book.js';
import type { PlatformUser } from '../../../../platform/src/wire/index.js';

const APP = '1234567890123456789';
const OTHER_APP = '9876543210987654321';
const START = 1_700_000_000_000;
const INVITE_TTL = 6 * 60 * 60 * 1000;
const REQUEST_TTL = 30_000;

function user(id: string): PlatformUser {
  return { id, username: `user-${id}`, discriminator: '0', global_name: null, avatar: null, bot: false, flags: 0, premium_type: 0 };
}

function request(id: string, userId: string, applicationId = APP, receivedAt = START): IncomingJoinRequest {
  return { id, user: user(userId), applicationId, channelId: 'channel-1', messageId: `message-${id}`, receivedAt };
}

function invite(id: string, receivedAt: number): ReceivedInvite {
  return {
    id,
    user: user('100'),
    applicationId: APP,
    partyId: 'party-1',
    activity: null,
    content: '',
    channelId: 'channel-1',
    messageId: `message-${id}`,
    receivedAt,
  };
}

function book(): { book: InviteBook; clock: { time: number } } {
  const clock = { time: START };
  return { book: new InviteBook(() => clock.time, INVITE_TTL, REQUEST_TTL), clock };
}

describe('InviteBook incoming join requests', () => {
  it('keeps one pending request per user and app: a repeat replaces the older one', () => {
    const { book: invites } = book();
    invites.addIncoming(request('r1', '100'));
    invites.addIncoming(request('r2', '100'));
    expect(invites.incomingRequests().map((r) => r.id)).toEqual(['r2']);
    expect(invites.incomingById('r1')).toBeUndefined();
    expect(invites.incomingById('r2')?.messageId).toBe('message-r2');
  });

  it('keeps requests of the same user for different apps, and of different users for one app', () => {
    const { book: invites } = book();
    invites.addIncoming(request('r1', '100', APP));
    invites.addIncoming(request('r2', '100', OTHER_APP));
    invites.addIncoming(request('r3', '200', APP));
    expect(invites.incomingRequests().map((r) => r.id)).toEqual(['r1', 'r2', 'r3']);
  });

  it('incomingFrom without an app id returns the newest request of that user', () => {
    const { book: invites } = book();
    invites.addIncoming(request('r1', '100', APP));
    invites.addIncoming(request('r2', '200', APP));
    invites.addIncoming(request('r3', '100', OTHER_APP));
    invites.addIncoming(request('r4', '200', OTHER_APP));
    expect(invites.incomingFrom('100')?.id).toBe('r3');
    expect(invites.incomingFrom('200')?.id).toBe('r4');
  });

  it('incomingFrom with an app id returns only that app\'s request', () => {
    const { book: invites } = book();
    invites.addIncoming(request('r1', '100', APP));
    invites.addIncoming(request('r2', '100', OTHER_APP));
    expect(invites.incomingFrom('100', APP)?.id).toBe('r1');
    expect(invites.incomingFrom('100', OTHER_APP)?.id).toBe('r2');
    expect(invites.incomingFrom('100', '5555')).toBeUndefined();
    expect(invites.incomingFrom('300')).toBeUndefined();
  });

  it('a replaced request moves to the end, so it counts as the newest', () => {
    const { book: invites } = book();
    invites.addIncoming(request('r1', '100', APP));
    invites.addIncoming(request('r2', '100', OTHER_APP));
    invites.addIncoming(request('r3', '100', APP));
    expect(invites.incomingFrom('100')?.id).toBe('r3');
  });

  it('removeIncoming forgets a request', () => {
    const { book: invites } = book();
    invites.addIncoming(request('r1', '100'));
    invites.removeIncoming('r1');
    expect(invites.incomingById('r1')).toBeUndefined();
    expect(invites.incomingRequests()).toEqual([]);
    expect(invites.incomingFrom('100')).toBeUndefined();
  });
});

describe('InviteBook received invites', () => {
  it('lists invites as valid, with when they expire, and finds them by id', () => {
    const { book: invites } = book();
    invites.addInvite(invite('i1', START));
    expect(invites.invites()).toEqual([{ ...invite('i1', START), valid: true, expiresAt: START + INVITE_TTL }]);
    expect(invites.invite('i1')?.partyId).toBe('party-1');
  });

  it('keeps an invite up to the TTL and drops it once it is older', () => {
    const { book: invites, clock } = book();
    invites.addInvite(invite('old', START));
    invites.addInvite(invite('new', START + 1000));

    clock.time = START + INVITE_TTL;
    expect(invites.invite('old')).toBeDefined();

    clock.time = START + INVITE_TTL + 1;
    expect(invites.invite('old')).toBeUndefined();
    expect(invites.invites().map((i) => i.id)).toEqual(['new']);

    clock.time = START + 1000 + INVITE_TTL + 1;
    expect(invites.invites()).toEqual([]);
    expect(invites.invite('new')).toBeUndefined();
  });

  it('removeInvite forgets an invite', () => {
    const { book: invites } = book();
    invites.addInvite(invite('i1', START));
    invites.removeInvite('i1');
    expect(invites.invite('i1')).toBeUndefined();
    expect(invites.invites()).toEqual([]);
  });
});

describe('InviteBook outgoing requests', () => {
  it('takeOutgoing is true once for a noted request, then false', () => {
    const { book: invites } = book();
    invites.noteOutgoing('100', APP, 'm1');
    expect(invites.takeOutgoing('100', OTHER_APP)).toBe(false);
    expect(invites.takeOutgoing('200', APP)).toBe(false);
    expect(invites.takeOutgoing('100', APP)).toBe(true);
    expect(invites.takeOutgoing('100', APP)).toBe(false);
  });

  it('takeOutgoing is true at the request TTL and false after it', () => {
    const { book: invites, clock } = book();
    invites.noteOutgoing('100', APP, 'm1');
    invites.noteOutgoing('200', APP, 'm2');
    clock.time = START + REQUEST_TTL;
    expect(invites.takeOutgoing('100', APP)).toBe(true);
    clock.time = START + REQUEST_TTL + 1;
    expect(invites.takeOutgoing('200', APP)).toBe(false);
  });

  it('an expired request is forgotten by takeOutgoing even though it answered false', () => {
    const { book: invites, clock } = book();
    invites.noteOutgoing('100', APP, 'm1');
    clock.time = START + REQUEST_TTL + 1;
    expect(invites.takeOutgoing('100', APP)).toBe(false);
    expect(invites.forgetOutgoing('m1')).toBe(false);
  });

  it('a repeat request restarts the TTL', () => {
    const { book: invites, clock } = book();
    invites.noteOutgoing('100', APP, 'm1');
    clock.time = START + REQUEST_TTL;
    invites.noteOutgoing('100', APP, 'm2');
    clock.time = START + 2 * REQUEST_TTL;
    expect(invites.takeOutgoing('100', APP)).toBe(true);
  });

  it('forgetOutgoing removes the request sent as that message only', () => {
    const { book: invites } = book();
    invites.noteOutgoing('100', APP, 'm1');
    invites.noteOutgoing('200', APP, 'm2');
    expect(invites.forgetOutgoing('m1')).toBe(true);
    expect(invites.forgetOutgoing('m1')).toBe(false);
    expect(invites.forgetOutgoing('unknown')).toBe(false);
    expect(invites.takeOutgoing('100', APP)).toBe(false);
    expect(invites.takeOutgoing('200', APP)).toBe(true);
  });

  it('issue 26 §6: takeOutgoingMessage says whom the declined request asked (so its outcome replaces its "waiting" banner)', () => {
    const { book: invites } = book();
    invites.noteOutgoing('100', APP, 'm1');
    invites.noteOutgoing('200', APP, 'm2');
    expect(invites.takeOutgoingMessage('m2')).toBe('200');
    expect(invites.takeOutgoingMessage('m2')).toBeNull();
    expect(invites.takeOutgoing('100', APP)).toBe(true);
  });
});

describe('InviteBook.clear', () => {
  it('forgets requests, invites and outgoing requests', () => {
    const { book: invites } = book();
    invites.addIncoming(request('r1', '100'));
    invites.addInvite(invite('i1', START));
    invites.noteOutgoing('100', APP, 'm1');
    invites.clear();
    expect(invites.incomingRequests()).toEqual([]);
    expect(invites.incomingFrom('100')).toBeUndefined();
    expect(invites.invites()).toEqual([]);
    expect(invites.invite('i1')).toBeUndefined();
    expect(invites.takeOutgoing('100', APP)).toBe(false);
    expect(invites.forgetOutgoing('m1')).toBe(false);
  });
});
