import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PushMessage } from '../../../src/host/ui-bridge/bridge-port.js';
import { makeTempDir } from '../../../../rpc/test/support/test-server.js';
import { createBridgeBackend, type HostBridge } from '../../../src/host/ui-bridge/bridge-backend.js';
import { createGuardedHandler, type InvokeEventLike } from '../../../src/shells/electron/ipc-guard.js';
import { DETECTION_FILE, DetectionSettingsStore } from '../../../src/host/detection/detection-settings-store.js';
import { DEMO_APP_ID, eventually, World, type Player } from '../../e2e/support/world.js';
import { FakeSettings } from '../ui-bridge/support.js';

const warnings: string[] = [];
const logger = { warn: (_fields: object, message: string) => void warnings.push(message) };

describe('issue 30 §3: the detection settings are kept in the host\'s data dir', () => {
  it('the switches and the player\'s own games survive a restart, in a 0600 file written atomically', async () => {
    const dir = await makeTempDir('companion-data-');
    const { store } = await DetectionSettingsStore.load(dir);
    await store.setEnabled(false);
    await store.setExcluded(DEMO_APP_ID, true);
    const own = await store.addCustom({ name: '  My Game ', executable: 'C:\\Games\\Mine\\MyGame.EXE', os: 'win32' });
    expect(own).toMatchObject({ name: 'My Game', executable: 'c:/games/mine/mygame.exe', os: 'win32' });
    expect(own.id).toMatch(/^[0-9]{17,20}$/);
    await store.flush();
    expect((await stat(path.join(dir, DETECTION_FILE))).mode & 0o777).toBe(0o600);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    const { store: again, warning } = await DetectionSettingsStore.load(dir);
    expect(warning).toBeNull();
    expect(again.settings).toEqual({ enabled: false, excluded: [DEMO_APP_ID], custom: [own] });
    await again.removeCustom(own.id);
    await again.setExcluded(DEMO_APP_ID, false);
    await again.flush();
    expect(JSON.parse(await readFile(path.join(dir, DETECTION_FILE), 'utf8'))).toMatchObject({ enabled: false, excluded: [], custom: [] });
  });

  it('refuses a blank name, a blank executable, the same program twice, and a bad application id, with words for the player', async () => {
    const { store } = await DetectionSettingsStore.load(await makeTempDir('companion-data-'));
    await expect(store.addCustom({ name: '   ', executable: 'game', os: 'linux' })).rejects.toThrow('a game name is 1-100 characters');
    await expect(store.addCustom({ name: 'Game', executable: ' ', os: 'linux' })).rejects.toThrow('an executable is 1-260 characters');
    await store.addCustom({ name: 'Game', executable: 'game', os: 'linux' });
    await expect(store.addCustom({ name: 'Again', executable: 'GAME', os: 'linux' })).rejects.toThrow("'game' is already one of your games");
    expect(() => store.setExcluded('not-an-id', true)).toThrow('an application id is a snowflake');
    expect(store.settings.custom).toHaveLength(1);
  });

  it('a file that is not valid is set aside with a warning, and the defaults are used', async () => {
    const dir = await makeTempDir('companion-data-');
    await writeFile(path.join(dir, DETECTION_FILE), JSON.stringify({ version: 1, enabled: 'yes', excluded: [], custom: [] }));
    const { store, warning } = await DetectionSettingsStore.load(dir, { logger });
    expect(warning).toMatch(/^detection\.json did not hold game detection settings \(enabled: .*\); kept as detection\.json\.corrupt-/);
    expect(store.settings).toEqual({ enabled: true, excluded: [], custom: [] });
    expect((await readdir(dir)).some((name) => name.startsWith(`${DETECTION_FILE}.corrupt-`))).toBe(true);
  });
});

describe('issue 30 §3: the UI changes detection through the contract (the web bridge and the Electron IPC guard)', () => {
  let world: World | undefined;
  const bridges: HostBridge[] = [];
  afterEach(async () => {
    for (const bridge of bridges.splice(0)) bridge.close();
    await world?.close();
    world = undefined;
  });

  async function aliceBridge(): Promise<{ alice: Player; bridge: HostBridge; pushes: PushMessage[] }> {
    world = await World.start();
    const alice = await world.player('alice');
    const bridge = createBridgeBackend({ backend: alice.host.control.backend, settings: new FakeSettings(), server: alice.host.server, snapshotIntervalMs: 10 });
    bridges.push(bridge);
    const pushes: PushMessage[] = [];
    bridge.subscribe((message) => pushes.push(message));
    return { alice, bridge, pushes };
  }

  it('the snapshot carries the detection view; a switch changes it, is pushed as the detection topic, and is written to detection.json', async () => {
    const { alice, bridge, pushes } = await aliceBridge();
    await eventually(() => alice.host.detection.view().list.source === 'platform', 'the list fetched');
    const snapshot = await bridge.snapshot();
    expect(snapshot.detection).toMatchObject({ enabled: true, games: [], excluded: [], custom: [], list: { source: 'platform', applications: 1 } });

    const changed = await bridge.invoke('companion:update-detection', [{ game: { application_id: DEMO_APP_ID, shown: false } }]);
    expect(changed.excluded).toEqual([{ application_id: DEMO_APP_ID, name: 'Companion Demo Game' }]);
    await eventually(() => pushes.some((push) => push.channel === 'companion:topic' && push.payload.topic === 'detection'), 'the detection topic pushed');
    const added = await bridge.invoke('companion:add-game', ['/opt/mine/bin/My-Game', 'Mine']);
    expect(added.custom).toEqual([expect.objectContaining({ name: 'Mine', executable: 'my-game', os: 'linux' })]);
    const file = JSON.parse(await readFile(path.join(alice.dataDir, DETECTION_FILE), 'utf8')) as { excluded: string[]; custom: { name: string }[] };
    expect(file.excluded).toEqual([DEMO_APP_ID]);
    expect(file.custom.map((game) => game.name)).toEqual(['Mine']);
    const removed = await bridge.invoke('companion:remove-game', [added.custom[0]!.id]);
    expect(removed.custom).toEqual([]);
  });

  it('bad arguments are refused before the host sees them, on the web bridge and through the Electron guard alike', async () => {
    const { alice, bridge } = await aliceBridge();
    const raw = (channel: string, args: unknown[]): Promise<unknown> => (bridge.invoke as (c: string, a: unknown[]) => Promise<unknown>)(channel, args);
    await expect(raw('companion:update-detection', [{ enabled: 'yes' }])).rejects.toThrow(/enabled/);
    await expect(raw('companion:update-detection', [{ game: { application_id: 'x', shown: false } }])).rejects.toThrow(/application_id/);
    await expect(raw('companion:update-detection', [{ other: true }])).rejects.toThrow(/only enabled and game/);
    await expect(raw('companion:add-game', ['game', ''])).rejects.toThrow(/name is empty/);
    await expect(raw('companion:add-game', ['x'.repeat(261), 'Name'])).rejects.toThrow(/260/);
    expect(alice.host.detection.view()).toMatchObject({ enabled: true, excluded: [], custom: [] });

    const event: InvokeEventLike = { sender: { id: 1 }, senderFrame: { url: 'app://companion/index.html', parent: null } };
    const guard = (channel: string) => createGuardedHandler(channel, { backend: bridge, isKnownSender: () => true, logger: { warn: () => undefined } });
    await expect(guard('companion:update-detection')(event, { enabled: 1 })).rejects.toThrow();
    await expect(guard('companion:add-game')(event, 'game')).rejects.toThrow();
    expect(alice.host.detection.view()).toMatchObject({ enabled: true, custom: [] });
    await expect(guard('companion:update-detection')(event, { enabled: false })).resolves.toMatchObject({ enabled: false });
  });
});
