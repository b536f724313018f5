import net from 'node:net';

/** An HTTP answer read off a raw socket: the status, the headers (lower-case names) and the body. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface RawRequest {
  readonly port: number;
  readonly method: string;
  readonly path: string;
  /** Sent exactly as given (Host included: nothing is added but what `body` needs). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Answered when only the head arrived (an upgrade's 101, or an answer to a body never sent). */
  readonly headOnly?: boolean;
}

const UPGRADE_HEADERS = {
  Upgrade: 'websocket',
  Connection: 'Upgrade',
  'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
  'Sec-WebSocket-Version': '13',
} as const;

function parseHead(head: string): { status: number; headers: Record<string, string> } {
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers };
}

/**
 * One request over a fresh socket, written byte for byte (a browser page's request can carry
 * any Host and Origin: DNS rebinding). Resolves with the answer once its body is in (or its
 * head, with `headOnly`); rejects after `timeoutMs`, e.g. when the server waits for a body.
 */
export function rawHttp(request: RawRequest, timeoutMs = 5000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(request.port, '127.0.0.1');
    let data = Buffer.alloc(0);
    const done = (outcome: RawAnswer | Error): void => {
      clearTimeout(timer);
      socket.destroy();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const timer = setTimeout(() => done(new Error(`no answer to ${request.method} ${request.path} within ${timeoutMs} ms`)), timeoutMs);
    const settleIfWhole = (ended: boolean): void => {
      const end = data.indexOf('\r\n\r\n');
      if (end === -1) {
        if (ended) done(new Error(`the connection closed without an answer to ${request.method} ${request.path}`));
        return;
      }
      const { status, headers } = parseHead(data.subarray(0, end).toString('latin1'));
      const body = data.subarray(end + 4);
      const length = Number(headers['content-length'] ?? NaN);
      if (request.headOnly === true || ended || body.length >= length) done({ status, headers, body: body.toString('utf8') });
    };
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      settleIfWhole(false);
    });
    socket.on('end', () => settleIfWhole(true));
    socket.on('error', (error) => done(error));
    // Closed after the answer, so an answer without a length (204) ends too.
    const headers: Record<string, string> = { Connection: 'close', ...request.headers };
    if (request.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(request.body));
    const head = `${request.method} ${request.path} HTTP/1.1\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
    socket.write(head + (request.body ?? ''));
  });
}

/** A WebSocket upgrade request: the answer's head (101 when it was accepted). */
export function rawUpgrade(port: number, path: string, headers: Readonly<Record<string, string>>): Promise<RawAnswer> {
  return rawHttp({ port, method: 'GET', path, headers: { ...UPGRADE_HEADERS, ...headers }, headOnly: true });
}

/** The path of a route pattern, `:name` segments filled in. */
export function fillPattern(pattern: string): string {
  return pattern.replace(/:[A-Za-z_]+/g, '1');
}
