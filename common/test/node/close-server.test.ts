import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { closeServer } from '../../src/node/close-server.js';

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

describe('closeServer', () => {
  it('closes an HTTP server that still holds an idle keep-alive connection', async () => {
    const server = http.createServer((_request, response) => response.end('ok'));
    const port = await listen(server);
    const agent = new http.Agent({ keepAlive: true });
    const status = await new Promise<number | undefined>((resolve) => {
      http.get({ host: '127.0.0.1', port, agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode));
      });
    });
    expect(status).toBe(200);
    await closeServer(server);
    expect(server.listening).toBe(false);
    agent.destroy();
  });

  it('runs drain after the server stops accepting and before it is closed', async () => {
    const server = net.createServer();
    const port = await listen(server);
    const seen: string[] = [];
    await closeServer(server, {
      drain: async () => {
        seen.push(`listening: ${server.listening}`);
        const refused = await new Promise<boolean>((resolve) => {
          const socket = net.createConnection(port, '127.0.0.1');
          socket.once('connect', () => {
            socket.destroy();
            resolve(false);
          });
          socket.once('error', () => resolve(true));
        });
        seen.push(`refused: ${refused}`);
      },
    });
    expect(seen).toEqual(['listening: false', 'refused: true']);
  });

  it('resolves at once for a server that is not listening, after drain', async () => {
    let drained = false;
    await closeServer(net.createServer(), { drain: async () => void (drained = true) });
    expect(drained).toBe(true);
  });
});
