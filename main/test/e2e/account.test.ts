/**
 * The host's account: signing out and in through the control API, games while the platform
 * is unreachable (cached account, or "User logged out" when none was ever known), and the
 * application registry at the handshake (strict and auto-registering emulators).
 */
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SafeStorageSecretStore } from '../../src/shells/electron/secret-store.js';
import { Opcode } from '../../../rpc/src/index.js';
import { RawClient } from '../../../rpc/test/support/raw-client.js';
import type { Host } from '../../src/host/compose/host.js';
import { controlCall, DEMO_APP_ID, eventually, quietLogger, startTestHost, World } from './support/world.js';

const UNKNOWN_APP = '999999999999999999';
let world: World;
const extraHosts: Host[] = [];
afterEach(async () => {
  for (const host of extraHosts.splice(0)) await host.close();
  await world.close();
});

async function handshake(path: string, clientId: string) {
  const client = await RawClient.connect(path);
  client.send(Opcode.Handshake, { v: 1, client_id: clientId });
  return { client, frame: await client.next() };
}

async function hostAt(platformUrl: string, dataDir: string, runtimeDir: string, username?: string): Promise<Host> {
  const host = await startTestHost({ runtimeDir, dataDir, platformUrl, ...(username === undefined ? {} : { credentials: { username } }) });
  extraHosts.push(host);
  return host;
}

/** Stands for Electron's safeStorage: a reversible transform, so the file never holds the token as is. */
const fakeSafeStorage = {
  isAsyncEncryptionAvailable: async () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptStringAsync: async (plain: string) => Buffer.from(`enc:${Buffer.from(plain).toString('base64')}`),
  decryptStringAsync: async (encrypted: Buffer) => ({ shouldReEncrypt: false, result: Buffer.from(encrypted.toString().slice(4), 'base64').toString() }),
};

describe('the platform token across runs (the desktop shell\'s store)', () => {
  it('a sign-in from the UI is stored encrypted, the next run signs in with it, sign-out removes it', async () => {
    world = await World.start();
    const dir = await world.tempDir('companion-token-');
    const file = path.join(dir, 'platform-token.bin');
    const store = new SafeStorageSecretStore({ safeStorage: fakeSafeStorage, file, platform: 'linux', logger: quietLogger });
    const runtimeDir = await world.tempDir('companion-rt-');
    const first = await startTestHost({ runtimeDir, dataDir: await world.tempDir('companion-data-'), platformUrl: world.platform.url, tokenStore: store });
    extraHosts.push(first);
    expect(first.signedIn).toEqual({ kind: 'none' });
    await expect(access(file)).rejects.toThrow();

    const login = await controlCall(first, 'POST', '/v1/account/login', { username: 'carol' });
    expect(login.status).toBe(200);
    const token = await store.load();
    expect(token).toMatch(/\S{16,}/);
    // On disk only in the store's encrypted form.
    expect((await readFile(file)).toString()).not.toContain(token!);
    await first.close();

    const second = await startTestHost({ runtimeDir, dataDir: await world.tempDir('companion-data-'), platformUrl: world.platform.url, credentials: { token: token! }, tokenStore: store });
    extraHosts.push(second);
    expect(second.signedIn).toEqual({ kind: 'signed-in', username: 'carol' });
    expect((await controlCall(second, 'POST', '/v1/account/logout', {})).status).toBe(200);
    await expect(access(file)).rejects.toThrow();
    expect(await store.load()).toBeNull();
  });

  it('a stored token the platform refuses is forgotten, and the host starts signed out', async () => {
    world = await World.start();
    const dir = await world.tempDir('companion-token-');
    const store = new SafeStorageSecretStore({ safeStorage: fakeSafeStorage, file: path.join(dir, 'platform-token.bin'), platform: 'linux', logger: quietLogger });
    await store.save('not-a-token-the-platform-issued');
    const host = await startTestHost({
      runtimeDir: await world.tempDir('companion-rt-'),
      dataDir: await world.tempDir('companion-data-'),
      platformUrl: world.platform.url,
      credentials: { token: 'not-a-token-the-platform-issued' },
      tokenStore: store,
    });
    extraHosts.push(host);
    expect(host.signedIn.kind).toBe('failed');
    expect(await store.load()).toBeNull();
  });
});

describe('signing out and in', () => {
  it('sign-out closes games with 1000 "User logged out" and refuses new ones; signing in as carol admits them as carol', async () => {
    world = await World.start();
    const alice = await world.player('alice');
    const { client } = await RawClient.ready(alice.host.ipcPath, DEMO_APP_ID);

    expect((await alice.control('POST', '/v1/account/logout', {})).status).toBe(200);
    const close = await client.next();
    expect(close).toEqual({ opcode: Opcode.Close, payload: { code: 1000, message: 'User logged out' } });
    const refused = await handshake(alice.host.ipcPath, DEMO_APP_ID);
    expect(refused.frame).toEqual({ opcode: Opcode.Close, payload: { code: 1000, message: 'User logged out' } });
    expect((await alice.control('GET', '/v1/status')).body).toMatchObject({ account: null, gateway: { status: 'disconnected' } });

    const login = await alice.control('POST', '/v1/account/login', { username: 'carol' });
    expect(login.status).toBe(200);
    expect(JSON.stringify(login.body)).toContain('carol');
    const admitted = await RawClient.ready(alice.host.ipcPath, DEMO_APP_ID);
    expect(admitted.ready.data.user.username).toBe('carol');
    admitted.client.close();
  });

  it('a sign-in and a sign-out sent at once: the later one wins, and no gateway session is left behind', async () => {
    world = await World.start();
    const alice = await world.player('alice');
    const carolId = world.platform.user('carol')!.id;
    for (let round = 0; round < 8; round += 1) {
      const [login, logout] = await Promise.all([
        alice.control('POST', '/v1/account/login', { username: 'carol' }),
        alice.control('POST', '/v1/account/logout', {}),
      ]);
      // The sign-in either finished first or was replaced: never a 500.
      expect([200, 409]).toContain(login.status);
      expect(logout.status).toBe(200);
      expect(alice.host.session.user).toBeNull();
      expect(alice.host.session.status.status).toBe('signed-out');
      await eventually(() => !world.platform.sessions().some((s) => s.user_id === carolId && s.connected), "carol's gateway session to end");
    }
  });

  it('a failed switch to an unknown user keeps the current session: same account, gateway still ready, and says why', async () => {
    world = await World.start();
    const alice = await world.player('alice');
    const aliceId = world.platform.user('alice')!.id;
    await eventually(() => alice.host.session.status.status === 'ready', "alice's gateway");
    const login = await alice.control('POST', '/v1/account/login', { username: 'mallory' });
    expect(login.status).toBeGreaterThanOrEqual(400);
    expect(login.status).toBeLessThan(500);
    expect(login.text).toContain("no user named 'mallory'");
    expect(alice.host.session.user?.username).toBe('alice');
    expect(alice.host.session.status.status).toBe('ready');
    expect(world.platform.sessions().some((s) => s.user_id === aliceId && s.connected)).toBe(true);
    expect((await alice.control('GET', '/v1/status')).body).toMatchObject({ account: { user: { username: 'alice' } }, gateway: { status: 'ready' } });
    const admitted = await RawClient.ready(alice.host.ipcPath, DEMO_APP_ID);
    expect(admitted.ready.data.user.username).toBe('alice');
    admitted.client.close();
  });

  it('a sign-in with an unknown user is a clear 4xx from the control API and leaves the host signed out', async () => {
    world = await World.start();
    const alice = await world.player('alice');
    await alice.control('POST', '/v1/account/logout', {});
    const login = await alice.control('POST', '/v1/account/login', { username: 'mallory' });
    expect(login.status).toBeGreaterThanOrEqual(400);
    expect(login.status).toBeLessThan(500);
    expect(login.text).toMatch(/mallory|user/i);
    expect(alice.host.session.user).toBeNull();
  });
});

describe('while the platform is unreachable', () => {
  it('games get READY with the cached account, and the host signs in once the platform is back', async () => {
    world = await World.start();
    const dataDir = await world.tempDir('companion-data-');
    const first = await hostAt(world.platform.url, dataDir, await world.tempDir('companion-rt-'), 'alice');
    expect(first.signedIn.kind).toBe('signed-in');
    await first.close();
    extraHosts.splice(0);

    const url = world.platform.url;
    await world.restartPlatform(async () => {
      const host = await hostAt(url, dataDir, await world.tempDir('companion-rt-'), 'alice');
      expect(host.signedIn.kind).toBe('retrying');
      const { ready, client } = await RawClient.ready(host.ipcPath, DEMO_APP_ID);
      expect(ready.data.user.username).toBe('alice');
      client.close();
    });
    const host = extraHosts[0]!;
    await eventually(() => host.session.status.status === 'ready', 'the gateway once the platform is back', 10_000);
  });

  it('with no account ever known, games are closed with 1000 "User logged out"', async () => {
    world = await World.start();
    const url = world.platform.url;
    await world.restartPlatform(async () => {
      const host = await hostAt(url, await world.tempDir('companion-data-'), await world.tempDir('companion-rt-'), 'alice');
      expect(host.signedIn.kind).toBe('retrying');
      const { frame } = await handshake(host.ipcPath, DEMO_APP_ID);
      expect(frame).toEqual({ opcode: Opcode.Close, payload: { code: 1000, message: 'User logged out' } });
    });
  });
});

describe('applications at the handshake', () => {
  it('a strict platform: an unknown application id is closed with 4000 "Invalid Client ID", a registered one admitted', async () => {
    world = await World.start(undefined, true);
    const alice = await world.player('alice');
    const { frame } = await handshake(alice.host.ipcPath, UNKNOWN_APP);
    expect(frame).toEqual({ opcode: Opcode.Close, payload: { code: 4000, message: 'Invalid Client ID' } });
    const { client, ready } = await RawClient.ready(alice.host.ipcPath, DEMO_APP_ID);
    expect(ready.evt).toBe('READY');
    const reply = await client.request('SET_ACTIVITY', { pid: 1, activity: { state: 'In a match' } });
    expect(reply.data.name, JSON.stringify(reply)).toBe('Companion Demo Game');
    client.close();
  });

  it('the default platform registers an unknown application on first use, under a placeholder name', async () => {
    world = await World.start();
    const alice = await world.player('alice');
    const { client } = await RawClient.ready(alice.host.ipcPath, UNKNOWN_APP);
    const reply = await client.request('SET_ACTIVITY', { pid: 1, activity: { state: 'In a match' } });
    expect(reply.data.name).toBe(`Application ${UNKNOWN_APP}`);
    const apps = world.platform.admin.apps();
    expect(apps.find((app) => app.id === UNKNOWN_APP)).toMatchObject({ verified: false });
    client.close();
  });
});
