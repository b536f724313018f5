/* eslint-disable @typescript-eslint/no-explicit-any -- tests read arbitrary JSON messages */
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Opcode } from '../../../../rpc/src/index.js';
import { RawClient } from '../../../../rpc/test/support/raw-client.js';
import { freePorts, WsClient } from '../../../../rpc/test/support/ws-client.js';
import { isReservedPort } from '../../../src/host/control/control-server.js';
import { DEMO_APP_ID, World, type Player, type TestHostOptions } from '../../e2e/support/world.js';
import { BridgeClient, fakeRenderer, INDEX_HTML, rawRequest, sessionCookie } from '../../host/ui-bridge/support.js';

let world: World | undefined;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await world?.close();
  world = undefined;
});

async function renderer(): Promise<string> {
  const fake = await fakeRenderer();
  cleanups.push(() => fake.remove());
  return fake.rendererDir;
}

/** A fresh world with alice serving the web UI, and a bridge client signed in to it. */
async function aliceWithBridge(extra: Partial<TestHostOptions> = {}): Promise<{ player: Player; webUi: NonNullable<Player['host']['webUi']>; client: BridgeClient }> {
  world = await World.start();
  const player = await world.player('alice', { webUiRendererDir: await renderer(), ...extra });
  const webUi = player.host.webUi!;
  const client = await BridgeClient.open(webUi.port, await sessionCookie(webUi.port, webUi.token));
  cleanups.push(() => client.close());
  return { player, webUi, client };
}

/** A raw game of the demo app connected to the player's host. */
async function rawGame(player: Player): Promise<RawClient> {
  const { client } = await RawClient.ready(player.host.ipcPath, DEMO_APP_ID);
  cleanups.push(() => client.close());
  return client;
}

/** Waits until a frames push holds the `direction` frame of `cmd`; answers every frame pushed so far. */
async function framesWith(client: BridgeClient, direction: 'in' | 'out', cmd: string, what: string): Promise<any[]> {
  await client.waitFor(() => client.pushesOf('companion:frames').flat().some((frame: any) => frame.direction === direction && frame.cmd === cmd), what);
  return client.pushesOf('companion:frames').flat();
}

async function tokenExchange(form: Record<string, string>): Promise<any> {
  const response = await fetch(`${world!.platform.url}/api/v10/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return response.json();
}

describe('the host serves the web UI', () => {
  it('writes webUi {url, token} to the runtime file, on a port outside 6463-6472, and serves the renderer', async () => {
    world = await World.start();
    const player = await world.player('alice', { webUiRendererDir: await renderer() });
    const info = JSON.parse(await readFile(player.host.runtimeFile!, 'utf8'));
    expect(info.webUi).toEqual({ url: player.host.webUi!.baseUrl, token: player.host.webUi!.token });
    const url = new URL(info.webUi.url);
    expect(url.hostname).toBe('127.0.0.1');
    expect(isReservedPort(Number(url.port))).toBe(false);
    expect(Number(url.port)).not.toBe(new URL(player.host.control.url).port);

    const port = Number(url.port);
    expect((await rawRequest(port, '/')).status).toBe(401);
    const cookie = await sessionCookie(port, info.webUi.token);
    expect((await rawRequest(port, '/', { Cookie: cookie })).body).toBe(INDEX_HTML);
  });

  it('webUi: false starts none', async () => {
    world = await World.start();
    const player = await world.player('alice', { webUi: false });
    expect(player.host.webUi).toBeNull();
    expect(JSON.parse(await readFile(player.host.runtimeFile!, 'utf8')).webUi).toBeUndefined();
  });

  it('a whole authorization through the bridge: the prompt arrives, Approve gives the game a code; no token, code or join secret in any pushed frame', async () => {
    const { player, webUi, client } = await aliceWithBridge();
    const first = await client.invoke('companion:ready');
    expect(first.status.account?.user.username).toBe('alice');
    // The test host's logger has no levels, so the level shows as info; a headless host cannot start at login.
    expect(first.settings).toEqual({ consent_policy: 'prompt', consent_always_ask: false, log_level: 'info', start_at_login: null });
    // The inspector is on screen: every frame is pushed.
    await client.invoke('companion:watch-inspector', 0);

    const game = await rawGame(player);
    const shown = await client.waitForState((state) => state.games.length === 1, 'the game in a topic push');
    expect(shown.games[0]).toMatchObject({ client_id: DEMO_APP_ID, activity: null });

    game.send(Opcode.Frame, { cmd: 'AUTHORIZE', args: { client_id: DEMO_APP_ID, scopes: ['identify', 'rpc'] }, nonce: 'n-authorize' });
    const prompted = await client.waitForState((state) => state.consent_requests.length === 1, 'the consent prompt');
    const prompt = prompted.consent_requests[0]!;
    expect(prompt).toMatchObject({ application: { id: DEMO_APP_ID }, scopes: ['identify', 'rpc'], state: 'visible' });
    expect(await client.invoke('companion:decide-consent', prompt.id, 'approve')).toBeNull();
    const authorized = await game.next(5000);
    const code: string = authorized.payload.data.code;
    expect(code).toMatch(/./);

    const tokens = await tokenExchange({ grant_type: 'authorization_code', client_id: DEMO_APP_ID, code });
    const accessToken: string = tokens.access_token;
    expect(accessToken).toMatch(/./);
    const authenticated = await game.request('AUTHENTICATE', { access_token: accessToken });
    expect(authenticated.data.user.username).toBe('alice');
    const joinSecret = 'join-secret-for-the-inspector-7f3a';
    const activity = await game.request('SET_ACTIVITY', {
      pid: process.pid,
      activity: { state: 'In a squad', party: { id: 'party-alpha', size: [1, 4] }, secrets: { join: joinSecret } },
    });
    expect(activity.evt).toBeNull();

    const frames = await framesWith(client, 'out', 'SET_ACTIVITY', 'the SET_ACTIVITY reply in a frames push');
    const reply = frames.find((frame: any) => frame.direction === 'out' && frame.cmd === 'AUTHORIZE');
    expect(reply).toMatchObject({ nonce: 'n-authorize', payload: { data: { code: '[redacted]' } } });
    const auth = frames.find((frame: any) => frame.direction === 'in' && frame.cmd === 'AUTHENTICATE');
    expect(auth.payload.args.access_token).toBe('[redacted]');
    expect(frames.find((frame: any) => frame.direction === 'out' && frame.cmd === 'AUTHENTICATE').payload.data.user.username).toBe('alice');

    // Once the game's activity shows in a push, everything the UI got can be checked at once.
    await client.waitForState((state) => state.games[0]?.activity?.state === 'In a squad', 'the activity in a topic push');
    const everything = client.texts.join('\n');
    for (const secret of [code, accessToken, joinSecret]) expect(everything).not.toContain(secret);
    // The host's own tokens never reach the UI either.
    expect(everything).not.toContain(player.host.control.token);
    expect(everything).not.toContain(webUi.token);
  });

  it('update-settings changes the consent policy at runtime', async () => {
    const { player, client } = await aliceWithBridge();
    await client.invoke('companion:ready');
    expect(await client.invoke('companion:update-settings', { consent_policy: 'deny', consent_always_ask: true })).toEqual({ consent_policy: 'deny', consent_always_ask: true, log_level: 'info', start_at_login: null });
    expect(player.host.consent.policy).toBe('deny');
    expect(player.host.consent.alwaysAsk).toBe(true);

    const game = await rawGame(player);
    const denied = await game.request('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: ['identify'] });
    expect(denied.evt).toBe('ERROR');
  });
});

describe('web origins through the UI bridge', () => {
  it('a refused origin shows as a request; Allow lets its next connection in; Forget makes it ask again', async () => {
    const { player, client } = await aliceWithBridge({ rpcWebSocket: true, rpcWebSocketPorts: await freePorts(2) });
    const port = player.host.rpcWebSocketPort!;
    const ready = await client.invoke('companion:ready');
    expect(ready.status.websocket).toEqual({ port });
    expect(ready.origin_requests).toEqual([]);

    const origin = 'https://game.example';
    const query = `v=1&client_id=${DEMO_APP_ID}&encoding=json`;
    const refused = WsClient.open(port, query, { origin });
    cleanups.push(() => refused.close());
    expect(await refused.ended).toEqual({ close: { code: 4001, reason: 'Invalid Origin' } });
    const asked = await client.waitForState((state) => state.origin_requests.length === 1, 'the origin request');
    const request = asked.origin_requests[0]!;
    expect(request).toMatchObject({ origin, client_id: DEMO_APP_ID, application_name: 'Companion Demo Game' });

    expect(await client.invoke('companion:decide-origin', request.id, 'approve')).toBeNull();
    const decided = await client.waitForState((state) => state.origins.length === 1 && state.origin_requests.length === 0, 'the approved origin');
    expect(decided.origin_requests).toEqual([]);
    const approved = decided.origins[0]!;
    expect(approved).toMatchObject({ origin, client_id: DEMO_APP_ID, decision: 'approved' });
    const admitted = WsClient.open(port, query, { origin });
    cleanups.push(() => admitted.close());
    expect(await admitted.next()).toMatchObject({ evt: 'READY' });

    expect(await client.invoke('companion:forget-origin', approved.id)).toBeNull();
    const again = WsClient.open(port, query, { origin });
    cleanups.push(() => again.close());
    expect(await again.ended).toEqual({ close: { code: 4001, reason: 'Invalid Origin' } });
    await expect(client.invoke('companion:decide-origin', request.id, 'approve')).rejects.toThrow(/No pending origin request/);
  });
});

describe('the doctor through the UI bridge', () => {
  it('reports the host\'s own socket as Companion\'s and prints no token', async () => {
    const { player, webUi, client } = await aliceWithBridge();
    await client.invoke('companion:ready');
    const report = await client.invoke('companion:doctor');
    expect(report.directories.map((d: any) => d.dir)).toContain(player.runtimeDir);
    expect(report.sockets).toContainEqual({ path: player.host.ipcPath, state: 'answers', holder: 'companion' });
    expect(report.clients.length).toBeGreaterThanOrEqual(7);
    const text = JSON.stringify(report);
    expect(text).not.toContain(player.host.control.token);
    expect(text).not.toContain(webUi.token);
  });
});

describe('the inspector\'s lint channel', () => {
  it('a SET_ACTIVITY the real client accepts but shows badly: the wire answer is unchanged, the frame carries the lints', async () => {
    const { player, client } = await aliceWithBridge();
    await client.invoke('companion:ready');
    await client.invoke('companion:watch-inspector', 0);
    const game = await rawGame(player);
    const activity = { state: 'In a match', timestamps: { start: Math.floor(Date.now() / 1000) }, buttons: [{ label: '🎮 Play', url: 'https://game.example/' }] };
    const reply = await game.request('SET_ACTIVITY', { pid: process.pid, activity });
    expect(reply.evt).toBeNull();
    const frames = await framesWith(client, 'in', 'SET_ACTIVITY', 'the SET_ACTIVITY frame');
    const incoming = frames.find((frame: any) => frame.direction === 'in' && frame.cmd === 'SET_ACTIVITY');
    const codes = (incoming.lints as any[]).map((lint) => lint.code);
    expect(codes).toEqual(expect.arrayContaining(['timestamp-seconds', 'button-label-emoji', 'buttons-hidden-from-author']));
    expect(frames.find((frame: any) => frame.direction === 'out' && frame.cmd === 'SET_ACTIVITY').lints).toBeUndefined();
  });
});

describe('presence through the UI bridge', () => {
  it('the snapshot shows which game friends see and its outcome; hide everything hides it, un-hiding shows it again', async () => {
    const { player, client } = await aliceWithBridge();
    const ready = await client.invoke('companion:ready');
    expect(ready.presence).toMatchObject({ policy: 'most-recent', hide_all: false, pinned_application_id: null });
    const game = await rawGame(player);
    expect((await game.request('SET_ACTIVITY', { pid: process.pid, activity: { state: 'In a match' } })).evt).toBeNull();

    const shown = await client.waitForState((state) => state.presence?.games[0]?.shown === true, 'the game shown to friends');
    expect(shown.presence?.games[0]?.outcome).toMatchObject({ application_id: DEMO_APP_ID, kind: 'sent', update: 1 });
    expect(shown.presence?.announced.map((app: any) => app.application_id)).toEqual([DEMO_APP_ID]);

    expect(await client.invoke('companion:update-presence', { hide_all: true })).toMatchObject({ hide_all: true });
    const hidden = await client.waitForState((state) => state.presence?.games[0]?.outcome?.kind === 'hidden', 'the hidden outcome');
    expect(hidden.presence?.games[0]).toMatchObject({ shown: false, outcome: { rule: 'hide-all' } });
    await expect(client.invoke('companion:update-presence', { rules: { x: { mode: 'hide' } } })).rejects.toThrow(/application id/);
    expect(await client.invoke('companion:update-presence', { hide_all: false })).toMatchObject({ hide_all: false });
    await client.waitForState((state) => state.presence?.games[0]?.shown === true, 'shown again');
  });
});
