import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWebSocket, sameUserPeerCheck, type WebSocketListener } from '../../src/transport/websocket-listener.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { freePorts, WsClient } from '../support/ws-client.js';
import { OTHER_USER, otherUserUnavailable, run } from '../support/other-user.js';

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
