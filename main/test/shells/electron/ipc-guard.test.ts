import { describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS } from '../../../../preload/src/contract.js';
import type { BridgeBackend } from '../../../src/host/ui-bridge/bridge-port.js';
import { CHANNEL_SCHEMAS, parseChannelArgs } from '../../../../preload/src/contract/schemas.js';
import { checkInvoke, createGuardedHandler, installGuardedHandlers, IpcRefused, type InvokeEventLike } from '../../../src/shells/electron/ipc-guard.js';

const OURS = 7;
const known = (id: number): boolean => id === OURS;
const event = (frame: InvokeEventLike['senderFrame'], id = OURS): InvokeEventLike => ({ sender: { id }, senderFrame: frame });
const mainFrame = { url: 'app://companion/index.html', parent: null };

function fakeBackend(): BridgeBackend & { calls: [string, unknown][] } {
  const calls: [string, unknown][] = [];
  return {
    calls,
    invoke: (async (channel: string, args: unknown) => {
      calls.push([channel, args]);
      return channel === 'companion:accept-invite' ? { secret_delivered: true } : null;
    }) as BridgeBackend['invoke'],
    subscribe: () => () => undefined,
  };
}

describe('checkInvoke: the sender', () => {
  it.each([
    ['file: page', event({ url: 'file:///tmp/index.html', parent: null }), 'sender is not on the app origin'],
    ['other host', event({ url: 'app://evil/index.html', parent: null }), 'sender is not on the app origin'],
    ['https page', event({ url: 'https://evil.example/', parent: null }), 'sender is not on the app origin'],
    ['look-alike', event({ url: 'app://companion.evil/index.html', parent: null }), 'sender is not on the app origin'],
    ['about:blank', event({ url: 'about:blank', parent: null }), 'sender is not on the app origin'],
    ['sub-frame', event({ url: 'app://companion/index.html', parent: { url: 'app://companion/index.html' } }), 'sender is a sub-frame'],
    ['null frame', event(null), 'no sender frame'],
    ['undefined frame', event(undefined), 'no sender frame'],
    ['unknown window', event(mainFrame, 99), 'sender is not a Companion window'],
  ])('refuses a %s', (_name, ev, reason) => {
    expect(checkInvoke(ev, 'companion:accept-invite', ['inv-1'], known)).toEqual({ ok: false, reason });
  });
});

describe('checkInvoke: channel and arguments', () => {
  it('refuses channels outside the contract', () => {
    for (const channel of ['companion:eval', 'ready', 'other:ready', '', 42, null, '__proto__', 'constructor']) {
      expect(checkInvoke(event(mainFrame), channel, [], known)).toEqual({ ok: false, reason: 'unknown channel' });
    }
  });

  it.each([
    ['companion:ready', ['extra']],
    ['companion:decide-consent', ['id-1', 'maybe']],
    ['companion:decide-consent', ['id-1']],
    ['companion:decide-consent', ['../../x', 'approve']],
    ['companion:accept-invite', [42]],
    ['companion:accept-invite', [{ toString: () => 'x' }]],
    ['companion:request-to-join', ['not-a-snowflake', null]],
    ['companion:request-to-join', ['123']],
    ['companion:revoke-grant', ['1'.repeat(21)]],
    ['companion:login', ['']],
    ['companion:login', ['x'.repeat(33)]],
    ['companion:update-settings', [{ consent_policy: 'always' }]],
    ['companion:update-settings', [{ consent_policy: 'approve', token: 'x' }]],
    ['companion:update-settings', [{ consent_always_ask: undefined }]],
    ['companion:update-settings', [null]],
  ])('refuses %s with %j', (channel, args) => {
    const decision = checkInvoke(event(mainFrame), channel, args, known);
    expect(decision.ok).toBe(false);
    if (!decision.ok) expect(decision.reason).toMatch(/^bad arguments/);
  });

  it.each([
    ['companion:ready', []],
    ['companion:decide-consent', ['Zm9vYmFy_-', 'dismiss']],
    ['companion:request-to-join', ['80351110224678912', null]],
    ['companion:send-invite', ['80351110224678912', '1234']],
    ['companion:login', ['nelly']],
    ['companion:update-settings', [{}]],
    ['companion:update-settings', [{ consent_policy: 'deny', consent_always_ask: true }]],
  ])('accepts %s with %j', (channel, args) => {
    expect(checkInvoke(event(mainFrame), channel, args, known)).toEqual({ ok: true, channel, args });
  });

  it('has a schema for every contract channel and nothing else', () => {
    expect(Object.keys(CHANNEL_SCHEMAS).sort()).toEqual([...INVOKE_CHANNELS].sort());
    expect(parseChannelArgs('companion:logout', []).ok).toBe(true);
  });
});

describe('createGuardedHandler', () => {
  it('calls the backend with the parsed arguments for a good call', async () => {
    const backend = fakeBackend();
    const logger = { warn: vi.fn() };
    const handler = createGuardedHandler('companion:accept-invite', { backend, isKnownSender: known, logger });
    await expect(handler(event(mainFrame), 'inv-1')).resolves.toEqual({ secret_delivered: true });
    expect(backend.calls).toEqual([['companion:accept-invite', ['inv-1']]]);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('rejects with a bare "refused", logs the reason, and never reaches the backend', async () => {
    const backend = fakeBackend();
    const logger = { warn: vi.fn() };
    const handler = createGuardedHandler('companion:accept-invite', { backend, isKnownSender: known, logger });
    const call = handler(event({ url: 'https://evil.example/x?token=secret', parent: null }), 'inv-1');
    await expect(call).rejects.toBeInstanceOf(IpcRefused);
    await expect(call).rejects.toThrow(/^refused$/);
    expect(backend.calls).toEqual([]);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    const [fields, message] = logger.warn.mock.calls[0] as [Record<string, unknown>, string];
    expect(message).toBe('IPC call refused');
    expect(fields).toMatchObject({ channel: 'companion:accept-invite', reason: 'sender is not on the app origin', origin: 'https://evil.example' });
    expect(JSON.stringify(fields)).not.toContain('secret');
  });

  it('refuses a handler made for a channel outside the contract', async () => {
    const backend = fakeBackend();
    const handler = createGuardedHandler('companion:shell-exec', { backend, isKnownSender: known, logger: { warn: vi.fn() } });
    await expect(handler(event(mainFrame))).rejects.toBeInstanceOf(IpcRefused);
    expect(backend.calls).toEqual([]);
  });

  it('marks the window ready before the ready call reaches the backend', async () => {
    const order: string[] = [];
    const backend = fakeBackend();
    const invoke = backend.invoke;
    backend.invoke = (async (channel: never, args: never) => {
      order.push(`invoke ${channel}`);
      return invoke(channel, args);
    }) as BridgeBackend['invoke'];
    const handler = createGuardedHandler('companion:ready', {
      backend,
      isKnownSender: known,
      logger: { warn: vi.fn() },
      onReady: (id) => order.push(`ready ${id}`),
    });
    await handler(event(mainFrame));
    expect(order).toEqual([`ready ${OURS}`, 'invoke companion:ready']);
  });

  it('installs exactly the contract channels', () => {
    const handled: string[] = [];
    installGuardedHandlers({ handle: (channel) => void handled.push(channel) }, { backend: fakeBackend(), isKnownSender: known, logger: { warn: vi.fn() } });
    expect(handled).toEqual([...INVOKE_CHANNELS]);
  });
});
