import type {
  CompanionBridge,
  FrameView,
  InvokeChannel,
  InvokeChannels,
  PushChannel,
  PushChannels,
  Snapshot,
} from '../../preload/src/contract';
import type { BridgeLink, LinkState } from '../src/bridge/link';

/** A test double of the bridge: scripted answers, recorded calls, pushes on demand. Tests only. */
export interface FakeBridge extends CompanionBridge {
  readonly calls: { channel: InvokeChannel; args: readonly unknown[] }[];
  /** Answer for a channel: a value, or a function of the args; throw inside it to fail the call. */
  answer<C extends InvokeChannel>(channel: C, answer: InvokeChannels[C]['result'] | ((...args: InvokeChannels[C]['args']) => InvokeChannels[C]['result'] | Promise<InvokeChannels[C]['result']>)): void;
  emit<C extends PushChannel>(channel: C, payload: PushChannels[C]): void;
  listenerCount(channel: PushChannel): number;
}

export function createFakeBridge(snapshot: Snapshot): FakeBridge {
  const calls: FakeBridge['calls'] = [];
  const answers = new Map<InvokeChannel, unknown>([['companion:ready', snapshot]]);
  const listeners = new Map<PushChannel, Set<(payload: unknown) => void>>();
  return {
    calls,
    async invoke(channel, ...args) {
      calls.push({ channel, args });
      const answer = answers.get(channel);
      if (answer === undefined) return null as never;
      if (typeof answer === 'function') return (await (answer as (...a: unknown[]) => unknown)(...args)) as never;
      return answer as never;
    },
    on(channel, listener) {
      let set = listeners.get(channel);
      if (set === undefined) listeners.set(channel, (set = new Set()));
      const entry = listener as (payload: unknown) => void;
      set.add(entry);
      return () => {
        set.delete(entry);
      };
    },
    answer(channel, answer) {
      answers.set(channel, answer);
    },
    emit(channel, payload) {
      for (const listener of [...(listeners.get(channel) ?? [])]) listener(payload);
    },
    listenerCount(channel) {
      return listeners.get(channel)?.size ?? 0;
    },
  };
}

/** The fake plus a link whose state the test drives (like the web bridge's socket). */
export function createLinkedFakeBridge(snapshot: Snapshot, initial: LinkState = 'connecting'): FakeBridge & BridgeLink & { setLink(state: LinkState): void } {
  const base = createFakeBridge(snapshot);
  let state = initial;
  let attempt = 0;
  const linkListeners = new Set<Parameters<BridgeLink['onLinkState']>[0]>();
  return Object.assign(base, {
    linkState: () => state,
    onLinkState(listener: Parameters<BridgeLink['onLinkState']>[0]) {
      linkListeners.add(listener);
      return () => {
        linkListeners.delete(listener);
      };
    },
    setLink(next: LinkState) {
      state = next;
      attempt = next === 'lost' ? attempt + 1 : 0;
      for (const listener of [...linkListeners]) listener(next, { attempt, retryInMs: next === 'lost' ? 500 : null });
    },
  });
}

export const ME = { id: '100', username: 'player', discriminator: '0', global_name: 'Player One', avatar: null } as const;

export function frame(seq: number, patch: Partial<FrameView> = {}): FrameView {
  return { seq, connection_id: 'c1', direction: 'in', opcode: 1, at: 1_000 + seq, cmd: 'SET_ACTIVITY', evt: null, nonce: null, payload: { seq }, ...patch };
}

export function snapshot(patch: Partial<Snapshot> = {}): Snapshot {
  return {
    status: {
      version: '0.1.0',
      account: { user: ME },
      gateway: { status: 'ready', detail: null },
      ipc: { path: '/tmp/discord-ipc-0' },
      websocket: { port: 6463 },
      platform: { url: 'http://127.0.0.1:7000', embedded: true },
    },
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

export const CONSENT = {
  id: 'req-1',
  application: { id: '42', name: 'Space Game', icon: 'https://cdn.example/icon.png', verified: false },
  scopes: ['openid', 'sdk.social_layer_presence'],
  expanded_scopes: ['openid', 'identify', 'relationships.read'],
  descriptions: [
    { scope: 'openid', text: 'Know who you are (OpenID)' },
    { scope: 'identify', text: 'Access your username and avatar' },
    { scope: 'relationships.read', text: 'Know who your friends are' },
  ],
  integration_type: 1,
  state: 'visible',
  expires_at: null,
} as const satisfies Snapshot['consent_requests'][number];

/** Lets pending promise callbacks run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
}
