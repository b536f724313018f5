/* eslint-disable @typescript-eslint/no-explicit-any -- replies are arbitrary JSON */
/**
 * The Client on top of the connection, against a real RpcServer: rich presence validated with
 * the server's own module (the same error text as the server's reply), presence and
 * callbacks set before connecting, the status callback, launch-command registration.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ActivityChange, RpcServerOptions } from '../../src/index.js';
import { Client, type ConnectionStatus } from '../../client/index.js';
import { Recorder } from '../compat/helpers.js';
import { RawClient } from '../support/raw-client.js';
import { makeTempDir, startTestServer, type TestServer } from '../support/test-server.js';

const APP_ID = '123456789012345678';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(options: Partial<RpcServerOptions> = {}): Promise<TestServer> {
  const started = await startTestServer(options);
  cleanups.push(() => started.close());
  return started;
}

function client(test: TestServer, extra: ConstructorParameters<typeof Client>[0] = {}): Client {
  const sdk = new Client({ connection: { socketPaths: [test.path], backoff: { initialMs: 20, maxMs: 100 } }, logger: { sink: () => undefined }, ...extra });
  sdk.setApplicationId(APP_ID);
  cleanups.push(() => sdk.disconnect());
  return sdk;
}

const BAD_ACTIVITIES: Record<string, unknown>[] = [
  { state: 'x' },
  { details: 'a'.repeat(129) },
  { type: 1 },
  { state_url: 'not a uri' },
  { assets: { large_text: 'x' } },
  { assets: { invite_cover_image: '' } },
  { party: { id: 'party-1', size: [0, 4] } },
  { buttons: [] },
  { buttons: [{ label: 'Play' }] },
  { timestamps: { start: 0 } },
  { status_display_type: 7 },
  { name: '' },
  { secrets: { join: 'same-secret', match: 'same-secret' } },
  { party: { id: 'party-1' }, secrets: { join: 'party-1' } },
  { secrets: { join: 'join-secret' }, buttons: [{ label: 'Play', url: 'https://example.test' }] },
];

describe('updateRichPresence', () => {
  it('refuses an invalid activity before sending, with exactly the error the server gives for it', async () => {
    const test = await server();
    const sent = new Recorder<ActivityChange>();
    test.server.on('activity', sent.push);
    const sdk = client(test);
    expect((await sdk.connect()).successful).toBe(true);
    const { client: raw } = await RawClient.ready(test.path, APP_ID);
    cleanups.push(() => raw.close());

    for (const activity of BAD_ACTIVITIES) {
      const reply = await raw.request('SET_ACTIVITY', { pid: process.pid, activity });
      expect(reply.evt, JSON.stringify(activity)).toBe('ERROR');
      let fromCallback: any;
      const result = await sdk.updateRichPresence(activity as any, (r) => (fromCallback = r));
      expect(fromCallback).toBe(result);
      expect({ activity, type: result.type, code: result.errorCode, message: result.error }).toEqual({
        activity,
        type: 'ValidationError',
        code: reply.data.code,
        message: reply.data.message,
      });
    }
    // Nothing was sent: the server saw no activity change at all.
    expect(sent.items).toEqual([]);
    // A known example of the Joi text.
    const short = await sdk.updateRichPresence({ state: 'x' });
    expect(short.error).toBe('child "activity" fails because [child "state" fails because ["state" length must be at least 2 characters long]]');
    expect(short.errorCode).toBe(4000);
  });

  it('sends a valid activity with the pid, clears it, and keeps one set before connecting for the first READY', async () => {
    const test = await server();
    const sent = new Recorder<ActivityChange>();
    test.server.on('activity', sent.push);
    const sdk = client(test);
    const early = await sdk.updateRichPresence({ state: 'In the menus', type: 0 });
    expect(early.successful).toBe(true);
    expect(sent.items).toEqual([]);

    expect((await sdk.connect()).successful).toBe(true);
    const first = await sent.until(() => true);
    expect(first).toMatchObject({ pid: process.pid, cause: 'command', activity: { state: 'In the menus', application_id: APP_ID } });

    const listening = await sdk.updateRichPresence({ type: 2, details: 'Listening to the soundtrack', details_url: 'https://example.test/ost', status_display_type: 2, assets: { invite_cover_image: 'cover' } });
    expect(listening.successful).toBe(true);
    expect(sent.items[1]!.activity).toMatchObject({ type: 2, details_url: 'https://example.test/ost', status_display_type: 2, assets: { invite_cover_image: 'cover' } });

    expect((await sdk.clearRichPresence()).successful).toBe(true);
    expect(sent.items[2]).toMatchObject({ activity: null, cause: 'command' });
  });
});

describe('Client connection', () => {
  it('reports status changes, reconnects after the server drops it, and re-subscribes its callbacks', async () => {
    const test = await server();
    const sdk = client(test);
    const statuses = new Recorder<[ConnectionStatus, string | null, number | null]>();
    sdk.setStatusChangedCallback((status, error, code) => statuses.push([status, error, code]));
    const joins = new Recorder<string>();
    expect((await sdk.setActivityJoinCallback(joins.push)).successful).toBe(true);
    expect((await sdk.connect()).successful).toBe(true);
    expect(sdk.getStatus()).toBe('ready');
    expect(sdk.getCurrentUser()).toMatchObject({ id: '100000000000000001', username: 'tester' });

    test.server.disconnectAll('Companion is restarting');
    await statuses.until(([s]) => s === 'reconnecting');
    await statuses.until(([s]) => s === 'ready' && statuses.items.length > 2, 3000, 'ready again');
    expect(statuses.items.slice(0, 3)).toEqual([
      ['ready', null, null],
      ['reconnecting', '1000 Companion is restarting', 1000],
      ['ready', null, null],
    ]);
    // The join callback works on the new connection without registering it again.
    expect(test.server.dispatch('ACTIVITY_JOIN', { secret: 'join-secret-9' })).toBe(1);
    expect(await joins.until(() => true)).toBe('join-secret-9');

    await sdk.disconnect();
    expect(statuses.items.at(-1)).toEqual(['disconnected', null, null]);
  });

  it('connect() without a companion fails with ClientNotReady; without an application id with a ValidationError', async () => {
    const dir = await makeTempDir('companion-sdk-');
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const sdk = new Client({ connection: { socketPaths: [path.join(dir, 'discord-ipc-0')] }, logger: { sink: () => undefined } });
    expect((await sdk.connect()).type).toBe('ValidationError');
    sdk.setApplicationId(APP_ID);
    const result = await sdk.connect();
    expect(result).toMatchObject({ successful: false, type: 'ClientNotReady', retryable: true });
  });

  it('a request the server leaves unanswered ends with a Timeout result after requestTimeoutMs', async () => {
    const test = await server({ closeGraceMs: 50 });
    test.server.setCommandHandler('ACTIVITY_INVITE_USER', () => new Promise(() => undefined));
    const sdk = client(test, { requestTimeoutMs: 100 });
    await sdk.connect();
    const result = await sdk.sendActivityInvite('100000000000000002', 'come play', () => undefined);
    expect(result).toMatchObject({ type: 'Timeout', retryable: true, error: 'ACTIVITY_INVITE_USER: no reply within 100 ms' });
  });
});

describe('registerLaunchCommand', () => {
  it('merges the command into launch-commands.json with an atomic replace', async () => {
    const dir = await makeTempDir('companion-sdk-data-');
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await writeFile(path.join(dir, 'launch-commands.json'), JSON.stringify({ '111111111111111111': ['other-game'] }));
    const sdk = new Client({ companionDataDir: dir, logger: { sink: () => undefined } });
    expect(await sdk.registerLaunchCommand(APP_ID, ['/usr/bin/game', '--join'])).toBe(true);
    expect(await sdk.registerLaunchCommand(10n ** 18n, ['other'])).toBe(true);
    expect(JSON.parse(await readFile(path.join(dir, 'launch-commands.json'), 'utf8'))).toEqual({
      '111111111111111111': ['other-game'],
      [APP_ID]: ['/usr/bin/game', '--join'],
      '1000000000000000000': ['other'],
    });
    expect(await sdk.registerLaunchCommand(APP_ID, [])).toBe(false);
    expect(await sdk.registerLaunchCommand('not-an-id', ['x'])).toBe(false);

    // The default place is the host's default data dir.
    const config = await makeTempDir('companion-sdk-config-');
    cleanups.push(() => rm(config, { recursive: true, force: true }));
    const byEnv = new Client({ env: { XDG_CONFIG_HOME: config }, logger: { sink: () => undefined } });
    expect(await byEnv.registerLaunchCommand(APP_ID, ['game'])).toBe(true);
    expect(JSON.parse(await readFile(path.join(config, 'companion', 'launch-commands.json'), 'utf8'))).toEqual({ [APP_ID]: ['game'] });
  });
});

