import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RPC_HTTP_PORTS, startRpcHttpProbe, type RpcHttpProbe } from '../src/rpc-http-probe.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Holds a port the way another program would; resolves null if it is already taken. */
function hold(port: number): Promise<net.Server | null> {
  return new Promise((resolve) => {
    const server = net.createServer((socket) => socket.destroy());
    server.once('error', () => resolve(null));
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => {
      cleanups.push(() => new Promise<void>((done) => server.close(() => done())));
      resolve(server);
    });
  });
}

async function start(options: Parameters<typeof startRpcHttpProbe>[0] = {}): Promise<RpcHttpProbe> {
  const result = await startRpcHttpProbe(options);
  if (result.probe === null) throw new Error(`probe did not start: ${result.reason}`);
  const probe = result.probe;
  cleanups.push(() => probe.close());
  return probe;
}

function get(port: number, path = '/', method = 'GET'): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, method, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'], body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('the npm discord-rpc HTTP probe', () => {
  it('listens on 6463, or the first free port after it, and answers GET / with a JSON 404', async () => {
    const probe = await start();
    expect(probe.host).toBe('127.0.0.1');
    expect(RPC_HTTP_PORTS).toContain(probe.port);
    const reply = await get(probe.port);
    expect(reply.status).toBe(404);
    expect(reply.type).toBe('application/json');
    expect(JSON.parse(reply.body)).toEqual({ message: '404: Not Found', code: 0 });
  });

  it('answers every path and method with 404', async () => {
    const probe = await start();
    for (const [path, method] of [['/rpc?v=1', 'GET'], ['/anything', 'POST'], ['/', 'HEAD']] as const) {
      expect((await get(probe.port, path, method)).status, `${method} ${path}`).toBe(404);
    }
  });

  it('takes the next free port when 6463 is held by another server', async () => {
    // Hold 6463 ourselves; if something else already holds it, that does the same job.
    await hold(6463);
    const probe = await start();
    expect(probe.port).not.toBe(6463);
    expect(probe.port).toBeGreaterThan(6463);
    expect(probe.port).toBeLessThanOrEqual(6472);
    expect((await get(probe.port)).status).toBe(404);
  });

  it('skips taken ports in the order given and takes the first free one', async () => {
    const taken = (await hold(0)) as net.Server;
    const free = (await hold(0)) as net.Server;
    const freePort = (free.address() as AddressInfo).port;
    await new Promise<void>((done) => free.close(() => done()));
    const probe = await start({ ports: [(taken.address() as AddressInfo).port, freePort] });
    expect(probe.port).toBe(freePort);
  });

  it('resolves probe null with a reason when every port is taken', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 2; i += 1) ports.push((((await hold(0)) as net.Server).address() as AddressInfo).port);
    const result = await startRpcHttpProbe({ ports });
    expect(result.probe).toBeNull();
    expect(result).toMatchObject({ reason: expect.stringContaining('every RPC HTTP port is taken') });
    expect((result as { reason: string }).reason).toContain(String(ports[0]));
  });

  it('frees its port on close, with a client still connected', async () => {
    const probe = await start();
    const socket = net.createConnection({ host: '127.0.0.1', port: probe.port });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const socketClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    await probe.close();
    await socketClosed;
    const again = await hold(probe.port);
    expect(again).not.toBeNull();
    await probe.close(); // a second close is harmless
  });
});
