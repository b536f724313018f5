import type {
  ConsentPromptView,
  ControlBackend,
  ControlEvent,
  ControlStatus,
  FriendView,
  GameView,
  GrantView,
  InviteView,
  JoinRequestView,
  RelationshipView,
} from '../../../src/host/control/control-backend.js';
import type { PlatformUser } from '../../../../platform/src/wire/index.js';

export const BOB: PlatformUser = { id: '200', username: 'bob', discriminator: '0', global_name: 'Bob', avatar: null, bot: false, flags: 0, premium_type: 0 };
export const ALICE: PlatformUser = { ...BOB, id: '100', username: 'alice', global_name: 'Alice' };

export const STATUS: ControlStatus = {
  version: '0.1.0',
  account: { user: ALICE },
  gateway: { status: 'ready', detail: null },
  ipc: { path: '/tmp/discord-ipc-0' },
  websocket: { port: 6463 },
  platform: { url: 'http://127.0.0.1:5000', embedded: true },
};

export const GAMES: GameView[] = [
  { connection_id: 'ipc-1', client_id: '1234567890123456789', application_name: 'Demo', pid: 42, transport: 'ipc', client_library: { library: 'discord-rpc', reason: 'UUID nonces' }, activity: null, connected_at: 1_700_000_000_000, link_requests: true },
];
export const FRIENDS: FriendView[] = [{ user: BOB, presence: { status: 'online', activities: [] } }];
export const CAROL: PlatformUser = { ...BOB, id: '300', username: 'carol', global_name: 'Carol' };
export const RELATIONSHIPS: RelationshipView[] = [{ user: CAROL, type: 'incoming' }];
export const JOIN_REQUESTS: JoinRequestView[] = [
  { id: '900', user: BOB, application_id: '1234567890123456789', channel_id: '800', message_id: '900', received_at: 1 },
];
export const INVITES: InviteView[] = [
  { id: '901', user: BOB, application_id: '1234567890123456789', activity: null, content: '', channel_id: '800', message_id: '901', received_at: 2, expires_at: 2 + 6 * 60 * 60 * 1000, valid: true },
];

export const CONSENT_REQUESTS: ConsentPromptView[] = [
  {
    id: 'Rq_abc-123',
    application: { id: '1234567890123456789', name: 'Demo', icon: null, verified: false },
    scopes: ['identify'],
    expanded_scopes: ['identify'],
    descriptions: [{ scope: 'identify', text: 'Know your username, avatar and banner' }],
    integration_type: null,
    prompt: 'consent',
    connection_id: 'ipc-1',
    state: 'visible',
    created_at: 1_700_000_000_000,
    visible_at: 1_700_000_000_000,
    expires_at: 1_700_000_300_000,
  },
];
export const GRANTS: GrantView[] = [
  {
    id: '555',
    application: { id: '1234567890123456789', name: 'Demo', icon: null },
    scopes: ['identify', 'guilds'],
    integration_type: 1,
    created_at: '2025-01-01T00:00:00.000Z',
  },
];

export interface Call {
  readonly method: string;
  readonly args: unknown[];
}

/** A backend that records every call; `fail` makes the next call of a method throw. */
export class FakeBackend implements ControlBackend {
  readonly calls: Call[] = [];
  readonly listeners = new Set<(event: ControlEvent) => void>();
  readonly failures = new Map<string, unknown>();

  private record(method: string, ...args: unknown[]): void {
    this.calls.push({ method, args });
    const failure = this.failures.get(method);
    if (failure !== undefined) {
      this.failures.delete(method);
      throw failure;
    }
  }

  status(): ControlStatus {
    this.record('status');
    return STATUS;
  }
  games(): GameView[] {
    this.record('games');
    return GAMES;
  }
  friends(): FriendView[] {
    this.record('friends');
    return FRIENDS;
  }
  relationships(): RelationshipView[] {
    this.record('relationships');
    return RELATIONSHIPS;
  }
  joinRequests(): JoinRequestView[] {
    this.record('joinRequests');
    return JOIN_REQUESTS;
  }
  async acceptJoinRequest(id: string): Promise<void> {
    this.record('acceptJoinRequest', id);
  }
  async declineJoinRequest(id: string): Promise<void> {
    this.record('declineJoinRequest', id);
  }
  invites(): InviteView[] {
    this.record('invites');
    return INVITES;
  }
  async acceptInvite(id: string): Promise<{ secret_delivered: boolean }> {
    this.record('acceptInvite', id);
    return { secret_delivered: true };
  }
  async declineInvite(id: string): Promise<void> {
    this.record('declineInvite', id);
  }
  async sendInvite(input: { user_id: string; application_id?: string; content?: string }): Promise<{ message_id: string }> {
    this.record('sendInvite', input);
    return { message_id: '777' };
  }
  async requestToJoin(input: { user_id: string; application_id?: string }): Promise<{ joined: boolean }> {
    this.record('requestToJoin', input);
    return { joined: false };
  }
  async login(input: { username: string } | { token: string }): Promise<ControlStatus['account']> {
    this.record('login', input);
    return { user: ALICE };
  }
  async logout(): Promise<void> {
    this.record('logout');
  }
  consentRequests(): ConsentPromptView[] {
    this.record('consentRequests');
    return CONSENT_REQUESTS;
  }
  async approveConsent(id: string): Promise<void> {
    this.record('approveConsent', id);
  }
  async denyConsent(id: string): Promise<void> {
    this.record('denyConsent', id);
  }
  async grants(): Promise<GrantView[]> {
    this.record('grants');
    return GRANTS;
  }
  async revokeGrant(applicationId: string): Promise<void> {
    this.record('revokeGrant', applicationId);
  }
  async sendAuthorizeRequest(applicationId: string): Promise<{ delivered: number }> {
    this.record('sendAuthorizeRequest', applicationId);
    return { delivered: 2 };
  }
  subscribe(listener: (event: ControlEvent) => void): () => void {
    this.record('subscribe');
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: ControlEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
