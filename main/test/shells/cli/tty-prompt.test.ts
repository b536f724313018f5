import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsentBroker, type ConsentAskInput } from '../../../src/host/auth/consent-broker.js';
import { isInteractiveTerminal, startTtyPrompt, type TtyPrompt } from '../../../src/shells/cli/tty-prompt.js';
import { ManualClock } from '../../host/auth/manual-clock.js';

const APP_A = '1000000000000000001';
const APP_B = '1000000000000000002';

function input(overrides: Partial<ConsentAskInput> = {}): ConsentAskInput {
  return {
    applicationId: APP_A,
    applicationName: 'Space Game',
    applicationIcon: null,
    verified: false,
    scopes: ['identify', 'guilds'],
    integrationType: null,
    prompt: 'consent',
    connectionId: 'ipc-1',
    ...overrides,
  };
}

let prompt: TtyPrompt | undefined;
afterEach(() => {
  prompt?.close();
  prompt = undefined;
});

function setup(options: { covers?: () => boolean } = {}) {
  const clock = new ManualClock();
  let n = 0;
  const broker = new ConsentBroker({ grants: { covers: options.covers ?? (() => false) }, clock, timeoutMs: 120_000, newId: () => `req-${++n}` });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let text = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => (text += chunk));
  // The prompt's own clock: each reading is a second later, so answers are never taken as
  // typed ahead (the guard has its own test).
  let seconds = 0;
  prompt = startTtyPrompt({ broker, input: stdin, output: stdout, now: () => (seconds += 1) * 1000 });
  return { broker, clock, stdin, output: () => text };
}

describe('TTY consent prompt', () => {
  it('shows the app (marked unverified), the scopes in words and the request id; y approves', async () => {
    const { broker, stdin, output } = setup();
    const asked = broker.ask(input());
    expect(output()).toBe(
      [
        '',
        'Consent request req-1',
        '"Space Game" (unverified) wants to:',
        '  - Know your username, avatar and banner [identify]',
        '  - Know what servers you are in [guilds]',
        'No answer within 2 minutes counts as a timeout.',
        'Allow? [y/N] ',
      ].join('\n'),
    );
    stdin.write('y\n');
    await expect(asked).resolves.toEqual({ kind: 'approved', remembered: false });
    expect(output()).toMatch(/Allow\? \[y\/N\] Allowed "Space Game" \(unverified\)\.\n$/);
  });

  it('yes in any case approves; n, an empty line or anything else denies', async () => {
    const { broker, stdin, output } = setup();
    for (const [line, kind] of [
      ['  YES ', 'approved'],
      ['n', 'denied'],
      ['', 'denied'],
      ['sure', 'denied'],
    ] as const) {
      const asked = broker.ask(input({ verified: true }));
      stdin.write(`${line}\n`);
      await expect(asked).resolves.toMatchObject({ kind });
    }
    expect(output()).not.toContain('unverified');
    expect(output().match(/Denied "Space Game"\./g)).toHaveLength(3);
  });

  it('reports a request settled elsewhere (timeout, dismissed, control API) and moves to the next', async () => {
    const { broker, clock, stdin, output } = setup();
    const controller = new AbortController();
    const first = broker.ask(input());
    const second = broker.ask(input({ applicationId: APP_B, applicationName: 'Kart', verified: true, signal: controller.signal }));
    const third = broker.ask(input({ applicationName: 'Space Game' }));
    expect(output()).not.toContain('Kart');

    clock.advance(120_000);
    await expect(first).resolves.toEqual({ kind: 'timed-out' });
    expect(output()).toContain('No answer in time: the request of "Space Game" (unverified) timed out.\n');
    expect(output()).toMatch(/Consent request req-2\n"Kart" wants to:/);

    controller.abort();
    await expect(second).resolves.toEqual({ kind: 'dismissed' });
    expect(output()).toContain('The request of "Kart" was dismissed');
    expect(output()).toContain('Consent request req-3');

    broker.decide('req-3', 'approve');
    await expect(third).resolves.toEqual({ kind: 'approved', remembered: false });
    expect(output()).toContain('"Space Game" (unverified) was allowed elsewhere (request req-3).');

    // A line with nothing waiting is ignored.
    stdin.write('y\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(broker.pending()).toEqual([]);
  });

  it('announces a request approved by a remembered grant', async () => {
    const { broker, output } = setup({ covers: () => true });
    await broker.ask(input({ scopes: ['openid', 'sdk.social_layer_presence'] }));
    expect(output()).toBe('Space Game was allowed again: openid, sdk.social_layer_presence (remembered)\n');
  });

  it('keeps control characters of a name out of the terminal', () => {
    const { broker, output } = setup();
    void broker.ask(input({ applicationName: 'Evil\u001b[2J\nGame' }));
    expect(output()).toContain('"Evil?[2J?Game" (unverified) wants to:');
    broker.dispose();
  });

  it('picks up a prompt already visible when it starts, and close() stops answering', async () => {
    const clock = new ManualClock();
    const broker = new ConsentBroker({ grants: { covers: () => false }, clock, newId: () => 'req-early' });
    const asked = broker.ask(input());
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let text = '';
    stdout.setEncoding('utf8');
    stdout.on('data', (chunk: string) => (text += chunk));
    const tty = startTtyPrompt({ broker, input: stdin, output: stdout });
    expect(text).toContain('Consent request req-early');
    tty.close();
    stdin.write('y\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(broker.pending().map((r) => r.id)).toEqual(['req-early']);
    expect(broker.listenerCount('request') + broker.listenerCount('settled') + broker.listenerCount('auto-approved')).toBe(0);
    broker.dispose();
    await expect(asked).resolves.toEqual({ kind: 'dismissed' });
  });

  it('is used only when stdin and stdout are both terminals', () => {
    expect(isInteractiveTerminal({ isTTY: true }, { isTTY: true })).toBe(true);
    expect(isInteractiveTerminal({ isTTY: true }, {})).toBe(false);
    expect(isInteractiveTerminal({}, { isTTY: true })).toBe(false);
  });

  it('ignores an answer that arrives right after a prompt appears (typed for an earlier one)', async () => {
    const clock = new ManualClock();
    const broker = new ConsentBroker({ grants: { covers: () => false }, clock, timeoutMs: 120_000, newId: () => 'req-guard' });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let text = '';
    stdout.setEncoding('utf8');
    stdout.on('data', (chunk: string) => (text += chunk));
    let now = 5_000;
    prompt = startTtyPrompt({ broker, input: stdin, output: stdout, now: () => now });
    const asked = broker.ask(input());
    stdin.write('y\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(broker.pending()).toHaveLength(1);
    expect(text).toContain('ignored an answer typed before this request was shown');
    now += 1_000;
    stdin.write('y\n');
    await expect(asked).resolves.toEqual({ kind: 'approved', remembered: false });
  });
});
