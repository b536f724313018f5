import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../rpc/test/support/test-server.js';
import { DM_READ_FILE, DmReadMarks, MAX_READ_CONVERSATIONS, newerId } from '../../../src/host/social/dm-read-marks.js';
import { DmReadState, type ReadableMessage } from '../../../src/host/social/dm-read-state.js';
import type { Host } from '../../../src/host/compose/host.js';
import type { PlatformMessage } from '../../../../platform/src/wire/index.js';
import { DmBook } from '../../../src/host/social/dm-book.js';
import { eventually, startTestHost, World } from '../../e2e/support/world.js';

/**
 * Issue 26 §2: direct messages have unread state, per conversation and per player, cleared when
 * the player reads them, kept across restarts (the marks in `<data dir>/dm-read.json`).
 */

const ALICE = '100000000000000001';
const CAROL = '100000000000000003';
const BOB = '100000000000000002';
const DAVE = '100000000000000004';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function dataDir(): Promise<string> {
  const dir = await makeTempDir('companion-unread-');
  dirs.push(dir);
  return dir;
}

const message = (id: string, authorId: string): ReadableMessage => ({ id, authorId });

/** A read state over conversations the test holds (friend id → messages), for whoever `me` says is signed in. */
function readState(marks: DmReadMarks, conversations: Map<string, ReadableMessage[]>, me: { id: string | null }, clock = { now: 1_000 }): DmReadState {
  return new DmReadState({ marks, me: () => me.id, messages: (friendId) => conversations.get(friendId) ?? [], now: () => clock.now, leaseMs: 10_000 });
}

describe('issue 26 §2: unread direct messages, per conversation, cleared when read', () => {
  it("counts a friend's messages after the read mark; reading the conversation clears it; the player's own reply reads what came before", async () => {
    const { marks } = await DmReadMarks.load(await dataDir());
    const conversations = new Map([[BOB, [message('110', BOB), message('111', BOB)]]]);
    const reads = readState(marks, conversations, { id: ALICE });
    expect(reads.unread(BOB, conversations.get(BOB) ?? [])).toBe(2);
    reads.read(BOB, false);
    expect(reads.unread(BOB, conversations.get(BOB) ?? [])).toBe(0);
    conversations.get(BOB)?.push(message('112', BOB));
    expect(reads.unread(BOB, conversations.get(BOB) ?? [])).toBe(1);
    // alice writes back: what bob wrote before it is read.
    conversations.get(BOB)?.push(message('113', ALICE));
    expect(reads.unread(BOB, conversations.get(BOB) ?? [])).toBe(0);
    conversations.get(BOB)?.push(message('114', BOB));
    expect(reads.unread(BOB, conversations.get(BOB) ?? [])).toBe(1);
  });

  it('keeps each conversation apart: reading bob leaves dave unread', async () => {
    const { marks } = await DmReadMarks.load(await dataDir());
    const conversations = new Map([
      [BOB, [message('120', BOB)]],
      [DAVE, [message('121', DAVE), message('122', DAVE)]],
    ]);
    const reads = readState(marks, conversations, { id: ALICE });
    reads.read(BOB, true);
    expect(reads.unread(BOB, conversations.get(BOB) ?? [])).toBe(0);
    expect(reads.unread(DAVE, conversations.get(DAVE) ?? [])).toBe(2);
  });

  it('a conversation on screen reads messages as they arrive, until its lease runs out or the UI says it left', async () => {
    const { marks } = await DmReadMarks.load(await dataDir());
    const clock = { now: 1_000 };
    const conversations = new Map([[BOB, [message('130', BOB)]]]);
    const reads = readState(marks, conversations, { id: ALICE }, clock);
    const unread = (): number => reads.unread(BOB, conversations.get(BOB) ?? []);
    reads.read(BOB, true);
    expect(reads.isShown(BOB)).toBe(true);
    conversations.get(BOB)?.push(message('131', BOB));
    reads.messagesChanged();
    expect(unread()).toBe(0);
    // Nobody renewed it: a crashed window stops reading within the lease.
    clock.now += 10_001;
    conversations.get(BOB)?.push(message('132', BOB));
    reads.messagesChanged();
    expect(reads.isShown(BOB)).toBe(false);
    expect(unread()).toBe(1);
    reads.read(BOB, true);
    expect(unread()).toBe(0);
    reads.read(BOB, false);
    conversations.get(BOB)?.push(message('133', BOB));
    reads.messagesChanged();
    expect(unread()).toBe(1);
  });

  it('a mark only moves forward, and compares snowflakes as numbers', async () => {
    const { marks } = await DmReadMarks.load(await dataDir());
    expect(newerId('1000', '999')).toBe(true);
    expect(newerId('999', '1000')).toBe(false);
    expect(marks.markRead(ALICE, BOB, '1000')).toBe(true);
    expect(marks.markRead(ALICE, BOB, '999')).toBe(false);
    expect(marks.markRead(ALICE, BOB, '1000')).toBe(false);
    expect(marks.readUpTo(ALICE, BOB)).toBe('1000');
  });
});

describe('issue 26 §2: unread state belongs to the signed-in player', () => {
  it("another player signed in on the same host does not see alice's marks: from carol's side, bob's messages are unread", async () => {
    const { marks } = await DmReadMarks.load(await dataDir());
    const me = { id: ALICE as string | null };
    const conversations = new Map([[BOB, [message('140', BOB), message('141', BOB)]]]);
    const reads = readState(marks, conversations, me);
    reads.read(BOB, true);
    expect(reads.unread(BOB, conversations.get(BOB) ?? [])).toBe(0);
    // carol signs in on this host; her conversation with bob has messages of the same ids.
    me.id = CAROL;
    reads.accountChanged();
    expect(reads.isShown(BOB)).toBe(false);
    expect(reads.unread(BOB, conversations.get(BOB) ?? [])).toBe(2);
    expect(marks.readUpTo(CAROL, BOB)).toBeNull();
    // carol reads hers: alice's marks stay alice's.
    conversations.get(BOB)?.push(message('142', BOB));
    reads.read(BOB, false);
    expect(marks.readUpTo(CAROL, BOB)).toBe('142');
    expect(marks.readUpTo(ALICE, BOB)).toBe('141');
    // Signed out: no one's unread shows.
    me.id = null;
    expect(reads.unread(BOB, conversations.get(BOB) ?? [])).toBe(0);
  });
});

describe('issue 26 §2: read marks are kept across restarts', () => {
  it('writes the marks to dm-read.json (0600, ids only) and a restarted host reads them back, per player and per friend', async () => {
    const dir = await dataDir();
    const first = await DmReadMarks.load(dir);
    const conversations = new Map([
      [BOB, [message('150', BOB), message('151', BOB)]],
      [DAVE, [message('152', DAVE)]],
    ]);
    const before = readState(first.marks, conversations, { id: ALICE });
    before.read(BOB, false);
    first.marks.markRead(CAROL, DAVE, '152');
    await first.marks.flush();

    const file = path.join(dir, DM_READ_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, 'utf8');
    expect(JSON.parse(text)).toEqual({
      version: 1,
      players: [
        { id: ALICE, read: [[BOB, '151']] },
        { id: CAROL, read: [[DAVE, '152']] },
      ],
    });

    // The restart: a new store from the same file, the same conversations.
    const second = await DmReadMarks.load(dir);
    expect(second.warning).toBeNull();
    const after = readState(second.marks, conversations, { id: ALICE });
    expect(after.unread(BOB, conversations.get(BOB) ?? [])).toBe(0);
    expect(after.unread(DAVE, conversations.get(DAVE) ?? [])).toBe(1);
    expect(readState(second.marks, conversations, { id: CAROL }).unread(DAVE, conversations.get(DAVE) ?? [])).toBe(0);
  });

  it('a damaged file is kept aside with a warning that names no message, and every conversation starts unread', async () => {
    const dir = await dataDir();
    await writeFile(path.join(dir, DM_READ_FILE), '{"version":1,"players":[{"id":"x"}]}');
    const warnings: string[] = [];
    const { marks, warning } = await DmReadMarks.load(dir, { logger: { warn: (_fields, text) => warnings.push(text) }, now: () => Date.UTC(2026, 10, 28) });
    expect(warning).toMatch(/^dm-read\.json did not hold read marks .*; kept as dm-read\.json\.corrupt-2026-11-28T00-00-00-000Z; every conversation starts unread$/);
    expect(warnings).toEqual([warning]);
    expect(marks.readUpTo(ALICE, BOB)).toBeNull();
    expect((await readdir(dir)).sort()).toEqual(['dm-read.json.corrupt-2026-11-28T00-00-00-000Z']);
  });

  it('is bounded: past MAX_READ_CONVERSATIONS a player forgets the least recently read conversation', async () => {
    const { marks } = await DmReadMarks.load(await dataDir());
    for (let i = 0; i <= MAX_READ_CONVERSATIONS; i++) marks.markRead(ALICE, String(200_000 + i), '1');
    expect(marks.readUpTo(ALICE, '200000')).toBeNull();
    expect(marks.readUpTo(ALICE, String(200_000 + MAX_READ_CONVERSATIONS))).toBe('1');
    await marks.flush();
  });
});

describe('issue 26 §2: a restarted host shows the conversations again, with what was read and what was not', () => {
  it('history loaded after a newer message arrived goes before it (id order), an edited one keeps its edit time', () => {
    const book = new DmBook();
    const platformMessage = (id: string, content: string, extra: object = {}): PlatformMessage =>
      ({ id, channel_id: 'dm', content, author: { id: BOB }, timestamp: '2026-11-28T10:00:00.000Z', ...extra }) as unknown as PlatformMessage;
    expect(book.add(platformMessage('300', 'live'), ALICE)).toBe(true);
    expect(book.add(platformMessage('200', 'older', { edited_timestamp: '2026-11-28T10:01:00.000Z' }), ALICE)).toBe(true);
    expect(book.add(platformMessage('250', 'between'), ALICE)).toBe(true);
    const messages = book.conversations()[0]?.messages ?? [];
    expect(messages.map((m) => m.content)).toEqual(['older', 'between', 'live']);
    expect(messages[0]?.editedAt).toBe(Date.parse('2026-11-28T10:01:00.000Z'));
  });

  let world: World | undefined;
  const hosts: Host[] = [];
  afterEach(async () => {
    for (const host of hosts.splice(0)) await host.close();
    await world?.close();
    world = undefined;
  });

  it("alice's host stops and starts again on its data dir: bob's conversation is back from the platform, the read one read, the newer one unread; carol signed in there sees none of it", { timeout: 60_000 }, async () => {
    world = await World.start();
    const [alice, bob] = [await world.player('alice'), await world.player('bob')];
    const aliceId = alice.host.session.user?.id ?? '';
    const bobId = bob.host.session.user?.id ?? '';
    const conversation = (host: Host) => host.control.backend.conversations().find((c) => c.user_id === bobId);
    await bob.host.control.backend.sendDm(aliceId, 'first');
    await eventually(() => conversation(alice.host)?.unread === 1, 'the first message, unread');
    alice.host.control.backend.readConversation(bobId, false);
    expect(conversation(alice.host)?.unread).toBe(0);
    await bob.host.control.backend.sendDm(aliceId, 'second');
    await eventually(() => conversation(alice.host)?.unread === 1, 'the second message, unread');
    await alice.host.close();

    const again = await startTestHost({ runtimeDir: alice.runtimeDir, dataDir: alice.dataDir, platformUrl: world.platform.url, credentials: { username: 'alice' } });
    hosts.push(again);
    const back = await eventually(() => (conversation(again)?.messages.length === 2 ? conversation(again) : undefined), 'the conversation loaded again', 10_000);
    expect(back.messages.map((m) => m.content)).toEqual(['first', 'second']);
    expect(back.unread).toBe(1);

    // bob writes to carol too; carol signs in on that host: alice's conversations and marks are not hers.
    const carolId = bob.host.control.backend.friends().find((f) => f.user.username === 'carol')?.user.id ?? '';
    await bob.host.control.backend.sendDm(carolId, 'for carol');
    await again.control.backend.login({ username: 'carol' });
    const hers = await eventually(() => (again.session.user?.username === 'carol' ? conversation(again) : undefined), "carol's conversation with bob");
    expect(hers.messages.map((m) => m.content)).toEqual(['for carol']);
    expect(hers.unread).toBe(1);
    expect(again.control.backend.conversations()).toHaveLength(1);
  });
});
