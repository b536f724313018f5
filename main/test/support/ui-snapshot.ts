import type { Snapshot, StatusView, UserView } from '../../../preload/src/contract.js';

/** A user as the UI contract carries one. */
export const uiUser = (id: string, name: string): UserView => ({ id, username: name, discriminator: '0', global_name: null, avatar: null });

/** A signed-in host's status, `user` its account. */
export function uiStatus(user: UserView = uiUser('1', 'nelly')): StatusView {
  return {
    version: '0.1.0',
    account: { user },
    gateway: { status: 'ready', detail: null },
    ipc: { path: '/run/discord-ipc-0' },
    websocket: null,
    platform: { url: 'http://127.0.0.1:1', embedded: true },
  };
}

/** An empty snapshot of a signed-in host (uiStatus), with `patch` over it. */
export function uiSnapshot(patch: Partial<Snapshot> = {}): Snapshot {
  return {
    status: uiStatus(),
    games: [],
    friends: [],
    relationships: [],
    join_requests: [],
    invites: [],
    conversations: [],
    consent_requests: [],
    grants: [],
    origin_requests: [],
    origins: [],
    presence: null,
    recording: null,
    settings: { consent_policy: 'prompt', consent_always_ask: true, log_level: 'info', start_at_login: null },
    voice: null,
    frames: [],
    ...patch,
  };
}
