import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { IdleConnectionChecks } from '../../src/node/idle-connection-checks.js';
import { listenLoopbackHttp } from '../../src/node/loopback-http.js';

const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function served(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(() => new Promise((resolve) => server.close(resolve)));
  return (server.address() as AddressInfo).port;
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe("issue 27 §4: Node's HTTP connection checks run only while a server holds a connection", () => {
  it('none while idle; a connection starts them; its close stops them', async () => {
    const server = http.createServer((_request, response) => response.end('ok'));
    const checks = IdleConnectionChecks.attach(server);
    const port = await served(server);
    expect(checks.armed).toBe(false);
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    await until(() => checks.armed);
    socket.destroy();
    await until(() => !checks.armed);
  });

  it('a request that does not finish its headers is still timed out (408) while checks run', async () => {
    const server = http.createServer({ connectionsCheckingInterval: 50 } as http.ServerOptions, (_request, response) => response.end('ok'));
    server.headersTimeout = 200;
    server.requestTimeout = 300;
    const checks = IdleConnectionChecks.attach(server);
    const port = await served(server);
    expect(checks.armed).toBe(false);
    const socket = net.connect(port, '127.0.0.1');
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    await new Promise((resolve) => socket.once('close', resolve));
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    await until(() => !checks.armed);
  });

  it('an upgraded connection (a WebSocket) is not one: the checks stop once it is upgraded', async () => {
    const server = http.createServer();
    server.on('upgrade', (_request, upgraded: net.Socket) => {
      closing.push(async () => upgraded.destroy());
      upgraded.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n');
    });
    const checks = IdleConnectionChecks.attach(server);
    const port = await served(server);
    const socket = net.connect(port, '127.0.0.1');
    closing.push(async () => socket.destroy());
    socket.write('GET / HTTP/1.1\r\nHost: x\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n');
    await new Promise((resolve) => socket.once('data', resolve));
    await until(() => !checks.armed);
    expect(socket.destroyed).toBe(false);
  });

  it('the loopback servers (control API, web UI) use it', async () => {
    const loopback = await listenLoopbackHttp();
    closing.push(() => loopback.close());
    expect(loopback.connectionChecks.armed).toBe(false);
  });
});
