/**
 * issue 27 §1 (c): the CLI's loopback calls to the control API (`companion control ...`, the
 * event stream) go through node:http. Global fetch breaks under Wine 8 on its keep-alive
 * connections (main/test/windows/ runs `companion control` there); here fetch is made to
 * fail, and the calls must still work against a real HTTP server.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, ControlRequestError } from '../../../src/base/control-client.js';
import type { HostEndpoint } from '../../../src/base/host-locator.js';
import { streamEvents } from '../../../src/shells/cli/control-events.js';

let server: http.Server;
let host: HostEndpoint;
const seen: { method: string; url: string; authorization: string | undefined; body: string }[] = [];

beforeEach(async () => {
  vi.stubGlobal('fetch', () => Promise.reject(new TypeError('fetch failed (as under Wine 8)')));
  seen.length = 0;
  server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (text: string) => (body += text));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', authorization: request.headers.authorization, body });
      if (request.url === '/v1/events') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end('event: hello\ndata: {"a":1}\n\nevent: game\ndata: {"b":2}\n\n');
      } else if (request.url === '/v1/refused') {
        response.writeHead(409, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'no such request' }));
      } else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: body === '' ? null : JSON.parse(body) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 'test-token', source: 'host.json' };
});

afterEach(async () => {
  vi.unstubAllGlobals();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('issue 27 §1: companion control does not depend on global fetch', () => {
  it('a GET and a POST with a body reach the control API with the bearer token, and the answer comes back', async () => {
    expect(await call(host, 'GET', '/v1/status')).toEqual({ echo: null });
    expect(await call(host, 'POST', '/v1/presence', { policy: 'most-recent' })).toEqual({ echo: { policy: 'most-recent' } });
    expect(seen.map((request) => [request.method, request.url, request.authorization])).toEqual([
      ['GET', '/v1/status', 'Bearer test-token'],
      ['POST', '/v1/presence', 'Bearer test-token'],
    ]);
  });

  it("a refusal is a ControlRequestError with the API's status and message", async () => {
    const error = await call(host, 'GET', '/v1/refused').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ControlRequestError);
    expect(error).toMatchObject({ status: 409, message: 'no such request' });
  });

  it('the event stream prints one line per event', async () => {
    const lines: string[] = [];
    const io = { stdout: (text: string) => lines.push(text), stderr: () => undefined } as unknown as Parameters<typeof streamEvents>[1];
    expect(await streamEvents(host, io)).toBe(0);
    expect(lines).toEqual(['hello {"a":1}\n', 'game {"b":2}\n']);
  });
});
