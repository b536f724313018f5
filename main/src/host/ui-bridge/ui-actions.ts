import { ControlError } from '../control/control-backend.js';
import type { InspectorCatchUp, InvokeChannel, InvokeChannels, Snapshot } from '../../../../preload/src/contract.js';
import type { WebUiSettings } from './host-settings.js';
import { deviceCodePreviewView, settingsView, statusView } from './views.js';
import type { WebUiBackend } from './web-ui-backend.js';

/**
 * What a handler may use: the host's backend, the runtime settings, the snapshot (for
 * `companion:ready`) and the inspector's lease (for `companion:watch-inspector`).
 */
export interface ActionContext {
  readonly backend: WebUiBackend;
  readonly settings: WebUiSettings;
  readonly snapshot: () => Promise<Snapshot>;
  readonly watchInspector: (since: number) => Promise<InspectorCatchUp>;
}

type Handler<C extends InvokeChannel> = (context: ActionContext, ...args: InvokeChannels[C]['args']) => Promise<InvokeChannels[C]['result']>;

/**
 * The contract's calls mapped onto the host, one handler per channel (arguments already
 * checked against the contract's schemas). The compiler refuses a channel without one.
 */
export const UI_ACTIONS: { readonly [C in InvokeChannel]: Handler<C> } = {
  'companion:ready': (context) => context.snapshot(),
  'companion:decide-consent': async ({ backend }, id, decision) => {
    if (decision === 'approve') await backend.approveConsent(id);
    else if (decision === 'deny') await backend.denyConsent(id);
    else await backend.dismissConsent(id);
    return null;
  },
  'companion:accept-join-request': async ({ backend }, id) => nothing(await backend.acceptJoinRequest(id)),
  'companion:decline-join-request': async ({ backend }, id) => nothing(await backend.declineJoinRequest(id)),
  'companion:accept-invite': async ({ backend }, id) => {
    const result = await backend.acceptInvite(id);
    return { secret_delivered: result.secret_delivered };
  },
  'companion:decline-invite': async ({ backend }, id) => nothing(await backend.declineInvite(id)),
  'companion:request-to-join': async ({ backend }, userId, applicationId) => {
    const result = await backend.requestToJoin({ user_id: userId, ...(applicationId === null ? {} : { application_id: applicationId }) });
    return { joined: result.joined };
  },
  'companion:send-invite': async ({ backend }, userId, applicationId) => {
    const result = await backend.sendInvite({ user_id: userId, ...(applicationId === null ? {} : { application_id: applicationId }) });
    return { message_id: result.message_id };
  },
  'companion:send-dm': async ({ backend }, userId, content) => backend.sendDm(userId, content),
  'companion:read-conversation': async ({ backend }, userId, showing) => nothing(backend.readConversation(userId, showing)),
  'companion:change-relationship': async ({ backend }, userId, action) => nothing(await backend.changeRelationship(userId, action)),
  'companion:send-friend-request': async ({ backend }, username) => {
    const result = await backend.sendFriendRequest(username);
    return { accepted: result.accepted };
  },
  'companion:revoke-grant': async ({ backend }, applicationId) => nothing(await backend.revokeGrant(applicationId)),
  'companion:send-authorize-request': async ({ backend }, applicationId) => {
    const result = await backend.sendAuthorizeRequest(applicationId);
    return { delivered: result.delivered };
  },
  'companion:login': async ({ backend }, username) => {
    await backend.login({ username });
    return statusView(backend.status());
  },
  'companion:logout': async ({ backend }) => {
    await backend.logout();
    return statusView(backend.status());
  },
  'companion:decide-origin': async ({ backend }, id, decision) => nothing(await backend.decideOrigin(id, decision)),
  'companion:forget-origin': async ({ backend }, id) => nothing(await backend.forgetOrigin(id)),
  'companion:doctor': ({ backend }) => backend.doctor(),
  'companion:update-presence': ({ backend }, patch) => backend.updatePresence(patch),
  'companion:set-recording': ({ backend }, on) => backend.setRecording(on),
  'companion:set-voice': async ({ backend }, patch) => {
    if (backend.setVoice === undefined) throw new ControlError(409, 'This host has no voice settings', 'no_voice');
    return backend.setVoice(patch);
  },
  'companion:watch-inspector': ({ watchInspector }, since) => watchInspector(since),
  'companion:update-settings': async ({ settings }, patch) => settingsView(await settings.update(patch)),
  'companion:preview-device-code': async ({ backend }, userCode) => deviceCodePreviewView(await backend.previewDeviceCode(userCode)),
  'companion:decide-device-code': async ({ backend }, userCode, authorize) => {
    const result = await backend.decideDeviceCode(userCode, authorize);
    return { approved: result.approved };
  },
  'companion:close-device-screen': async ({ backend }, screenId) => nothing(backend.closeDeviceScreen(screenId)),
  'companion:update-detection': ({ backend }, patch) => backend.updateDetection?.(patch) ?? noDetection(),
  'companion:running-programs': ({ backend }) => backend.runningPrograms?.() ?? noDetection(),
  'companion:add-game': ({ backend }, executable, name) => backend.addGame?.(executable, name) ?? noDetection(),
  'companion:remove-game': ({ backend }, id) => backend.removeGame?.(id) ?? noDetection(),
};

/** A host without game detection (a test's, or one that runs none). */
function noDetection(): never {
  throw new ControlError(404, 'this host does not detect games');
}

/** Calls that only read: no topic push follows them. */

export const READ_ONLY_ACTIONS: ReadonlySet<InvokeChannel> = new Set<InvokeChannel>(['companion:ready', 'companion:doctor', 'companion:running-programs', 'companion:watch-inspector', 'companion:preview-device-code', 'companion:close-device-screen']);

function nothing(_done: void): null {
  return null;
}
