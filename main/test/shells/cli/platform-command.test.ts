import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEFAULT_LIMITS, parseLimitsInput, SEED, startPlatform, type PlatformServer } from '../../../../platform/src/index.js';
import { UsageError, type CommandIo } from '../../../src/shells/cli/cli-args.js';
import { defaultPlatformDataDir, PLATFORM_HELP, platformCommand } from '../../../src/shells/cli/platform.js';
import { REPO_ROOT } from '../../support/cli-process.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'companion-platform-cli-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function captureIo(env: Record<string, string | undefined> = {}): CommandIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: (text: string) => void (io.out += text),
    stderr: (text: string) => void (io.err += text),
    env,
    version: '0.0.0-test',
  };
  return io;
}

async function running(): Promise<{ platform: PlatformServer; dataDir: string }> {
  const dataDir = await tempDir();
  const platform = await startPlatform({ dataDir });
  cleanups.push(() => platform.close());
  return { platform, dataDir };
}

async function run(argv: string[], dataDir?: string): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo();
  const code = await platformCommand([...argv, ...(dataDir !== undefined ? ['--data', dataDir] : [])], io);
  return { code, out: io.out, err: io.err };
}

describe('companion platform: help and usage', () => {
  it('prints help with --help (0) and to stderr without a subcommand (2)', async () => {
    const help = captureIo();
    expect(await platformCommand(['--help'], help)).toBe(0);
    expect(help.out).toContain('companion platform <subcommand>');
    expect(help.out).toContain('serve');
    const none = captureIo();
    expect(await platformCommand([], none)).toBe(2);
    expect(none.err).toContain('Usage: companion platform');
  });

  it('throws UsageError for unknown subcommands, actions, wrong argument counts and bad options', async () => {
    await expect(platformCommand(['nope'], captureIo())).rejects.toBeInstanceOf(UsageError);
    await expect(platformCommand(['users', 'delete', 'x'], captureIo())).rejects.toThrow(/unknown action 'delete'/);
    await expect(platformCommand(['friends', 'add', 'alice'], captureIo())).rejects.toThrow(/usage: companion platform friends add A B/);
    await expect(platformCommand(['serve', '--port', '6465'], captureIo())).rejects.toThrow(/reserved/);
    await expect(platformCommand(['serve', '--port', 'abc'], captureIo())).rejects.toBeInstanceOf(UsageError);
    await expect(platformCommand(['apps', 'add', 'Game', '--id', '12'], captureIo())).rejects.toThrow(/snowflake/);
    await expect(platformCommand(['users', '--bogus'], captureIo())).rejects.toThrow(/companion platform users --help/);
  });

  it('defaults the data dir to $XDG_CONFIG_HOME/companion/platform, else ~/.config/companion/platform', () => {
    expect(defaultPlatformDataDir({ XDG_CONFIG_HOME: '/x/config', HOME: '/home/u' })).toBe('/x/config/companion/platform');
    expect(defaultPlatformDataDir({ HOME: '/home/u' })).toBe('/home/u/.config/companion/platform');
  });
});

describe('companion platform serve', () => {
  it('prints the listening line, serves the API and closes cleanly when stopped', async () => {
    const dataDir = await tempDir();
    let listening!: (line: string) => void;
    const printed = new Promise<string>((resolve) => (listening = resolve));
    const io = { ...captureIo(), stdout: (text: string) => listening(text) };
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const done = platformCommand(['serve', '--data', dataDir, '--port', '0'], io, { stop: stopped });
    const url = /^Platform emulator listening on (http:\/\/127\.0\.0\.1:\d+)\n$/.exec(await printed)?.[1];
    expect(url).toBeDefined();
    const gateway = (await (await fetch(`${url}/api/v10/gateway`)).json()) as { url: string };
    expect(gateway.url).toBe(`${url?.replace('http', 'ws')}/gateway`);
    expect(JSON.parse(await readFile(path.join(dataDir, 'platform.json'), 'utf8'))).toMatchObject({ url, pid: process.pid });
    stop();
    expect(await done).toBe(0);
    await expect(stat(path.join(dataDir, 'platform.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('as a real process: SIGTERM closes it with exit code 0 and removes platform.json', async () => {
    const dataDir = await tempDir();
    // The command runs from source (tsx) so this does not depend on the CLI registration.
    const script = `import { platformCommand } from './main/src/shells/cli/platform.ts';
const io = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t), env: process.env, version: 'test' };
process.exitCode = await platformCommand(process.argv.slice(1), io);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, 'serve', '--data', dataDir], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    });
    let stdout = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        stdout += text;
        const match = /listening on (\S+)\n/.exec(stdout);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      void exited.then((code) => reject(new Error(`exited with ${code} before listening; stdout: ${stdout}`)));
    });
    expect((await fetch(`${url}/api/gateway`)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(stat(path.join(dataDir, 'platform.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('--limits overrides emulator limits: the Hello carries the heartbeat interval given', async () => {
    const dataDir = await tempDir();
    let listening!: (line: string) => void;
    const printed = new Promise<string>((resolve) => (listening = resolve));
    const io = { ...captureIo(), stdout: (text: string) => listening(text) };
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const done = platformCommand(['serve', '--data', dataDir, '--limits', '{"heartbeatIntervalMs":750,"http":{"devLogin":{"count":1,"windowMs":60000}}}'], io, {
      stop: stopped,
    });
    const url = /listening on (\S+)\n/.exec(await printed)?.[1] as string;
    const ws = new WebSocket(`${url.replace('http', 'ws')}/gateway?v=10&encoding=json`);
    const hello = await new Promise<{ op: number; d: { heartbeat_interval: number } }>((resolve, reject) => {
      ws.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8')) as { op: number; d: { heartbeat_interval: number } }));
      ws.once('error', reject);
    });
    ws.terminate();
    expect(hello).toMatchObject({ op: 10, d: { heartbeat_interval: 750 } });
    // The nested override took too: a second dev login inside the window is refused.
    const login = (): Promise<Response> => fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"login":"alice"}' });
    expect((await login()).status).toBe(200);
    expect((await login()).status).toBe(429);
    stop();
    expect(await done).toBe(0);
  });

  it('--limits and --limits-file are checked before starting: unknown keys, wrong types and bad JSON are usage errors', async () => {
    const dataDir = await tempDir();
    const serve = (...args: string[]): Promise<number> => platformCommand(['serve', '--data', dataDir, ...args], captureIo());
    await expect(serve('--limits', '{"heartbeatInterval":500}')).rejects.toThrow(new UsageError('--limits: heartbeatInterval is not a known limit'));
    await expect(serve('--limits', '{"heartbeatIntervalMs":"500"}')).rejects.toThrow(new UsageError('--limits: heartbeatIntervalMs must be a number of milliseconds, got "500"'));
    await expect(serve('--limits', '{"heartbeatIntervalMs":0}')).rejects.toThrow(/heartbeatIntervalMs must be more than 0/);
    await expect(serve('--limits', '{"sendLimit":{"count":1.5,"windowMs":1000}}')).rejects.toThrow(/sendLimit\.count must be a whole number/);
    await expect(serve('--limits', '{"http":{"devLogin":{"count":1}}}')).rejects.toThrow(/http\.devLogin\.windowMs is required/);
    await expect(serve('--limits', '{"http":{"login":{}}}')).rejects.toThrow(/http\.login is not a known limit/);
    await expect(serve('--limits', '[500]')).rejects.toThrow(/limits must be a JSON object/);
    await expect(serve('--limits', '{')).rejects.toThrow(/--limits is not valid JSON/);
    const file = path.join(dataDir, 'limits.json');
    await writeFile(file, '{"gameActivityLimit":{"count":"5","windowMs":1000}}');
    await expect(serve('--limits-file', file)).rejects.toThrow(new UsageError('--limits-file: gameActivityLimit.count must be a whole number, got "5"'));
    await expect(serve('--limits-file', path.join(dataDir, 'missing.json'))).rejects.toThrow(/--limits-file: cannot read/);
    await expect(serve('--limits', '{}', '--limits-file', file)).rejects.toThrow(/exclusive/);
    expect(PLATFORM_HELP).toMatch(/--limits JSON .*\n.*\n.*\n\s+--limits-file FILE/);
    // Nothing was started: no runtime file was written.
    await expect(stat(path.join(dataDir, 'platform.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('every field of the default limits is accepted as an override', () => {
    expect(parseLimitsInput(JSON.parse(JSON.stringify(DEFAULT_LIMITS)))).toEqual(DEFAULT_LIMITS);
  });

  it('exits 1 when another emulator uses the data dir', async () => {
    const { dataDir } = await running();
    const io = captureIo();
    expect(await platformCommand(['serve', '--data', dataDir], io)).toBe(1);
    expect(io.err).toMatch(/already uses this data dir/);
  });
});

describe('companion platform admin subcommands', () => {
  it('users list/add as a table and as JSON', async () => {
    const { platform, dataDir } = await running();
    const list = await run(['users'], dataDir);
    expect(list.code).toBe(0);
    expect(list.out.split('\n')[0]).toMatch(/^ID\s+USERNAME\s+DISPLAY NAME$/);
    expect(list.out).toMatch(new RegExp(`${SEED.users.alice}\\s+alice\\s+Alice`));
    const added = await run(['users', 'add', 'erin', '--json'], dataDir);
    expect(JSON.parse(added.out)).toMatchObject([{ username: 'erin', global_name: 'Erin' }]);
    expect(platform.user('erin')).toBeDefined();
    const json = JSON.parse((await run(['users', 'list', '--json'], dataDir)).out) as { username: string }[];
    expect(json.map((u) => u.username)).toEqual(['alice', 'bob', 'carol', 'dave', 'erin']);
    const taken = await run(['users', 'add', 'erin'], dataDir);
    expect(taken.code).toBe(1);
    expect(taken.err).toMatch(/Invalid Form Body: Username 'erin' is taken/);
  });

  it('friends add/remove by name', async () => {
    const { platform, dataDir } = await running();
    platform.admin.createUser('erin');
    expect((await run(['friends', 'add', 'alice', 'erin'], dataDir)).out).toBe('alice and erin are now friends\n');
    expect((await run(['friends', 'add', 'alice', 'erin'], dataDir)).out).toBe('alice and erin were friends already\n');
    expect((await run(['friends', 'remove', 'erin', 'alice'], dataDir)).out).toBe('erin and alice are no longer friends\n');
    const unknown = await run(['friends', 'add', 'alice', 'zed'], dataDir);
    expect(unknown).toMatchObject({ code: 1, err: expect.stringContaining("Unknown user 'zed'") });
  });

  it('apps list/add and assets list/add/remove', async () => {
    const { dataDir } = await running();
    const added = await run(['apps', 'add', 'Test Game', '--id', '555555555555555555'], dataDir);
    expect(added.out).toMatch(/555555555555555555\s+Test Game\s+yes\s+0\s+-\s+[0-9a-f]{64}/);
    // What game detection recognises each app by (issue 30 §1): the demo app's executables.
    expect((await run(['apps', 'list'], dataDir)).out).toContain('linux:companion-demo-game, win32:companion demo game/companiondemo.exe, linux:companion-demo-launcher (launcher)');
    const apps = JSON.parse((await run(['apps', 'list', '--json'], dataDir)).out) as { id: string; private_key?: string }[];
    expect(apps.map((a) => a.id)).toEqual([SEED.appId, '555555555555555555']);
    expect(apps.every((a) => a.private_key === undefined)).toBe(true);
    expect((await run(['assets', 'add', '555555555555555555', 'hero', '--type', 'small'], dataDir)).out).toMatch(/\d+\s+hero\s+small/);
    expect((await run(['assets', 'list', '555555555555555555'], dataDir)).out).toMatch(/hero\s+small/);
    expect((await run(['assets', 'remove', '555555555555555555', 'hero'], dataDir)).out).toBe('Removed asset hero from 555555555555555555\n');
    expect(JSON.parse((await run(['assets', 'list', '555555555555555555', '--json'], dataDir)).out)).toEqual([]);
    expect((await run(['assets', 'list', '999999999999999999'], dataDir)).code).toBe(1);
  });

  it('fails with a clear message when no emulator runs or it cannot be reached', async () => {
    const empty = await tempDir();
    const none = await run(['users'], empty);
    expect(none).toMatchObject({ code: 1, err: expect.stringContaining('no running platform emulator found') });
    const { dataDir } = await running();
    const unreachable = await run(['users', '--platform', 'http://127.0.0.1:1'], dataDir);
    expect(unreachable).toMatchObject({ code: 1, err: expect.stringContaining('cannot reach the platform emulator at http://127.0.0.1:1') });
  });
});

describe('companion platform lobbies', () => {
  it("lists the lobbies with their members and metadata, and a lobby's messages newest first", async () => {
    const { platform, dataDir } = await running();
    expect((await run(['lobbies'], dataDir)).out).toBe('No lobbies.\n');
    const bot = platform.admin.apps().find((app) => app.id === SEED.appId)?.bot_token ?? '';
    const made = await fetch(`${platform.url}/api/v10/lobbies`, {
      method: 'POST',
      headers: { Authorization: `Bot ${bot}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ metadata: { map: 'harbour' }, members: [{ id: SEED.users.alice }, { id: SEED.users.bob }] }),
    });
    const lobby = (await made.json()) as { id: string };
    const listed = await run(['lobbies', 'list'], dataDir);
    expect(listed.code).toBe(0);
    expect(listed.out).toBe(`${lobby.id}  app ${SEED.appId}  2 members: ${SEED.users.alice} (away), ${SEED.users.bob} (away) {"map":"harbour"}\n`);
    const asJson = JSON.parse((await run(['lobbies', '--json'], dataDir)).out) as { id: string }[];
    expect(asJson.map((l) => l.id)).toEqual([lobby.id]);
    expect((await run(['lobbies', 'messages', lobby.id, '--limit', '5'], dataDir)).out).toBe('No messages.\n');
    const unknown = await run(['lobbies', 'messages', '424242'], dataDir);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('Unknown Lobby');
    await expect(platformCommand(['lobbies', 'messages'], captureIo())).rejects.toThrow(/usage: companion platform lobbies messages LOBBY_ID/);
    await expect(platformCommand(['lobbies', 'messages', '1', '--limit', '201'], captureIo())).rejects.toThrow(/--limit must be a number from 1 to 200/);
  });
});

describe('issue 29 §1: companion platform voice', () => {
  it('lists who is in the voice channels, by guild and by channel', async () => {
    const { platform, dataDir } = await running();
    expect((await run(['voice'], dataDir)).out).toBe('Nobody is in a voice channel.\n');
    const ws = new WebSocket(`${platform.gatewayUrl}?v=10&encoding=json`);
    cleanups.push(async () => ws.terminate());
    const joined = new Promise<void>((resolve, reject) => {
      ws.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString('utf8')) as { op: number; t?: string };
        if (message.op === 10) ws.send(JSON.stringify({ op: 2, d: { token: platform.loginToken('bob'), properties: { os: 'linux', browser: 'test', device: 'test' } } }));
        if (message.t === 'READY') ws.send(JSON.stringify({ op: 4, d: { guild_id: SEED.guildId, channel_id: SEED.channels.voice, self_mute: true, self_deaf: false } }));
        if (message.t === 'VOICE_STATE_UPDATE') resolve();
      });
      ws.once('error', reject);
    });
    await joined;
    const listed = await run(['voice', 'list', '--guild', SEED.guildId], dataDir);
    expect(listed).toMatchObject({ code: 0, out: `guild ${SEED.guildId}  channel ${SEED.channels.voice}  bob (${SEED.users.bob}) muted\n` });
    expect((await run(['voice', '--channel', SEED.channels.party], dataDir)).out).toBe('Nobody is in a voice channel.\n');
    expect(JSON.parse((await run(['voice', '--json'], dataDir)).out)).toEqual([expect.objectContaining({ user_id: SEED.users.bob })]);
    await expect(platformCommand(['voice', 'join'], captureIo())).rejects.toThrow(/usage: companion platform voice/);
  });
});

describe('companion platform accounts', () => {
  it('mints a test provider token, lists the provisional account it makes, bans and unbans its linked user', async () => {
    const { platform, dataDir } = await running();
    expect((await run(['accounts'], dataDir)).out).toBe('No provisional accounts.\n');
    const minted = await run(['accounts', 'mint-token', 'STEAM_SESSION_TICKET', 'steam-7', '--name', 'Scout'], dataDir);
    expect(minted.code).toBe(0);
    const ticket = minted.out.trim();
    const exchanged = await fetch(`${platform.url}/api/v10/partner-sdk/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: SEED.appId, external_auth_type: 'STEAM_SESSION_TICKET', external_auth_token: ticket }),
    });
    expect(exchanged.status).toBe(200);
    const listed = await run(['accounts', 'list', '--app', SEED.appId], dataDir);
    expect(listed.out).toMatch(new RegExp(`^app ${SEED.appId}  STEAM_SESSION_TICKET steam-7  provisional: provisional_\\d+ \\(\\d+\\)\\n$`));
    const banned = await run(['accounts', 'ban', 'alice', '--permanent'], dataDir);
    expect(banned.out).toContain(`${SEED.users.alice}  permanent since`);
    expect((await run(['accounts', 'bans'], dataDir)).out).toContain(SEED.users.alice);
    expect((await run(['accounts', 'unban', 'alice'], dataDir)).out).toBe('alice is no longer banned\n');
    expect((await run(['accounts', 'bans'], dataDir)).out).toBe('No bans.\n');
    const unknown = await run(['accounts', 'ban', 'nobody'], dataDir);
    expect(unknown).toMatchObject({ code: 1, err: expect.stringContaining("no user named 'nobody'") });
    expect((await run(['accounts', 'mint-token', 'OIDC', 'x'], dataDir)).code).toBe(1);
    await expect(platformCommand(['accounts', 'ban'], captureIo())).rejects.toThrow(/usage: companion platform accounts ban USER/);
    await expect(platformCommand(['accounts', 'mint-token', 'A', 'B', '--expires-in', 'soon'], captureIo())).rejects.toThrow(/--expires-in must be a whole number/);
  });
});
