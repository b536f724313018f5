import { readFile } from 'node:fs/promises';
import { request } from 'node:https';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { parseServeArgs } from '../../../src/shells/cli/serve-options.js';
import { UsageError } from '../../../src/shells/cli/cli-args.js';
import { cliCleanup, CliProcess } from '../../support/cli-process.js';

const { track, dir } = cliCleanup('companion-serve-tls-');

function getJson(url: string, ca: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    request(url, { ca }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown));
    })
      .on('error', reject)
      .end();
  });
}

describe('issue 28 §3: companion serve --platform-tls (Companion and a native game on one emulator)', () => {
  it("serves the embedded emulator over https and wss as well, prints where and how to trust its CA, and the host's own platform stays plain http", async () => {
    const configHome = await dir();
    const proc = track(CliProcess.run(['serve', '--user', 'alice', '--runtime-dir', await dir(), '--platform-tls'], { XDG_CONFIG_HOME: configHome }));
    const [, plainUrl] = await proc.waitForStdout(/Platform: (http:\/\/127\.0\.0\.1:\d+) \(embedded emulator\)\n/);
    const [, tlsUrl, gatewayUrl] = await proc.waitForStdout(/TLS\) listening on (https:\/\/127\.0\.0\.1:\d+) \(gateway (wss:\S+)\)\n/);
    const caFile = path.join(configHome, 'companion', 'platform', 'tls', 'companion-ca.pem');
    await proc.waitForStdout(new RegExp(`Local certificate authority: ${caFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(new`));
    await proc.waitForStdout(/update-ca-certificates/);
    expect(plainUrl).toMatch(/^http:/);

    const ca = await readFile(caFile, 'utf8');
    expect(await getJson(`${tlsUrl}/api/v10/gateway`, ca)).toEqual({ url: gatewayUrl });
    const ws = new WebSocket(`${gatewayUrl}?v=10&encoding=json`, { ca });
    const hello = await new Promise<{ op: number }>((resolve, reject) => {
      ws.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8')) as { op: number }));
      ws.once('error', reject);
    });
    expect(hello.op).toBe(10);
    ws.terminate();
    proc.kill('SIGTERM');
    expect((await proc.exited).code).toBe(0);
  });

  it('--platform-tls is for the embedded emulator: refused with --platform, and a reserved port is a usage error', async () => {
    const io = { stdout: () => undefined, stderr: () => undefined, env: {}, version: '0.0.0-test' };
    await expect(parseServeArgs(['--platform', 'http://127.0.0.1:9', '--platform-tls'], io)).rejects.toThrow(/--platform-tls applies to the embedded emulator/);
    await expect(parseServeArgs(['--platform-tls-port', '6470'], io)).rejects.toThrow(new UsageError('--platform-tls-port 6470 is reserved for the local RPC transport (6463-6472)'));
    expect(await parseServeArgs(['--platform-tls-port', '8443'], io)).toMatchObject({ platformTls: { port: 8443 } });
  });
});
