import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationView, DmView, HostData, UserView } from '../../../../preload/src/contract.js';
import type { RpcServer } from '../../../../rpc/src/index.js';
import { createBridgeBackend, type HostBridge } from '../../../src/host/ui-bridge/bridge-backend.js';
import type { ElectronModule } from '../../../src/shells/electron/electron-types.js';
import { newDirectMessages, snapshotChanges } from '../../../src/shells/electron/notifications.js';
import { ShellPushes } from '../../../src/shells/electron/shell-pushes.js';
import type { ShellTray } from '../../../src/shells/electron/shell-tray.js';
import type { WindowManager } from '../../../src/shells/electron/windows-adapter.js';
import { eventually, World, type Player } from '../../e2e/support/world.js';
import { FakeSettings } from '../../host/ui-bridge/support.js';
import { uiSnapshot, uiStatus, uiUser } from '../../support/ui-snapshot.js';

/**
 * Issue 26 §2: the desktop app announces a direct message that arrives while its conversation
 * is not being read. The Electron binary cannot run here: the decision is tested in Node, on
 * the host's real state, with Electron's Notification faked at the port (ElectronModule).
 */

const user = uiUser;
const ME = user('1', 'alice');
const BOB = user('2', 'bob');

const dm = (id: string, author: UserView, content: string): DmView => ({ id, author_id: author.id, content, application_id: null, application_name: null, at: 1, edited_at: null });

function data(conversations: ConversationView[]): HostData {
  const { frames: _frames, ...rest } = uiSnapshot({
    status: { ...uiStatus(ME), version: '0', ipc: null },
    friends: [{ user: { ...BOB, global_name: '<b>Bob</b>' }, presence: { status: 'online', activities: [] } }],
    conversations,
  });
  return rest;
}

describe('issue 26 §2: which direct messages the desktop app announces', () => {
  const first = dm('10', BOB, 'hi');

  it("announces a friend's new unread message with their name (plain text, one line), once", () => {
    const before = data([]);
    const after = data([{ user_id: BOB.id, messages: [first, dm('11', BOB, 'queue\nup <now>?')], unread: 2 }]);
    expect(snapshotChanges(before, after).notifications).toEqual([{ kind: 'dm', id: '11', title: 'b Bob /b', body: 'queue up now ? (2 unread)' }]);
    // The first state announces nothing: what was unread before the app started is not news;
    // nor is history the host loads as it signs in (written before the app started).
    expect(snapshotChanges(null, after).notifications).toEqual([]);
    expect(snapshotChanges(before, after, 2).notifications).toEqual([]);
    // The same state again, or an edit of it: nothing new.
    expect(newDirectMessages(after, after)).toEqual([]);
    const edited = data([{ user_id: BOB.id, messages: [first, { ...dm('11', BOB, 'edited'), edited_at: 2 }], unread: 2 }]);
    expect(newDirectMessages(after, edited)).toEqual([]);
  });

  it('announces nothing the host counts as read: the conversation was on screen, or the player wrote after it', () => {
    const before = data([{ user_id: BOB.id, messages: [first], unread: 0 }]);
    expect(newDirectMessages(before, data([{ user_id: BOB.id, messages: [first, dm('11', BOB, 'read as it came')], unread: 0 }]))).toEqual([]);
    expect(newDirectMessages(before, data([{ user_id: BOB.id, messages: [first, dm('11', ME, 'my own')], unread: 0 }]))).toEqual([]);
  });

  it('announces only friends: a conversation kept with someone no longer a friend has no row to open it from', () => {
    const stranger = user('3', 'x');
    const both = data([
      { user_id: stranger.id, messages: [dm('12', stranger, 'hello')], unread: 1 },
      { user_id: BOB.id, messages: [dm('13', BOB, '')], unread: 1 },
    ]);
    expect(newDirectMessages(data([]), both)).toEqual([{ kind: 'dm', id: '13', title: 'b Bob /b', body: 'New message' }]);
  });
});

/** Electron's Notification, faked at the port: what was shown, and a click. */
function fakeNotifications(): { electron: Pick<ElectronModule, 'Notification'>; shown: { title: string; body: string; click: () => void }[] } {
  const shown: { title: string; body: string; click: () => void }[] = [];
  class Notification {
    static isSupported = (): boolean => true;
    private onClick: () => void = () => undefined;
    constructor(private readonly spec: { title: string; body: string }) {}
    show(): void {
      shown.push({ ...this.spec, click: () => this.onClick() });
    }
    on(_event: 'click', listener: () => void): this {
      this.onClick = listener;
      return this;
    }
  }
  return { electron: { Notification } as unknown as Pick<ElectronModule, 'Notification'>, shown };
}

describe('issue 26 §2: the desktop shell announces direct messages from a real host', () => {
  let world: World | undefined;
  const bridges: HostBridge[] = [];
  afterEach(async () => {
    for (const bridge of bridges.splice(0)) bridge.close();
    await world?.close();
    world = undefined;
  });

  /** alice's host with the shell's pushes on it (windows and tray faked, Notification faked), and bob's host to write to her. */
  async function shellOnAlice(): Promise<{ alice: Player; bob: Player; shown: ReturnType<typeof fakeNotifications>['shown']; windowsShown: string[]; logs: string[]; shellState: () => HostData | null }> {
    world = await World.start();
    const hostLogs: string[] = [];
    const record = (...args: unknown[]): void => void hostLogs.push(JSON.stringify(args));
    const [alice, bob] = [await world.player('alice', { logger: { debug: record, info: record, warn: record, error: record } }), await world.player('bob')];
    const { electron, shown } = fakeNotifications();
    const windowsShown: string[] = [];
    const windows = { broadcast: () => undefined, show: (kind: string) => windowsShown.push(kind) } as unknown as WindowManager;
    const tray = { update: () => undefined } as unknown as ShellTray;
    const logs = hostLogs;
    const pushes = new ShellPushes(electron, windows, tray, { warn: (fields, message) => logs.push(JSON.stringify([fields, message])) });
    const bridge = createBridgeBackend({ backend: alice.host.control.backend, server: alice.host.server as unknown as Pick<RpcServer, 'on' | 'off'>, settings: new FakeSettings(), snapshotIntervalMs: 20 });
    bridges.push(bridge);
    bridge.subscribe(pushes.deliver);
    pushes.start(bridge);
    await eventually(() => (pushes as unknown as { state: HostData | null }).state !== null, 'the shell’s first snapshot');
    return { alice, bob, shown, windowsShown, logs, shellState: () => (pushes as unknown as { state: HostData | null }).state };
  }

  const aliceId = (alice: Player): string => alice.host.session.user?.id ?? '';
  const bobId = (bob: Player): string => bob.host.session.user?.id ?? '';
  const conversationOf = (alice: Player, bob: Player): ConversationView | undefined => alice.host.control.backend.conversations().find((c) => c.user_id === bobId(bob));

  it('a DM while its conversation is not on screen raises one notification (click: the main window); while it is on screen, none; after, again', { timeout: 60_000 }, async () => {
    const { alice, bob, shown, windowsShown, logs, shellState } = await shellOnAlice();
    await bob.host.control.backend.sendDm(aliceId(alice), 'are you in?');
    await eventually(() => shown.length === 1 || undefined, 'a notification', 10_000);
    expect(shown[0]).toMatchObject({ title: 'Bob', body: 'are you in?' });
    shown[0]?.click();
    expect(windowsShown).toEqual(['main']);
    expect(conversationOf(alice, bob)?.unread).toBe(1);

    // alice opens the conversation: it is read, and what arrives while it is on screen is not announced.
    alice.host.control.backend.readConversation(bobId(bob), true);
    expect(conversationOf(alice, bob)?.unread).toBe(0);
    await bob.host.control.backend.sendDm(aliceId(alice), 'ok, inviting you');
    await eventually(() => conversationOf(alice, bob)?.messages.length === 2 || undefined, 'the second message');
    // The shell has the state with it (the one it would have announced it from).
    await eventually(() => shellState()?.conversations.find((c) => c.user_id === bobId(bob))?.messages.length === 2 || undefined, 'the shell’s state with the second message');
    expect(conversationOf(alice, bob)?.unread).toBe(0);
    expect(shown).toHaveLength(1);

    // She leaves it: the next message is news again.
    alice.host.control.backend.readConversation(bobId(bob), false);
    await bob.host.control.backend.sendDm(aliceId(alice), 'lobby is open');
    await eventually(() => shown.length === 2 || undefined, 'a second notification', 10_000);
    expect(shown[1]).toMatchObject({ title: 'Bob', body: 'lobby is open' });
    // Neither the host nor the shell logged what was written.
    expect(logs.length).toBeGreaterThan(0);
    for (const text of ['are you in?', 'ok, inviting you', 'lobby is open']) expect(logs.filter((line) => line.includes(text))).toEqual([]);
  });
});
