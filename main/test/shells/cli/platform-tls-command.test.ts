import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tlsFiles } from '../../../../platform/src/index.js';
import { UsageError, type CommandIo } from '../../../src/shells/cli/cli-args.js';
import { platformCommand } from '../../../src/shells/cli/platform.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'companion-platform-tls-cli-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function captureIo(onOut: (all: string) => void = () => undefined): CommandIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: (text: string) => {
      io.out += text;
      onOut(io.out);
    },
    stderr: (text: string) => void (io.err += text),
    env: {},
    version: '0.0.0-test',
  };
  return io;
}

/** Runs `platform serve` with `args` until it has printed the TLS report, then stops it; everything it printed. */
async function serveOnce(dataDir: string, args: string[]): Promise<string> {
  let reported!: () => void;
  const printed = new Promise<void>((resolve) => (reported = resolve));
  const io = captureIo((all) => {
    if (/trust it/.test(all)) reported();
  });
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const done = platformCommand(['serve', '--data', dataDir, ...args], io, { stop: stopped });
  await printed;
  stop();
  expect(await done).toBe(0);
  return io.out + io.err;
}

async function keyBodies(dataDir: string): Promise<string[]> {
  const files = tlsFiles(dataDir);
  return (await Promise.all([readFile(files.caKey, 'utf8'), readFile(files.serverKey, 'utf8')])).map((pem) => pem.split('\n')[1] ?? 'missing');
}

describe('issue 28 §3: companion platform serve --tls and platform tls tell a native game where to go and how to trust the CA', () => {
  it('prints the TLS listener, the Client(apiBase, webBase) values and, for a new CA, the trust commands of each system; never a key', async () => {
    const dataDir = await tempDir();
    const first = await serveOnce(dataDir, ['--tls']);
    const url = /TLS\) listening on (https:\/\/127\.0\.0\.1:\d+) \(gateway (wss:\/\/127\.0\.0\.1:\d+\/gateway)\)/.exec(first);
    expect(url).not.toBeNull();
    expect(first).toContain(`Client("${url?.[1]}", "${url?.[1]}")`);
    const caFile = tlsFiles(path.resolve(dataDir)).caCert;
    expect(first).toContain(`Local certificate authority: ${caFile} (new: trust it once, as below)`);
    for (const command of ['update-ca-certificates', 'update-ca-trust', 'security add-trusted-cert -d -r trustRoot', 'certutil -user -addstore Root', 'NODE_EXTRA_CA_CERTS=']) {
      expect(first).toContain(command);
    }
    for (const body of await keyBodies(dataDir)) expect(first).not.toContain(body);
    expect(first).not.toContain('PRIVATE KEY');

    // The next run reuses the CA: no new trust needed, a pointer to the instructions instead.
    const second = await serveOnce(dataDir, ['--tls-port', '0']);
    expect(second).toContain(`Local certificate authority: ${caFile}\n`);
    expect(second).toContain("How to trust it on each system: 'companion platform tls'");
  });

  it("'platform tls' prints the CA, the server certificate's expiry and the trust commands (text and --json), never a key", async () => {
    const dataDir = await tempDir();
    const text = captureIo();
    expect(await platformCommand(['tls', '--data', dataDir], text)).toBe(0);
    const files = tlsFiles(path.resolve(dataDir));
    expect(text.out).toContain(`Local certificate authority: ${files.caCert} (made now)`);
    expect(text.out).toContain(`sudo cp "${files.caCert}" /usr/local/share/ca-certificates/`);
    expect(text.out).toMatch(/valid until \d{4}-\d\d-\d\dT/);
    for (const body of await keyBodies(dataDir)) expect(text.out).not.toContain(body);

    const json = captureIo();
    expect(await platformCommand(['tls', '--data', dataDir, '--json'], json)).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({ caCertFile: files.caCert, newAuthority: false });
  });

  it('refuses a reserved or malformed --tls-port as a usage error', async () => {
    await expect(platformCommand(['serve', '--tls-port', '6463'], captureIo())).rejects.toThrow(new UsageError('--tls-port 6463 is reserved for the local RPC transport (6463-6472)'));
    await expect(platformCommand(['serve', '--tls-port', 'x'], captureIo())).rejects.toBeInstanceOf(UsageError);
  });
});
