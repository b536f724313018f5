/**
 * Issue 25 §3, state that scales: the state in a database whose writes follow the change, an
 * acknowledged write that survives kill -9 (a kill loop on a real emulator process), old
 * `state.json` files migrated on first start, and the limits a real platform has (server
 * lobbies per application, a rate limit on the bot routes).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MIGRATED_SUFFIX, SEED, STATE_DB_NAME, STATE_FILE_NAME } from '../src/index.js';
import type { StateFile } from '../src/state/model.js';
import { api, startTestPlatform, stopTestPlatform, tempDir } from './support/harness.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('issue 25 §3: old state files are migrated on first start', () => {
  it('a state.json in the shape emulators before the database wrote is read once into the database and renamed; its DMs, tokens and apps are there after restarts', async () => {
    const dataDir = await tempDir();
    const old = oldStateFile();
    await writeFile(path.join(dataDir, STATE_FILE_NAME), JSON.stringify(old, null, 2));

    const first = await startTestPlatform({ dataDir });
    const files = await readdir(dataDir);
    expect(files).toContain(`${STATE_FILE_NAME}${MIGRATED_SUFFIX}`);
    expect(files).not.toContain(STATE_FILE_NAME);
    expect(files).toContain(STATE_DB_NAME);
    const token = OLD_TOKENS.alice;
    expect(first.loginToken('alice')).toBe(token);
    const read = await api<{ id: string; content: string }[]>(first, 'GET', `/api/channels/${OLD_DM}/messages`, { token });
    expect(read.body.map((message) => message.content)).toEqual(['third', 'second', 'first']);
    await api(first, 'POST', `/api/channels/${OLD_DM}/messages`, { token, body: { content: 'after the migration' } });
    expect(first.admin.apps().map((app) => app.id)).toEqual([SEED.appId]);
    await stopTestPlatform(first);

    // The renamed file is not read again: the database has everything, the new message too.
    const second = await startTestPlatform({ dataDir });
    const again = await api<{ content: string }[]>(second, 'GET', `/api/channels/${OLD_DM}/messages`, { token: second.loginToken('bob') });
    expect(again.body.map((message) => message.content)).toEqual(['after the migration', 'third', 'second', 'first']);
    // Ids keep increasing past the old file's last id.
    expect(BigInt(second.admin.createUser('erin').id)).toBeGreaterThan(BigInt(old.last_id));
  });
});

describe('issue 25 §3: an acknowledged write survives kill -9 (kill loop)', () => {
  it('a real emulator process killed with SIGKILL right after answering DMs, five times over: every acknowledged message is there after each restart', async () => {
    const dataDir = await tempDir();
    const acknowledged: string[] = [];
    let channelId: string | undefined;
    for (let round = 0; round < 5; round += 1) {
      const emulator = await EmulatorProcess.start(dataDir);
      try {
        const token = emulator.info.aliceToken;
        if (channelId !== undefined) {
          const kept = await getJson<{ content: string }[]>(`${emulator.info.url}/api/channels/${channelId}/messages?limit=100`, token);
          const contents = new Set(kept.map((message) => message.content));
          expect(acknowledged.filter((content) => !contents.has(content))).toEqual([]);
        }
        channelId ??= (await postJson<{ id: string }>(`${emulator.info.url}/api/users/@me/channels`, token, { recipient_id: SEED.users.bob })).id;
        // Keep 4 sends in flight; kill the process the moment the 10th answer of the round arrives.
        await sendUntilAcknowledged(`${emulator.info.url}/api/channels/${channelId}/messages`, token, round, 10, (content) => {
          acknowledged.push(content);
        });
        emulator.kill();
      } finally {
        await emulator.stop();
      }
    }
    const last = await EmulatorProcess.start(dataDir);
    try {
      const kept = await getJson<{ content: string }[]>(`${last.info.url}/api/channels/${channelId}/messages?limit=100`, last.info.aliceToken);
      const contents = new Set(kept.map((message) => message.content));
      expect(acknowledged.length).toBeGreaterThanOrEqual(50);
      expect(acknowledged.filter((content) => !contents.has(content))).toEqual([]);
    } finally {
      await last.stop();
    }
  }, 120_000);
});

describe('issue 25 §3: server lobbies per application', () => {
  it('an application holds at most serverLobbiesPerApp server lobbies (400 50035 MAX_LOBBIES past it); deleting one makes room; another application has its own count', async () => {
    const platform = await startTestPlatform({ limits: { serverLobbiesPerApp: 3 } });
    const bot = platform.admin.apps()[0]?.bot_token ?? '';
    const other = platform.admin.createApp({ name: 'Other Game' });
    const create = (token: string) => botRequest<{ id: string }>(platform.url, 'POST', '/api/v10/lobbies', token, {});
    const made = [await create(bot), await create(bot), await create(bot)];
    expect(made.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const refused = await create(bot);
    expect(refused).toMatchObject({ status: 400, body: { code: 50035, errors: { application_id: { _errors: [{ code: 'MAX_LOBBIES' }] } } } });
    expect((await create(other.bot_token)).status).toBe(200);
    expect((await botRequest(platform.url, 'DELETE', `/api/v10/lobbies/${made[0]?.body.id}`, bot)).status).toBe(204);
    expect((await create(bot)).status).toBe(200);
  });
});

describe('issue 25 §3: a rate limit on the bot routes', () => {
  it("every request with an application's bot token counts in one window per application: past it 429 with retry_after and global true; another application is not held back", async () => {
    const platform = await startTestPlatform({ limits: { http: { botRequests: { count: 3, windowMs: 60_000 } } } });
    const bot = platform.admin.apps()[0]?.bot_token ?? '';
    const other = platform.admin.createApp({ name: 'Other Game' });
    const statuses = [];
    for (let n = 0; n < 3; n += 1) statuses.push((await botRequest(platform.url, 'POST', '/api/v10/lobbies', bot, {})).status);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await botRequest<{ retry_after: number; global: boolean }>(platform.url, 'GET', `/api/v10/lobbies/${SEED.appId}`, bot);
    expect(limited.status).toBe(429);
    expect(limited.body.global).toBe(true);
    expect(limited.body.retry_after).toBeGreaterThan(0);
    expect(limited.headers.get('retry-after')).not.toBeNull();
    expect((await botRequest(platform.url, 'POST', '/api/v10/lobbies', other.bot_token, {})).status).toBe(200);
  });
});

// ---- the old file

const OLD_DM = '1300000000000000100';
const OLD_TOKENS = { alice: 'old-alice-token-0123456789abcdefghijklmnopqrstu', bob: 'old-bob-token-0123456789abcdefghijklmnopqrstuvw' };

/** A state.json as emulators before the database wrote it (their StateFile): seeded users, one DM with three messages, the demo app. */
function oldStateFile(): StateFile {
  const user = (name: 'alice' | 'bob', id: string) => ({ id, username: name, global_name: name === 'alice' ? 'Alice' : 'Bob', avatar: null, token: OLD_TOKENS[name] });
  const message = (n: number, content: string) => ({ id: `13000000000000001${String(n).padStart(2, '0')}`, channel_id: OLD_DM, author_id: SEED.users.alice, content, timestamp: new Date(Date.UTC(2025, 0, 1, 0, n)).toISOString() });
  return {
    version: 1,
    last_id: '1300000000000000199',
    users: [user('alice', SEED.users.alice), user('bob', SEED.users.bob)],
    friendships: [[SEED.users.alice, SEED.users.bob]],
    guilds: [],
    channels: [{ id: OLD_DM, type: 1, recipient_ids: [SEED.users.alice, SEED.users.bob], status: null, voice_start_time: null }],
    messages: [message(1, 'first'), message(2, 'second'), message(3, 'third')],
    apps: [
      {
        id: SEED.appId,
        name: SEED.appName,
        icon: null,
        description: '',
        cover_image: null,
        redirect_uris: [],
        public_client: true,
        verified: true,
        auto_registered: false,
        strict: false,
        approved_scopes: ['rpc'],
        rpc_origins: [],
        assets: [],
        webhook_events_url: null,
        client_secret: 'old-client-secret',
        bot_token: 'old-bot-token',
        public_key: '00'.repeat(32),
        private_key: 'AA==',
      },
    ],
    grants: [],
    codes: [],
    tokens: [],
    oidc_key: null,
    app_use_tracked: true,
  };
}

// ---- HTTP helpers

async function botRequest<T = unknown>(url: string, method: string, route: string, token: string, body?: unknown): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: { authorization: `Bot ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T, headers: response.headers };
}

async function getJson<T>(url: string, token: string): Promise<T> {
  const response = await fetch(url, { headers: { authorization: token } });
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`);
  return (await response.json()) as T;
}

async function postJson<T>(url: string, token: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== 200) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Sends DMs (4 in flight) until `count` were answered 200, calling `acknowledged` for each at once. */
async function sendUntilAcknowledged(url: string, token: string, round: number, count: number, acknowledged: (content: string) => void): Promise<void> {
  let answered = 0;
  let sent = 0;
  await new Promise<void>((resolve) => {
    const next = (): void => {
      if (answered >= count) return;
      const content = `round ${round} message ${sent}`;
      sent += 1;
      fetch(url, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify({ content }) })
        .then((response) => {
          if (response.status !== 200 || answered >= count) return;
          acknowledged(content);
          answered += 1;
          if (answered === count) resolve();
          else next();
        })
        .catch(() => undefined);
    };
    for (let n = 0; n < 4; n += 1) next();
  });
}

// ---- the emulator as a real process

interface EmulatorInfo {
  readonly url: string;
  readonly aliceToken: string;
}

/** `startPlatform` in a child process (from source, through tsx), DM sends unlimited. */
class EmulatorProcess {
  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    readonly info: EmulatorInfo,
    private readonly exited: Promise<void>,
  ) {}

  static async start(dataDir: string): Promise<EmulatorProcess> {
    const script = `import { startPlatform } from './platform/src/index.ts';
const platform = await startPlatform({ dataDir: process.argv[1], limits: { http: { messageCreate: { count: 1000000, windowMs: 1000 } } } });
process.stdout.write(JSON.stringify({ url: platform.url, aliceToken: platform.loginToken('alice') }) + '\\n');`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dataDir], { cwd: REPO_ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const info = await new Promise<EmulatorInfo>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        stdout += text;
        const line = stdout.split('\n').find((candidate) => candidate.startsWith('{'));
        if (line !== undefined && stdout.includes('\n')) resolve(JSON.parse(line) as EmulatorInfo);
      });
      void exited.then(() => reject(new Error(`the emulator exited before listening: ${stderr}`)));
    });
    return new EmulatorProcess(child, info, exited);
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  async stop(): Promise<void> {
    this.kill();
    await this.exited;
  }
}

