/**
 * `companion doctor` against fake environments: temp directories standing for HOME,
 * XDG_RUNTIME_DIR, TMPDIR and /var/lib/flatpak, real sockets (Companion's listeners, another
 * server, a stale socket). The report (JSON) and its text must match the golden files in
 * main/test/diagnostics/doctor/golden/ (UPDATE_GOLDEN=1 rewrites them).
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ipcListenDirectories, ipcSocketPath, listenIpcDirectories, RpcServer, type Env } from '../../../../rpc/src/index.js';
import { TEST_IDENTITY } from '../../../../rpc/test/support/test-server.js';
import { buildDoctorReport, type DoctorOptions, type DoctorReport } from '../../../src/diagnostics/doctor/doctor-report.js';
import { formatDoctorReport } from '../../../src/diagnostics/doctor/format-report.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const GOLDEN_DIR = new URL('./golden/', import.meta.url);
const SECRETS = ['SECRET-CONTROL-TOKEN', 'SECRET-WEB-TOKEN', 'SECRET-ADMIN-TOKEN'];

interface Fake {
  readonly root: string;
  readonly home: string;
  readonly run: string;
  readonly flatpakSystem: string;
}

async function fakeEnvironment(): Promise<Fake> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'companion-doctor-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const fake = { root, home: path.join(root, 'home'), run: path.join(root, 'run', 'user', '1000'), flatpakSystem: path.join(root, 'var', 'lib', 'flatpak') };
  await mkdir(fake.home, { recursive: true });
  await mkdir(fake.run, { recursive: true, mode: 0o700 });
  return fake;
}

async function write(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

/** Companion's listeners in `env`'s directories, and a runtime file as the host writes it (tokens included). */
async function runCompanion(env: Env, prefix: string): Promise<void> {
  const server = new RpcServer({ identity: () => TEST_IDENTITY });
  const set = await listenIpcDirectories({ directories: ipcListenDirectories(env, 'linux'), onConnection: (s) => server.attach(s) });
  cleanups.push(async () => {
    const closed = set.close();
    await server.closeAll();
    await closed;
  });
  const listeners = set.listeners.map(({ directory, listener }) => ({ path: listener.path, index: listener.index, kind: directory.kind }));
  await write(
    path.join(prefix, 'companion', 'host.json'),
    JSON.stringify({
      pid: process.pid,
      version: '0.1.0',
      startedAt: '2026-01-02T03:04:05.000Z',
      ipc: { path: set.primary.path, index: set.primary.index },
      listeners,
      control: { url: 'http://127.0.0.1:1', token: SECRETS[0] },
      webUi: { url: 'http://127.0.0.1:2/', token: SECRETS[1] },
      platform: { url: 'http://127.0.0.1:3', embedded: true, adminToken: SECRETS[2] },
    }),
  );
}

async function otherServer(socketPath: string): Promise<void> {
  await mkdir(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  const server = net.createServer((socket) => socket.on('error', () => undefined));
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
}

async function staleSocket(socketPath: string): Promise<void> {
  await mkdir(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`]);
  await new Promise((resolve) => child.on('exit', resolve));
}

async function doctor(fake: Fake, env: Env, extra: Partial<DoctorOptions> = {}): Promise<DoctorReport> {
  return buildDoctorReport({
    env,
    platform: 'linux',
    uid: 1000,
    runUserDir: fake.run,
    flatpakSystemDir: fake.flatpakSystem,
    listFlatpakApps: async () => undefined,
    visible: (p) => p.startsWith(fake.root),
    ...extra,
  });
}

/** Compares with (or writes) golden/<name>.json and golden/<name>.txt, the fake root as <ROOT>. */
async function expectGolden(name: string, fake: Fake, report: DoctorReport): Promise<void> {
  const normalize = (text: string): string => text.split(fake.root).join('<ROOT>').replace(new RegExp(`\\b${process.pid}\\b`, 'g'), '<PID>');
  const json = normalize(JSON.stringify(report, null, 2)) + '\n';
  const text = normalize(formatDoctorReport(report));
  for (const secret of SECRETS) {
    expect(json).not.toContain(secret);
    expect(text).not.toContain(secret);
  }
  const files = { json: new URL(`${name}.json`, GOLDEN_DIR), txt: new URL(`${name}.txt`, GOLDEN_DIR) };
  if (process.env['UPDATE_GOLDEN'] === '1') {
    await writeFile(files.json, json);
    await writeFile(files.txt, text);
  }
  expect(json).toBe(await readFile(files.json, 'utf8'));
  expect(text).toBe(await readFile(files.txt, 'utf8'));
}

describe('companion doctor: golden fake environments', () => {
  it('Linux, Companion running, Flatpak apps with and without overrides', async () => {
    const fake = await fakeEnvironment();
    const env = { HOME: fake.home, XDG_RUNTIME_DIR: fake.run };
    await runCompanion(env, fake.run);
    const varApp = path.join(fake.home, '.var', 'app');
    for (const id of ['com.valvesoftware.Steam', 'org.example.Plain', 'com.heroicgameslauncher.hgl', 'net.example.SocketOnly', 'org.example.Revoked', 'com.discordapp.Discord']) {
      await mkdir(path.join(varApp, id), { recursive: true });
    }
    // Steam ships the grant in its manifest (system installation).
    await write(path.join(fake.flatpakSystem, 'app', 'com.valvesoftware.Steam', 'current', 'active', 'metadata'), '[Application]\nname=com.valvesoftware.Steam\n\n[Context]\nshared=network;ipc;\nfilesystems=xdg-music:ro;xdg-run/app/com.discordapp.Discord:create;xdg-pictures:ro;\n');
    const userOverrides = path.join(fake.home, '.local', 'share', 'flatpak', 'overrides');
    await write(path.join(userOverrides, 'com.heroicgameslauncher.hgl'), '[Context]\nfilesystems=xdg-run/app/com.discordapp.Discord:create;\n');
    await write(path.join(fake.flatpakSystem, 'overrides', 'net.example.SocketOnly'), '[Context]\nfilesystems=xdg-run/discord-ipc-0;\n');
    await write(path.join(fake.flatpakSystem, 'overrides', 'org.example.Revoked'), '[Context]\nfilesystems=xdg-run/app/com.discordapp.Discord;\n');
    await write(path.join(userOverrides, 'org.example.Revoked'), '[Context]\nfilesystems=!xdg-run/app/com.discordapp.Discord;home;\n');

    const report = await doctor(fake, env);
    expect(report.companion.state).toBe('running');
    expect(report.clients.filter((c) => c.reaches === 'companion').map((c) => c.id)).toEqual([
      'discord-rpc',
      'xhayper',
      'pypresence',
      'c-library',
      'rust-crate',
      'csharp',
      'social-sdk',
      'companion-sdk',
    ]);
    const fixes = Object.fromEntries((report.flatpak?.apps ?? []).map((app) => [app.id, app.fix]));
    expect(fixes).toEqual({
      'com.discordapp.Discord': null,
      'com.heroicgameslauncher.hgl': null,
      'com.valvesoftware.Steam': null,
      'net.example.SocketOnly': 'flatpak override --user --filesystem=xdg-run/app/com.discordapp.Discord:create net.example.SocketOnly',
      'org.example.Plain': 'flatpak override --user --filesystem=xdg-run/app/com.discordapp.Discord:create org.example.Plain',
      // A system override grants the directory, the user's own takes it back.
      'org.example.Revoked': 'flatpak override --user --filesystem=xdg-run/app/com.discordapp.Discord:create org.example.Revoked',
    });
    await expectGolden('linux-running-flatpak', fake, report);
  });

  it('Linux, Companion not running, another server on discord-ipc-0, a stale socket in the Flatpak directory', async () => {
    const fake = await fakeEnvironment();
    const env = { HOME: fake.home, XDG_RUNTIME_DIR: fake.run };
    await otherServer(ipcSocketPath(0, fake.run));
    await staleSocket(ipcSocketPath(3, path.join(fake.run, 'app', 'com.discordapp.Discord')));
    await mkdir(path.join(fake.home, '.var', 'app', 'org.example.Plain'), { recursive: true });
    const report = await doctor(fake, env);
    expect(report.companion.state).toBe('not-running');
    expect(report.sockets.map((s) => [s.index, s.state, s.holder])).toEqual([
      [0, 'answers', 'another server'],
      [3, 'refuses', null],
    ]);
    await expectGolden('linux-other-server-stale', fake, report);
  });

  it('Linux without XDG_RUNTIME_DIR: Companion in TMPDIR, pypresence in /run/user/<uid>, a stale runtime file', async () => {
    const fake = await fakeEnvironment();
    const tmp = path.join(fake.root, 'tmp');
    await mkdir(tmp, { mode: 0o700 });
    const env = { HOME: fake.home, TMPDIR: tmp };
    await runCompanion(env, tmp);
    const report = await doctor(fake, env);
    expect(report.clients.find((c) => c.id === 'pypresence')?.outcome.kind).toBe('fails');
    await expectGolden('linux-no-xdg-runtime-dir', fake, report);

    // The same host, gone: its runtime file stays behind.
    const gone = await doctor(fake, env, { pidAlive: () => false });
    expect(gone.companion).toEqual({ state: 'stale', runtimeFile: path.join(tmp, 'companion', 'host.json'), pid: process.pid });
  });

  it('macOS with XDG_RUNTIME_DIR and TMPDIR apart: flags the split', async () => {
    const fake = await fakeEnvironment();
    const xdg = path.join(fake.root, 'xdg');
    const gui = path.join(fake.root, 'var', 'folders', 'ab', 'T');
    await mkdir(xdg, { mode: 0o700 });
    await mkdir(gui, { recursive: true, mode: 0o700 });
    const env = { HOME: fake.home, XDG_RUNTIME_DIR: xdg, TMPDIR: `${gui}/` };
    await otherServer(ipcSocketPath(0, gui)); // the desktop client, started from the Dock
    const report = await doctor(fake, env, { platform: 'darwin' });
    expect(report.directories.map((d) => d.kind)).toEqual(['prefix', 'gui-tmpdir', 'tmp']);
    expect(report.flatpak).toBeNull();
    expect(report.findings.some((f) => f.includes("the GUI session's TMPDIR"))).toBe(true);
    await expectGolden('macos-split', fake, report);
  });
});

/** A server in a process of its own at `socketPath`, killed with SIGKILL once `ready` ran: its file stays, dead. */
async function killedLater(socketPath: string, ready: () => Promise<void>): Promise<void> {
  await mkdir(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => process.stdout.write('up'))`]);
  await new Promise((resolve) => child.stdout.once('data', resolve));
  try {
    await ready();
  } finally {
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  }
}

/** Each finding about a dead path names exactly the libraries whose outcome in the list fails there. */
function expectFindingsAgreeWithClients(report: DoctorReport): void {
  for (const slot of report.sockets.filter((s) => s.state === 'refuses' || s.state === 'file')) {
    const finding = report.findings.find((f) => f.startsWith(`${slot.path} `));
    expect(finding, slot.path).toBeDefined();
    for (const client of report.clients) {
      const stops = client.outcome.kind === 'fails' && client.outcome.path === slot.path;
      expect(finding!.includes(client.name), `${client.name} in "${finding}"`).toBe(stops);
    }
  }
}

describe("issue 27 §5: doctor's library list and findings agree about a stale socket", () => {
  it('a stale discord-ipc-1 beside Companion on discord-ipc-0: the Rust crate connects to discord-ipc-0, and no finding says it stops', async () => {
    const fake = await fakeEnvironment();
    const env = { HOME: fake.home, XDG_RUNTIME_DIR: fake.run };
    await runCompanion(env, fake.run);
    await staleSocket(ipcSocketPath(1, fake.run));
    const report = await doctor(fake, env, { pidAlive: () => true });
    expect(report.companion.state).toBe('running');
    const rust = report.clients.find((c) => c.id === 'rust-crate');
    expect(rust?.outcome).toEqual({ kind: 'connects', path: ipcSocketPath(0, fake.run) });
    expect(rust?.reaches).toBe('companion');
    const finding = report.findings.find((f) => f.startsWith(`${ipcSocketPath(1, fake.run)} is a stale socket`));
    expect(finding).toBeDefined();
    expect(finding).not.toMatch(/Rust crate\)? stops|and the Rust crate stop/);
    expect(finding).toContain('the running Companion removes it within seconds');
    expectFindingsAgreeWithClients(report);
  });

  it('a stale discord-ipc-0 below Companion on discord-ipc-1: the Rust crate stops there, and the finding names it', async () => {
    const fake = await fakeEnvironment();
    const env = { HOME: fake.home, XDG_RUNTIME_DIR: fake.run };
    // Another server holds discord-ipc-0 while Companion starts (it takes 1), then dies.
    await killedLater(ipcSocketPath(0, fake.run), () => runCompanion(env, fake.run));
    const report = await doctor(fake, env, { pidAlive: () => true });
    expect(report.sockets.find((s) => s.path === ipcSocketPath(0, fake.run))?.state).toBe('refuses');
    const rust = report.clients.find((c) => c.id === 'rust-crate');
    expect(rust?.outcome.kind).toBe('fails');
    expect(rust?.outcome.path).toBe(ipcSocketPath(0, fake.run));
    expect(report.findings.find((f) => f.startsWith(`${ipcSocketPath(0, fake.run)} is a stale socket`))).toContain('discord-rich-presence (Rust crate)');
    expectFindingsAgreeWithClients(report);
  });
});
