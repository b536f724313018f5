import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { activationFromEnv, withoutActivationVars } from '../../../src/diagnostics/systemd/activation.js';
import { installSockets, manifestPath, uninstallSockets, userUnitDir, type Systemctl } from '../../../src/diagnostics/systemd/install-sockets.js';
import { socketUnitFiles, systemdQuote, UNIT_MARKER } from '../../../src/diagnostics/systemd/socket-units.js';
import { CliProcess } from '../../support/cli-process.js';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function temp(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'companion-units-'));
  made.push(dir);
  return dir;
}

const EXEC = ['/usr/bin/node', '/opt/companion/bin/companion.js', 'serve'];

describe('socket units', () => {
  it('writes a socket unit per directory, named for socket activation, and the service', () => {
    const units = socketUnitFiles({ execStart: EXEC, index: 0, flatpak: true, snap: false });
    expect(units.map((u) => u.name)).toEqual(['companion-ipc.socket', 'companion-ipc-flatpak.socket', 'companion.service']);
    const [prefix, flatpak, service] = units.map((u) => u.content);
    expect(prefix).toBe(
      [
        UNIT_MARKER,
        '[Unit]',
        'Description=Companion local RPC socket discord-ipc-0 in XDG_RUNTIME_DIR',
        '',
        '[Socket]',
        'ListenStream=%t/discord-ipc-0',
        'SocketMode=0600',
        'DirectoryMode=0700',
        'RemoveOnStop=yes',
        'FileDescriptorName=companion-prefix-0',
        'Service=companion.service',
        '',
        '[Install]',
        'WantedBy=sockets.target',
        '',
      ].join('\n'),
    );
    expect(flatpak).toContain('ListenStream=%t/app/com.discordapp.Discord/discord-ipc-0\n');
    expect(flatpak).toContain('FileDescriptorName=companion-flatpak-0\n');
    expect(service).toContain('Requires=companion-ipc.socket companion-ipc-flatpak.socket\n');
    expect(service).toContain('ExecStart=/usr/bin/node /opt/companion/bin/companion.js serve\n');
  });

  it('holds the chosen index, adds Snap on request and drops Flatpak on request', () => {
    const units = socketUnitFiles({ execStart: EXEC, index: 3, flatpak: false, snap: true });
    expect(units.map((u) => u.name)).toEqual(['companion-ipc.socket', 'companion-ipc-snap.socket', 'companion.service']);
    expect(units[1]?.content).toContain('ListenStream=%t/snap.discord/discord-ipc-3\n');
    expect(units[1]?.content).toContain('FileDescriptorName=companion-snap-3\n');
  });

  it('quotes ExecStart words with spaces, and takes % and $ literally', () => {
    expect(systemdQuote('/usr/bin/node')).toBe('/usr/bin/node');
    expect(systemdQuote('/home/me/My Games/bin/companion.js')).toBe('"/home/me/My Games/bin/companion.js"');
    expect(systemdQuote('/opt/100%/x')).toBe('/opt/100%%/x');
    expect(systemdQuote('/opt/$HOME/"x"')).toBe('"/opt/$$HOME/\\"x\\""');
  });
});

describe('install-sockets / uninstall-sockets', () => {
  function recordingSystemctl(): { calls: string[][]; systemctl: Systemctl } {
    const calls: string[][] = [];
    return { calls, systemctl: async (args) => (calls.push([...args]), { ok: true }) };
  }

  it('installs into XDG_CONFIG_HOME, enables the sockets, and uninstall removes exactly that', async () => {
    const config = await temp();
    const env = { XDG_CONFIG_HOME: config };
    const unitDir = path.join(config, 'systemd', 'user');
    await mkdir(unitDir, { recursive: true });
    await writeFile(path.join(unitDir, 'someone-else.service'), '[Service]\n');
    const { calls, systemctl } = recordingSystemctl();
    const lines = await installSockets(env, { execStart: EXEC, index: 0, flatpak: true, snap: false }, systemctl);
    expect(userUnitDir(env)).toBe(unitDir);
    expect(lines).toEqual([
      `wrote ${unitDir}/companion-ipc.socket`,
      `wrote ${unitDir}/companion-ipc-flatpak.socket`,
      `wrote ${unitDir}/companion.service`,
      `recorded them in ${manifestPath(env)}`,
      'ran systemctl --user daemon-reload',
      'ran systemctl --user enable companion-ipc.socket companion-ipc-flatpak.socket',
    ]);
    expect(calls).toEqual([['daemon-reload'], ['enable', 'companion-ipc.socket', 'companion-ipc-flatpak.socket']]);
    expect((await readdir(unitDir)).sort()).toEqual(['companion-ipc-flatpak.socket', 'companion-ipc.socket', 'companion.service', 'someone-else.service']);

    calls.length = 0;
    const removed = await uninstallSockets(env, systemctl);
    expect(calls).toEqual([['disable', '--now', 'companion-ipc.socket', 'companion-ipc-flatpak.socket'], ['stop', 'companion.service'], ['daemon-reload']]);
    expect(removed).toContain(`removed ${unitDir}/companion.service`);
    expect(await readdir(unitDir)).toEqual(['someone-else.service']);
    expect(await uninstallSockets(env, systemctl)).toEqual([`nothing to remove: no install recorded (${manifestPath(env)} does not exist)`]);
  });

  it('skips systemctl with a note when there is none', async () => {
    const env = { XDG_CONFIG_HOME: await temp() };
    const lines = await installSockets(env, { execStart: EXEC, index: 0, flatpak: false, snap: false }, undefined);
    expect(lines.at(-1)).toBe("systemctl not found: skipped 'systemctl --user daemon-reload' and 'systemctl --user enable companion-ipc.socket'; run them where your user session has systemd");
  });

  it('never overwrites a unit it did not write, and leaves one edited since install in place', async () => {
    const config = await temp();
    const env = { XDG_CONFIG_HOME: config };
    const unitDir = path.join(config, 'systemd', 'user');
    await mkdir(unitDir, { recursive: true });
    await writeFile(path.join(unitDir, 'companion.service'), '[Service]\nExecStart=/bin/true\n');
    await expect(installSockets(env, { execStart: EXEC, index: 0, flatpak: true, snap: false }, undefined)).rejects.toThrow(
      `${unitDir}/companion.service exists and was not written by 'companion install-sockets'`,
    );
    await rm(path.join(unitDir, 'companion.service'));
    await installSockets(env, { execStart: EXEC, index: 0, flatpak: true, snap: false }, undefined);
    await writeFile(path.join(unitDir, 'companion.service'), `${await readFile(path.join(unitDir, 'companion.service'), 'utf8')}Environment=X=1\n`);
    const lines = await uninstallSockets(env, undefined);
    expect(lines).toContain(`left ${unitDir}/companion.service in place: it was changed since install-sockets wrote it`);
    expect(await readdir(unitDir)).toEqual(['companion.service']);
  });

  it('a second install with fewer units removes the ones it no longer has', async () => {
    const env = { XDG_CONFIG_HOME: await temp() };
    await installSockets(env, { execStart: EXEC, index: 0, flatpak: true, snap: true }, undefined);
    const lines = await installSockets(env, { execStart: EXEC, index: 0, flatpak: true, snap: false }, undefined);
    expect(lines).toContain(`removed ${userUnitDir(env)}/companion-ipc-snap.socket (no longer part of the install)`);
  });
});

describe('the commands', () => {
  it('install-sockets runs systemctl from PATH and prints what it did; uninstall-sockets undoes it', async () => {
    const config = await temp();
    const bin = await temp();
    const log = path.join(bin, 'calls.log');
    await writeFile(path.join(bin, 'systemctl'), `#!/bin/sh\necho "$@" >> ${JSON.stringify(log)}\n`);
    await chmod(path.join(bin, 'systemctl'), 0o755);
    const env = { XDG_CONFIG_HOME: config, PATH: `${bin}:/usr/bin:/bin` };
    const install = await CliProcess.complete(['install-sockets', '--index', '2'], env);
    expect(install.code).toBe(0);
    expect(install.stdout).toContain(`wrote ${config}/systemd/user/companion-ipc.socket\n`);
    expect(install.stdout).toContain('ran systemctl --user enable companion-ipc.socket companion-ipc-flatpak.socket\n');
    const socketUnit = await readFile(path.join(config, 'systemd', 'user', 'companion-ipc.socket'), 'utf8');
    expect(socketUnit).toContain('ListenStream=%t/discord-ipc-2\n');
    const service = await readFile(path.join(config, 'systemd', 'user', 'companion.service'), 'utf8');
    expect(service).toMatch(/ExecStart=\S+node\S* \S+\/bin\/companion\.js serve\n/);

    const uninstall = await CliProcess.complete(['uninstall-sockets'], env);
    expect(uninstall.code).toBe(0);
    expect(await readdir(path.join(config, 'systemd', 'user'))).toEqual([]);
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual([
      '--user daemon-reload',
      '--user enable companion-ipc.socket companion-ipc-flatpak.socket',
      '--user disable --now companion-ipc.socket companion-ipc-flatpak.socket',
      '--user stop companion.service',
      '--user daemon-reload',
    ]);
  });

  it('prints a note when systemctl is missing, and names a bad --index', async () => {
    const env = { XDG_CONFIG_HOME: await temp(), PATH: await temp() };
    const install = await CliProcess.complete(['install-sockets'], env);
    expect(install.code).toBe(0);
    expect(install.stdout).toContain('systemctl not found: skipped');
    const bad = await CliProcess.complete(['install-sockets', '--index', '10'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--index must be a number from 0 to 9, got '10'");
  });
});

describe('socket activation environment', () => {
  it("adopts Companion's named sockets for this pid only, and ignores others", () => {
    const env = { LISTEN_PID: '42', LISTEN_FDS: '3', LISTEN_FDNAMES: 'companion-prefix-0:companion-flatpak-1:other.socket' };
    expect(activationFromEnv(env, 42)).toEqual({
      adopted: [
        { fd: 3, kind: 'prefix', index: 0 },
        { fd: 4, kind: 'flatpak', index: 1 },
      ],
      ignored: [{ fd: 5, name: 'other.socket' }],
    });
    expect(activationFromEnv(env, 43)).toEqual({ adopted: [], ignored: [] });
    expect(withoutActivationVars({ ...env, HOME: '/h' })).toEqual({ HOME: '/h' });
  });
});
