import { lstat, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RawClient } from '../../../../rpc/test/support/raw-client.js';
import type * as StartModule from '../../../src/start.js';
import { cliCleanup, CliProcess, devLoginToken, REPO_ROOT } from '../../support/cli-process.js';

const { track, dir } = cliCleanup('companion-cli-');

/** Every host gets its own config dir (data dir and embedded emulator state), never the real one. */
let configHome: string | undefined;
afterEach(() => {
  configHome = undefined;
});
async function configDir(): Promise<string> {
  configHome ??= await dir();
  return configHome;
}

async function serve(args: string[], env: Record<string, string> = {}): Promise<CliProcess> {
  const proc = CliProcess.run(['serve', ...args], { XDG_CONFIG_HOME: await configDir(), ...env });
  track(proc);
  return proc;
}

const LISTENING = /listening on (\S+)\n/;

describe('companion serve', () => {
  it('binds in XDG_RUNTIME_DIR, prints the path, serves READY and cleans up on SIGTERM', async () => {
    const runtime = await dir();
    const proc = await serve(['--user', 'alice'], { XDG_RUNTIME_DIR: runtime, TMPDIR: '/nonexistent' });
    const [, socketPath] = await proc.waitForStdout(LISTENING);
    expect(socketPath).toBe(path.join(runtime, 'discord-ipc-0'));
    expect((await stat(socketPath!)).mode & 0o777).toBe(0o600);
    const runtimeFile = path.join(runtime, 'companion', 'host.json');
    expect((await stat(runtimeFile)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(runtimeFile, 'utf8'))).toMatchObject({ pid: proc.child.pid, ipc: { path: socketPath, index: 0 } });

    const { client, ready } = await RawClient.ready(socketPath!);
    expect(ready.data.user).toMatchObject({ username: 'alice', discriminator: '0', bot: false });
    expect(ready.data.user.id).toMatch(/^[0-9]{17,20}$/);

    proc.kill('SIGTERM');
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    expect((client.frames.at(-1)?.payload as { code?: number }).code).toBe(1000);
    await expect(lstat(socketPath!)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(lstat(runtimeFile)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.each(['SIGINT', 'SIGHUP'] as const)('shuts down cleanly on %s too, removing the socket', async (signal) => {
    const runtime = await dir();
    const proc = await serve(['--runtime-dir', runtime]);
    const [, socketPath] = await proc.waitForStdout(LISTENING);
    proc.kill(signal);
    expect((await proc.exited).code).toBe(0);
    await expect(lstat(socketPath!)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('uses TMPDIR when XDG_RUNTIME_DIR is not set, and --runtime-dir over both', async () => {
    const tmp = await dir();
    const explicit = await dir();
    const byEnv = await serve([], { TMPDIR: tmp });
    expect((await byEnv.waitForStdout(LISTENING))[1]).toBe(path.join(tmp, 'discord-ipc-0'));
    const byFlag = await serve(['--runtime-dir', explicit], { TMPDIR: tmp });
    expect((await byFlag.waitForStdout(LISTENING))[1]).toBe(path.join(explicit, 'discord-ipc-0'));
  });

  it('refuses a second host for the same directory, unless --allow-second', async () => {
    const runtime = await dir();
    const first = await serve(['--runtime-dir', runtime]);
    await first.waitForStdout(LISTENING);

    const second = await CliProcess.complete(['serve', '--runtime-dir', runtime], { XDG_CONFIG_HOME: await configDir() });
    expect(second.code).toBe(1);
    const lockFile = path.join(runtime, 'companion', 'host.json');
    expect(second.stderr).toContain(`already running for this directory (pid ${first.child.pid}, ${lockFile})`);
    expect(second.stderr).toContain('if no Companion is running, delete that file');

    const third = await serve(['--runtime-dir', runtime, '--allow-second']);
    const [, socketPath] = await third.waitForStdout(LISTENING);
    expect(socketPath).toBe(path.join(runtime, 'discord-ipc-1'));
    expect(third.stdout).toContain('discord-ipc-0: held by another running server; left alone');
    // The second host is still reachable by client commands, through its own runtime file.
    const secondFile = path.join(runtime, 'companion', 'host-1.json');
    // Printed after the listening line, possibly in a later read.
    await third.waitForStdout(/token in \S+host-1\.json/);
    expect(third.stdout).toContain(`token in ${secondFile}`);
    expect(JSON.parse(await readFile(secondFile, 'utf8'))).toMatchObject({ pid: third.child.pid, ipc: { index: 1 }, control: { url: expect.any(String) } });
    third.kill('SIGTERM');
    await third.exited;
    await expect(lstat(secondFile)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('takes over from a host that died without cleaning up', async () => {
    const runtime = await dir();
    const crashed = await serve(['--runtime-dir', runtime]);
    await crashed.waitForStdout(LISTENING);
    crashed.kill('SIGKILL');
    await crashed.exited;
    const next = await serve(['--runtime-dir', runtime]);
    const [, socketPath] = await next.waitForStdout(LISTENING);
    expect(socketPath).toBe(path.join(runtime, 'discord-ipc-0'));
    expect(next.stdout).toContain('Removed stale sockets: discord-ipc-0');
  });
});

describe('command line', () => {
  it('prints help and version for the program and for serve', async () => {
    for (const args of [['--help'], ['help'], ['help', 'serve'], ['serve', '--help'], ['serve', '-h']]) {
      const result = await CliProcess.complete(args);
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stdout).toMatch(/^Usage: companion/);
    }
    for (const args of [['--version'], ['serve', '--version'], ['help', '--version']]) {
      const result = await CliProcess.complete(args);
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stdout).toMatch(/^companion \d+\.\d+\.\d+\n$/);
    }
    const helpHelp = await CliProcess.complete(['help', '--help']);
    expect(helpHelp.code).toBe(0);
    expect(helpHelp.stdout).toMatch(/^Usage: companion/);
  });

  it('prints usage on stderr with exit code 2 when no command is given', async () => {
    const result = await CliProcess.complete([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Usage: companion/);
  });

  it('names the problem when the runtime directory cannot be used, and leaves nothing behind', async () => {
    const base = await dir();
    const file = path.join(base, 'a-file');
    await writeFile(file, '');
    const notADir = await CliProcess.complete(['serve', '--runtime-dir', file]);
    expect(notADir.code).toBe(1);
    expect(notADir.stderr).toMatch(/^companion serve: cannot start: EEXIST/);
    expect(notADir.stderr).not.toMatch(/\n\s+at /); // no stack trace

    const long = path.join(base, 'b'.repeat(120));
    const tooLong = await CliProcess.complete(['serve', '--runtime-dir', long]);
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toContain('is longer than the 107 bytes a Unix socket path may have');
    expect(await readdir(base)).toEqual(['a-file']); // not even the directory was created
  });

  // A race guard, not a proof: the lock that wrote host.json after creating it let two
  // hosts in about one start in five with six starters, so this catches such a race in
  // about two runs of three.
  it('starts exactly one host when several start at the same moment', async () => {
    for (let trial = 0; trial < 5; trial += 1) {
      const runtime = await dir();
      const starters = await Promise.all(Array.from({ length: 6 }, () => serve(['--runtime-dir', runtime])));
      const outcomes = await Promise.all(
        starters.map((proc) =>
          Promise.race([
            proc.waitForStdout(LISTENING).then(() => 'listening'),
            proc.exited.then(({ code }) => `exit ${code}`),
          ]).catch(() => 'error'),
        ),
      );
      expect(outcomes.filter((o) => o === 'listening'), `trial ${trial}: ${outcomes.join(', ')}`).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'exit 1')).toHaveLength(5);
    }
  });

  it('takes over a runtime file whose pid is alive but whose socket is gone (a pid reused after a reboot)', async () => {
    const runtime = await dir();
    await mkdir(path.join(runtime, 'companion'), { recursive: true });
    const stale = { pid: 1, version: '0.0.1', startedAt: '2026-01-01T00:00:00.000Z', ipc: { path: path.join(runtime, 'discord-ipc-0'), index: 0 } };
    await writeFile(path.join(runtime, 'companion', 'host.json'), JSON.stringify(stale));
    const proc = await serve(['--runtime-dir', runtime]);
    expect((await proc.waitForStdout(LISTENING))[1]).toBe(path.join(runtime, 'discord-ipc-0'));
    expect(JSON.parse(await readFile(path.join(runtime, 'companion', 'host.json'), 'utf8')).pid).toBe(proc.child.pid);
  });

  it('names an unknown option, an unknown command and a bad log level, with exit code 2', async () => {
    const option = await CliProcess.complete(['serve', '--bogus']);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("Unknown option '--bogus'");
    const command = await CliProcess.complete(['dance']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("unknown command 'dance'");
    const level = await CliProcess.complete(['serve', '--log-level', 'loud']);
    expect(level.code).toBe(2);
    expect(level.stderr).toContain('--log-level must be one of error, warn, info, debug, trace');
  });
});

describe('issue 25 §4.3: serve --max-connections-per-program', () => {
  it('lets one program hold that many RPC connections, refuses one more with CLOSE 4002, and names a bad value with exit code 2', async () => {
    const runtime = await dir();
    const proc = await serve(['--runtime-dir', runtime, '--max-connections-per-program', '2']);
    const [, socketPath] = await proc.waitForStdout(LISTENING);
    const held = [(await RawClient.ready(socketPath!)).client, (await RawClient.ready(socketPath!)).client];
    const extra = await RawClient.connect(socketPath!);
    expect((await extra.next(5000)).payload).toEqual({ code: 4002, message: 'Too many connections from one program (at most 2)' });
    for (const client of held) client.close();
    for (const bad of ['0', '1025', 'many']) {
      const refused = await CliProcess.complete(['serve', '--max-connections-per-program', bad]);
      expect(refused.code, bad).toBe(2);
      expect(refused.stderr).toContain('--max-connections-per-program must be a whole number from 1 to 1024');
    }
  });
});

describe('serve: the platform account', () => {
  it('signs in as a demo user with --user, and names an unknown one with exit code 1', async () => {
    const runtime = await dir();
    const proc = await serve(['--runtime-dir', runtime, '--user', 'bob']);
    await proc.waitForStdout(/Signed in as bob\n/);
    expect(proc.stdout).toMatch(/Platform: http:\/\/127\.0\.0\.1:\d+ \(embedded emulator\)\n/);
    const host = JSON.parse(await readFile(path.join(runtime, 'companion', 'host.json'), 'utf8'));
    expect(host.control.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(proc.stdout).not.toContain(host.control.token);

    const unknown = await CliProcess.complete(['serve', '--runtime-dir', await dir(), '--user', 'mallory'], { XDG_CONFIG_HOME: await dir() });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("cannot sign in: no user named 'mallory' on the platform");
  });

  it('signs in with a token from --token-file or COMPANION_TOKEN, never from argv, and names bad input with exit code 2', async () => {
    const config = await dir();
    const runtime = await dir();
    const first = await serve(['--runtime-dir', runtime], { XDG_CONFIG_HOME: config });
    await first.waitForStdout(/Signed in as alice\n/);
    const host = JSON.parse(await readFile(path.join(runtime, 'companion', 'host.json'), 'utf8'));
    const carol = { token: await devLoginToken(host.platform.url, 'carol') };
    const tokenFile = path.join(await dir(), 'token');
    await writeFile(tokenFile, `${carol.token}\n`);

    const byFile = CliProcess.run(['serve', '--runtime-dir', await dir(), '--data-dir', await dir(), '--platform', host.platform.url, '--token-file', tokenFile]);
    track(byFile);
    await byFile.waitForStdout(/Signed in as carol\n/);
    const byEnv = CliProcess.run(['serve', '--runtime-dir', await dir(), '--data-dir', await dir(), '--platform', host.platform.url], { COMPANION_TOKEN: carol.token });
    track(byEnv);
    await byEnv.waitForStdout(/Signed in as carol\n/);

    const both = await CliProcess.complete(['serve', '--user', 'bob', '--token-file', tokenFile]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give only one of --user, --token-file and COMPANION_TOKEN');
    const missing = await CliProcess.complete(['serve', '--token-file', path.join(runtime, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--token-file: cannot read');
    const badConsent = await CliProcess.complete(['serve', '--consent', 'maybe']);
    expect(badConsent.code).toBe(2);
    expect(badConsent.stderr).toContain("--consent must be one of prompt, approve, deny, got 'maybe'");
    const badUrl = await CliProcess.complete(['serve', '--platform', 'ftp://example']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain("--platform must be an http(s) URL, got 'ftp://example'");
  });
});

describe('npm start', () => {
  it('says in one line why it does not start Electron and runs the headless host', async () => {
    // Where this machine has a usable Electron, npm start would run it: turn it off for this test.
    const built = (await import(path.join(REPO_ROOT, 'out/main/src/start.js'))) as typeof StartModule;
    const electron = built.chooseElectron(built.systemProbe()).kind === 'electron';
    const runtime = await dir();
    const env = { XDG_CONFIG_HOME: await dir(), ...(electron ? { COMPANION_HEADLESS: '1' } : {}) };
    const proc = CliProcess.run(['--runtime-dir', runtime], env, 'bin/start.js');
    track(proc);
    await proc.waitForStdout(LISTENING);
    const lines = proc.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      electron ? /^Electron not used \(COMPANION_HEADLESS is set\); starting the headless host\.$/ : /^(No Electron binary found|Electron found at) .*; starting the headless host\.$/,
    );
    expect(lines[1]).toContain(path.join(runtime, 'discord-ipc-0'));
  });
});
