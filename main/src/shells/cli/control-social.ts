import type { JoinReport } from '../../host/social/social-service.js';
import { describeJoin } from './join-report-text.js';
import type { ControlAction } from './control-action.js';

const join: ControlAction = async (control) => {
  const [user] = control.need(1, 'one USER');
  const userId = await control.friendId(user as string);
  const app = control.values.app as string | undefined;
  const result = (await control.call('POST', `/v1/friends/${userId}/join`, app === undefined ? {} : { application_id: app })) as JoinReport;
  const { text, exitCode } = describeJoin(result, user as string);
  control.print(result, () => text);
  return exitCode;
};

const invite: ControlAction = async (control) => {
  const [user] = control.need(1, 'one USER');
  const userId = await control.friendId(user as string);
  const body: Record<string, string> = { user_id: userId };
  if (typeof control.values.app === 'string') body['application_id'] = control.values.app;
  if (typeof control.values.message === 'string') body['content'] = control.values.message;
  const result = (await control.call('POST', '/v1/invites', body)) as { message_id: string };
  control.print(result, () => `Invited ${user} (message ${result.message_id})\n`);
  return 0;
};

function answerRequest(verb: 'accept' | 'decline', done: string): ControlAction {
  return async (control) => {
    const [id] = control.need(1, 'one request ID');
    const result = await control.call('POST', `/v1/join-requests/${encodeURIComponent(id as string)}/${verb}`, {});
    control.print(result, () => done);
    return 0;
  };
}

const acceptInvite: ControlAction = async (control) => {
  const [id] = control.need(1, 'one invite ID');
  const result = (await control.call('POST', `/v1/invites/${encodeURIComponent(id as string)}/accept`, {})) as JoinReport;
  const { text, exitCode } = describeJoin(result, 'the friend');
  control.print(result, () => (result.joined ? 'Accepted: the game got ACTIVITY_JOIN\n' : `Accepted. ${text}`));
  return exitCode;
};

const declineInvite: ControlAction = async (control) => {
  const [id] = control.need(1, 'one invite ID');
  const result = await control.call('POST', `/v1/invites/${encodeURIComponent(id as string)}/decline`, {});
  control.print(result, () => 'Declined: the invite is gone\n');
  return 0;
};

/** Joining, inviting, and answering join requests and invites. */
export const SOCIAL_ACTIONS: Readonly<Record<string, ControlAction>> = {
  join,
  invite,
  'accept-request': answerRequest('accept', 'Accepted: an invite went back to the player\n'),
  'decline-request': answerRequest('decline', 'Declined\n'),
  'accept-invite': acceptInvite,
  'decline-invite': declineInvite,
};
