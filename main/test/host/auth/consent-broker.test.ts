import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SOCIAL_LAYER_PRESENCE_SCOPES, type OAuthGrant } from '../../../../platform/src/wire/oauth.js';
import { ACCESS_DENIED_MESSAGE, AUTHORIZE_OUTCOMES, TIMED_OUT_MESSAGE } from '../../../../rpc/src/protocol/authorize-outcomes.js';
import {
  ConsentBroker,
  consentOutcomeError,
  DEFAULT_CONSENT_TIMEOUT_MS,
  parseConsentPolicy,
  type ConsentAskInput,
  type ConsentBrokerOptions,
  type ConsentOutcome,
  type ConsentRequestView,
} from '../../../src/host/auth/consent-broker.js';
import { GrantCache } from '../../../src/host/auth/grant-cache.js';
import { ManualClock } from './manual-clock.js';

const APP_A = '1000000000000000001';
const APP_B = '1000000000000000002';
const APP_C = '1000000000000000003';

function input(overrides: Partial<ConsentAskInput> = {}): ConsentAskInput {
  return {
    applicationId: APP_A,
    applicationName: 'Game A',
    applicationIcon: null,
    verified: true,
    scopes: ['identify'],
    integrationType: null,
    prompt: 'consent',
    connectionId: 'ipc-1',
    ...overrides,
  };
}

interface Harness {
  broker: ConsentBroker;
  clock: ManualClock;
  requests: ConsentRequestView[];
  settled: [ConsentRequestView, ConsentOutcome][];
  autoApproved: ConsentRequestView[];
  /** Ids of the visible prompts, in pending() order. */
  visible(): string[];
  queued(): string[];
}

let covered: (applicationId: string, scopes: readonly string[], integrationType: number | null) => boolean;

function harness(options: Partial<ConsentBrokerOptions> = {}): Harness {
  const clock = new ManualClock();
  let n = 0;
  const broker = new ConsentBroker({
    grants: { covers: (...args) => covered(...args) },
    clock,
    newId: () => `req-${++n}`,
    ...options,
  });
  const h: Harness = {
    broker,
    clock,
    requests: [],
    settled: [],
    autoApproved: [],
    visible: () => broker.pending().filter((r) => r.state === 'visible').map((r) => r.id),
    queued: () => broker.pending().filter((r) => r.state === 'queued').map((r) => r.id),
  };
  broker.on('request', (request) => h.requests.push(request));
  broker.on('settled', (request, outcome) => h.settled.push([request, outcome]));
  broker.on('auto-approved', (request) => h.autoApproved.push(request));
  return h;
}

/** Records when a promise settled, to assert that it has not yet. */
function track<T>(promise: Promise<T>): { readonly value: T | undefined; readonly done: boolean; promise: Promise<T> } {
  const state: { value: T | undefined; done: boolean; promise: Promise<T> } = { value: undefined, done: false, promise };
  void promise.then((value) => {
    state.value = value;
    state.done = true;
  });
  return state;
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

beforeEach(() => {
  covered = () => false;
});

describe('ConsentBroker prompts', () => {
  it('shows a prompt with the expanded scopes in words, and approve answers approved (not remembered)', async () => {
    const h = harness();
    const asked = h.broker.ask(input({ scopes: ['openid', 'sdk.social_layer_presence'], verified: false, integrationType: 1 }));
    expect(h.requests).toHaveLength(1);
    const request = h.requests[0] as ConsentRequestView;
    expect(request).toMatchObject({
      id: 'req-1',
      applicationId: APP_A,
      applicationName: 'Game A',
      verified: false,
      scopes: ['openid', 'sdk.social_layer_presence'],
      expandedScopes: ['openid', ...SOCIAL_LAYER_PRESENCE_SCOPES],
      integrationType: 1,
      prompt: 'consent',
      connectionId: 'ipc-1',
      state: 'visible',
      createdAt: h.clock.time,
      visibleAt: h.clock.time,
      expiresAt: h.clock.time + DEFAULT_CONSENT_TIMEOUT_MS,
    });
    expect(request.descriptions[0]).toEqual({ scope: 'openid', text: 'Sign you in with your account (OpenID Connect)' });
    expect(request.descriptions.map((d) => d.scope)).toEqual(request.expandedScopes);
    expect(request.descriptions.every((d) => d.text !== d.scope)).toBe(true);
    expect(h.broker.pending()).toEqual([request]);

    expect(h.broker.decide('req-1', 'approve')).toBe(true);
    await expect(asked).resolves.toEqual({ kind: 'approved', remembered: false });
    expect(h.settled).toEqual([[{ ...request, state: 'settled' }, { kind: 'approved', remembered: false }]]);
    expect(h.broker.pending()).toEqual([]);
    expect(h.clock.pendingTimers).toBe(0);
  });

  it('deny answers denied at once; dismiss answers dismissed; a second decision or an unknown id is refused', async () => {
    const h = harness();
    const denied = h.broker.ask(input());
    expect(h.broker.decide('req-1', 'deny')).toBe(true);
    await expect(denied).resolves.toEqual({ kind: 'denied' });
    expect(h.broker.decide('req-1', 'approve')).toBe(false);

    const dismissed = h.broker.ask(input());
    expect(h.broker.decide('req-2', 'dismiss')).toBe(true);
    await expect(dismissed).resolves.toEqual({ kind: 'dismissed' });
    expect(h.broker.decide('nope', 'deny')).toBe(false);
    expect(h.settled.map(([r, o]) => [r.id, o.kind])).toEqual([
      ['req-1', 'denied'],
      ['req-2', 'dismissed'],
    ]);
  });

  it('times out exactly at the limit, counted from when the prompt became visible', async () => {
    const h = harness({ timeoutMs: 60_000 });
    const asked = track(h.broker.ask(input()));
    h.clock.advance(59_999);
    await flush();
    expect(asked.done).toBe(false);
    expect(h.visible()).toEqual(['req-1']);
    h.clock.advance(1);
    await expect(asked.promise).resolves.toEqual({ kind: 'timed-out' });
    expect(h.settled.map(([r, o]) => [r.id, o.kind])).toEqual([['req-1', 'timed-out']]);
  });

  it('a queued request gets its full time limit once it is shown', async () => {
    const h = harness({ timeoutMs: 60_000 });
    const start = h.clock.time;
    const first = h.broker.ask(input({ applicationId: APP_A }));
    const second = track(h.broker.ask(input({ applicationId: APP_B })));
    expect(h.broker.pending().map((r) => [r.id, r.state, r.expiresAt])).toEqual([
      ['req-1', 'visible', start + 60_000],
      ['req-2', 'queued', null],
    ]);
    h.clock.advance(50_000);
    h.broker.decide('req-1', 'deny');
    await first;
    expect(h.broker.pending()[0]).toMatchObject({ id: 'req-2', state: 'visible', createdAt: start, visibleAt: start + 50_000, expiresAt: start + 110_000 });
    h.clock.advance(59_999);
    await flush();
    expect(second.done).toBe(false);
    h.clock.advance(1);
    await expect(second.promise).resolves.toEqual({ kind: 'timed-out' });
  });

  it('an aborted signal (the game left) dismisses the visible prompt at once and shows the next', async () => {
    const h = harness();
    const controller = new AbortController();
    const first = h.broker.ask(input({ signal: controller.signal }));
    const second = track(h.broker.ask(input({ applicationId: APP_B, applicationName: 'Game B' })));
    expect(h.visible()).toEqual(['req-1']);
    controller.abort();
    await expect(first).resolves.toEqual({ kind: 'dismissed' });
    expect(h.visible()).toEqual(['req-2']);
    expect(h.requests.map((r) => r.id)).toEqual(['req-1', 'req-2']);
    // The settled event came before the next prompt.
    expect(h.settled.map(([r]) => r.id)).toEqual(['req-1']);
    expect(second.done).toBe(false);
    h.broker.decide('req-2', 'approve');
    await expect(second.promise).resolves.toEqual({ kind: 'approved', remembered: false });
  });

  it('an aborted signal removes a queued request without showing it; an already aborted one is dismissed without a prompt', async () => {
    const h = harness();
    const controller = new AbortController();
    void h.broker.ask(input());
    const queued = h.broker.ask(input({ applicationId: APP_B, signal: controller.signal }));
    expect(h.queued()).toEqual(['req-2']);
    controller.abort();
    await expect(queued).resolves.toEqual({ kind: 'dismissed' });
    expect(h.queued()).toEqual([]);
    expect(h.requests.map((r) => r.id)).toEqual(['req-1']);

    await expect(h.broker.ask(input({ signal: AbortSignal.abort() }))).resolves.toEqual({ kind: 'dismissed' });
    expect(h.broker.pending().map((r) => r.id)).toEqual(['req-1']);
  });
});

describe('ConsentBroker queue', () => {
  it('one visible prompt overall by default: FIFO across applications, one application after the other', async () => {
    const h = harness();
    const a1 = h.broker.ask(input({ applicationId: APP_A }));
    const a2 = h.broker.ask(input({ applicationId: APP_A }));
    const b1 = h.broker.ask(input({ applicationId: APP_B }));
    const c1 = h.broker.ask(input({ applicationId: APP_C }));
    expect(h.visible()).toEqual(['req-1']);
    expect(h.queued()).toEqual(['req-2', 'req-3', 'req-4']);
    expect(h.broker.pending().map((r) => r.id)).toEqual(['req-1', 'req-2', 'req-3', 'req-4']);

    for (const id of ['req-1', 'req-2', 'req-3', 'req-4']) {
      expect(h.visible()).toEqual([id]);
      h.broker.decide(id, 'deny');
    }
    await Promise.all([a1, a2, b1, c1]);
    expect(h.requests.map((r) => r.id)).toEqual(['req-1', 'req-2', 'req-3', 'req-4']);
  });

  it('with maxVisible 2: never two prompts of one application; a later app goes ahead of a waiting one of a busy app', () => {
    const h = harness({ maxVisible: 2 });
    void h.broker.ask(input({ applicationId: APP_A }));
    void h.broker.ask(input({ applicationId: APP_A }));
    void h.broker.ask(input({ applicationId: APP_B }));
    void h.broker.ask(input({ applicationId: APP_C }));
    // Visible first, then the queue in ask() order.
    expect(h.broker.pending().map((r) => [r.id, r.state])).toEqual([
      ['req-1', 'visible'],
      ['req-3', 'visible'],
      ['req-2', 'queued'],
      ['req-4', 'queued'],
    ]);
    // B leaves: C is next in line that may show (A still has one visible).
    h.broker.decide('req-3', 'deny');
    expect(h.visible()).toEqual(['req-1', 'req-4']);
    h.broker.decide('req-1', 'approve');
    expect(h.visible()).toEqual(['req-2', 'req-4']);
  });

  it('a queued request is decided without a prompt when a grant recorded meanwhile covers it', async () => {
    const h = harness();
    const first = h.broker.ask(input());
    const second = h.broker.ask(input());
    expect(h.queued()).toEqual(['req-2']);
    covered = (app) => app === APP_A;
    h.broker.decide('req-1', 'approve');
    await expect(first).resolves.toEqual({ kind: 'approved', remembered: false });
    await expect(second).resolves.toEqual({ kind: 'approved', remembered: true });
    expect(h.requests.map((r) => r.id)).toEqual(['req-1']);
    expect(h.autoApproved.map((r) => r.id)).toEqual(['req-2']);
    // It was listed as queued, so front ends also learn that it is gone.
    expect(h.settled.map(([r, o]) => [r.id, o])).toEqual([
      ['req-1', { kind: 'approved', remembered: false }],
      ['req-2', { kind: 'approved', remembered: true }],
    ]);
  });

  it('a front end deciding inside its request listener does not upset the queue', async () => {
    const h = harness();
    h.broker.on('request', (request) => {
      if (request.applicationId === APP_B) h.broker.decide(request.id, 'deny');
    });
    const a = h.broker.ask(input({ applicationId: APP_A }));
    const b = h.broker.ask(input({ applicationId: APP_B }));
    const c = h.broker.ask(input({ applicationId: APP_C }));
    h.broker.decide('req-1', 'approve');
    await expect(b).resolves.toEqual({ kind: 'denied' });
    expect(h.visible()).toEqual(['req-3']);
    h.broker.decide('req-3', 'approve');
    await Promise.all([a, c]);
    expect(h.broker.pending()).toEqual([]);
  });

  it('a throwing listener is contained', async () => {
    const h = harness();
    h.broker.on('request', () => {
      throw new Error('front end broke');
    });
    const asked = h.broker.ask(input());
    expect(h.visible()).toEqual(['req-1']);
    h.broker.decide('req-1', 'deny');
    await expect(asked).resolves.toEqual({ kind: 'denied' });
  });
});

describe('ConsentBroker remembered grants', () => {
  it('approves a covered request without a prompt, even with prompt consent, and announces it', async () => {
    const h = harness();
    covered = (app, scopes, type) => app === APP_A && scopes.every((s) => s === 'identify') && type === null;
    await expect(h.broker.ask(input({ prompt: 'consent' }))).resolves.toEqual({ kind: 'approved', remembered: true });
    await expect(h.broker.ask(input({ prompt: undefined }))).resolves.toEqual({ kind: 'approved', remembered: true });
    await expect(h.broker.ask(input({ prompt: 'none' }))).resolves.toEqual({ kind: 'approved', remembered: true });
    expect(h.requests).toEqual([]);
    expect(h.settled).toEqual([]);
    expect(h.autoApproved).toHaveLength(3);
    expect(h.autoApproved[0]).toMatchObject({ applicationId: APP_A, applicationName: 'Game A', scopes: ['identify'], state: 'settled', visibleAt: null });
  });

  it('alwaysAsk makes prompt consent ask even when covered; prompt none still does not ask', async () => {
    const h = harness({ alwaysAsk: true });
    covered = () => true;
    const consent = h.broker.ask(input({ prompt: 'consent' }));
    expect(h.visible()).toEqual(['req-1']);
    await expect(h.broker.ask(input({ prompt: 'none' }))).resolves.toEqual({ kind: 'approved', remembered: true });
    h.broker.decide('req-1', 'approve');
    await expect(consent).resolves.toEqual({ kind: 'approved', remembered: false });
    // The setting can change at runtime.
    h.broker.alwaysAsk = false;
    await expect(h.broker.ask(input({ prompt: 'consent' }))).resolves.toEqual({ kind: 'approved', remembered: true });
  });

  describe('with a real grant cache', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'companion-consent-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('new scopes prompt again; a grant of another integration type does not cover', async () => {
      const cache = new GrantCache(dir);
      await cache.load();
      const grant: OAuthGrant = {
        id: 'g1',
        application: { id: APP_A, name: 'Game A', icon: null },
        scopes: ['openid', ...SOCIAL_LAYER_PRESENCE_SCOPES],
        integration_type: 1,
        created_at: '2025-01-01T00:00:00.000Z',
      };
      await cache.record(grant);
      const h = harness({ grants: cache });
      // The umbrella is expanded before the lookup.
      await expect(h.broker.ask(input({ scopes: ['openid', 'sdk.social_layer_presence'], integrationType: 1 }))).resolves.toEqual({
        kind: 'approved',
        remembered: true,
      });
      await expect(h.broker.ask(input({ scopes: ['identify'] }))).resolves.toEqual({ kind: 'approved', remembered: true });
      const wider = h.broker.ask(input({ scopes: ['openid', 'sdk.social_layer'], integrationType: 1 }));
      expect(h.visible()).toEqual(['req-3']);
      h.broker.decide('req-3', 'deny');
      await expect(wider).resolves.toEqual({ kind: 'denied' });
      const otherType = h.broker.ask(input({ scopes: ['identify'], integrationType: 0 }));
      expect(h.visible()).toEqual(['req-4']);
      h.broker.dispose();
      await expect(otherType).resolves.toEqual({ kind: 'dismissed' });
    });
  });
});

describe('ConsentBroker policy and disposal', () => {
  it('policy approve approves without a prompt and records nothing; deny denies at once', async () => {
    const h = harness({ policy: 'approve' });
    const calls: string[] = [];
    covered = (app) => {
      calls.push(app);
      return false;
    };
    await expect(h.broker.ask(input())).resolves.toEqual({ kind: 'approved', remembered: false });
    h.broker.policy = 'deny';
    await expect(h.broker.ask(input())).resolves.toEqual({ kind: 'denied' });
    expect(h.requests).toEqual([]);
    expect(h.autoApproved).toEqual([]);
    expect(h.broker.pending()).toEqual([]);
    expect(calls).toEqual([APP_A, APP_A]);
  });

  it('a remembered grant still approves under policy deny (the policy answers prompts only)', async () => {
    const h = harness({ policy: 'deny' });
    covered = () => true;
    await expect(h.broker.ask(input())).resolves.toEqual({ kind: 'approved', remembered: true });
  });

  it('dispose settles visible and queued requests as dismissed, shows nothing new, and dismisses later asks', async () => {
    const h = harness();
    const asks = [h.broker.ask(input()), h.broker.ask(input()), h.broker.ask(input({ applicationId: APP_B }))];
    h.broker.dispose();
    expect(await Promise.all(asks)).toEqual([{ kind: 'dismissed' }, { kind: 'dismissed' }, { kind: 'dismissed' }]);
    expect(h.requests.map((r) => r.id)).toEqual(['req-1']);
    expect(h.settled.map(([r]) => r.id)).toEqual(['req-1', 'req-2', 'req-3']);
    expect(h.clock.pendingTimers).toBe(0);
    await expect(h.broker.ask(input())).resolves.toEqual({ kind: 'dismissed' });
  });

  it('makes url-safe random ids by default', () => {
    const broker = new ConsentBroker({ grants: { covers: () => false }, clock: new ManualClock() });
    void broker.ask(input());
    void broker.ask(input());
    const ids = broker.pending().map((r) => r.id);
    expect(ids[0]).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(ids[0]).not.toBe(ids[1]);
    broker.dispose();
  });

  it('parses the --consent values', () => {
    expect(['prompt', 'approve', 'deny', 'yes'].map(parseConsentPolicy)).toEqual(['prompt', 'approve', 'deny', undefined]);
  });
});

describe('consentOutcomeError', () => {
  it('answers with the messages of the AUTHORIZE_OUTCOMES table', () => {
    const reply = (kind: string) => AUTHORIZE_OUTCOMES.find((row) => row.kind === kind)?.reply;
    expect(consentOutcomeError({ kind: 'approved', remembered: true })).toBeNull();
    for (const kind of ['denied', 'dismissed', 'timed-out'] as const) {
      const error = consentOutcomeError({ kind });
      expect(`${error?.code} ${error?.message}`).toBe(reply(kind));
    }
    expect(consentOutcomeError({ kind: 'denied' })?.message).toBe(ACCESS_DENIED_MESSAGE);
    expect(consentOutcomeError({ kind: 'timed-out' })?.message).toBe(TIMED_OUT_MESSAGE);
  });
});
