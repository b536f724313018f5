import { execFileSync, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWebSocket, sameUserPeerCheck, type WebSocketListener } from '../../src/transport/websocket-listener.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { freePorts, WsClient } from '../support/ws-client.js';

const OTHER_USER = 'companion-test-other';

/** A raw WebSocket upgrade with no dependencies (the other user may not read node_modules): prints the HTTP status. */
const UPGRADE_SCRIPT = `
const http = require('node:http');
const request = http.request({
  host: '127.0.0.1', port: Number(process.argv[1]), path: '/?v=1&client_id=123456789012345678&encoding=json',
  headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' },
});
request.on('upgrade', (response, socket) => { console.log(response.statusCode); socket.destroy(); });
request.on('response', (response) => { console.log(response.statusCode); response.resume(); });
request.on('error', (error) => console.log('error ' + error.code));
request.end();
`;

function run(command: string, args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: stdout.trim(), stderr: stderr.trim() });
    });
  });
}

/** Why the other-user test cannot run here, or null when it can (creating the user if needed). */
function otherUserUnavailable(): string | null {
  if (process.platform !== 'linux') return `the kernel socket table is Linux only (this is ${process.platform})`;
  if (process.geteuid?.() !== 0) return 'creating and switching to a second OS user needs root';
  try {
    execFileSync('id', ['-u', OTHER_USER], { stdio: 'ignore' });
  } catch {
    try {
      execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', OTHER_USER], { stdio: 'ignore' });
    } catch (error) {
      return `useradd ${OTHER_USER} failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  try {
    execFileSync('runuser', ['-u', OTHER_USER, '--', process.execPath, '-e', '0'], { stdio: 'ignore', cwd: '/' });
  } catch (error) {
    return `node cannot run as ${OTHER_USER}: ${error instanceof Error ? error.message : String(error)}`;
  }
  return null;
}

let ts: TestServer;
let listener: WebSocketListener;

beforeAll(async () => {
  ts = await startTestServer();
  const result = await listenWebSocket({ server: ts.server, ports: await freePorts(1) });
  if (result.listener === null) throw new Error(result.reason);
  listener = result.listener;
});

afterAll(async () => {
  await listener.close();
  await ts.close();
});

describe('same OS user only (Linux: the kernel socket table)', () => {
  const unavailable = otherUserUnavailable();
  if (unavailable !== null) console.log(`skipping the other-OS-user WebSocket test: ${unavailable}`);

  it.skipIf(unavailable !== null)(`refuses a client run as ${OTHER_USER} with HTTP 403, and accepts the same client run as us`, async () => {
    const other = await run('runuser', ['-u', OTHER_USER, '--', process.execPath, '-e', UPGRADE_SCRIPT, String(listener.port)]);
    expect(other).toMatchObject({ code: 0, stdout: '403' });
    const same = await run(process.execPath, ['-e', UPGRADE_SCRIPT, String(listener.port)]);
    expect(same).toMatchObject({ code: 0, stdout: '101' });
  });

  it.skipIf(process.platform !== 'linux')('refuses a peer whose uid is not ours (our own client, checked against another uid)', async () => {
    const strict = await listenWebSocket({ server: ts.server, ports: await freePorts(1), peerCheck: sameUserPeerCheck({ uid: 4_000_000 }) });
    if (strict.listener === null) throw new Error(strict.reason);
    const strictListener = strict.listener;
    try {
      const ws = WsClient.open(strictListener.port, 'v=1&client_id=123456789012345678');
      expect(await ws.ended).toEqual({ status: 403 });
    } finally {
      await strictListener.close();
    }
  });

  it('lets every peer in where the OS has no socket table (the documented fallback)', async () => {
    const check = sameUserPeerCheck({ platform: 'darwin' });
    expect(await check({ address: '127.0.0.1', port: 50000 }, { address: '127.0.0.1', port: 6463 })).toEqual({ allowed: true, uid: null });
    const noProc = sameUserPeerCheck({ platform: 'linux', procRoot: '/nonexistent-proc', uid: 1000 });
    expect(await noProc({ address: '127.0.0.1', port: 50000 }, { address: '127.0.0.1', port: 6463 })).toEqual({ allowed: true, uid: null });
  });
});
