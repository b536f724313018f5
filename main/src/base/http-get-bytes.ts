import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { http } from '../../../common/src/node/http-module.js';
import type { LookupFunction } from 'node:net';

/** One GET's answer: its status, headers and body (empty when `wantBody` declined it). */
export interface BytesResult {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/**
 * A GET that ended without an answer to use: `code` is the socket's error (ECONNREFUSED, ...),
 * 'TIMEOUT' (the whole exchange took longer than allowed), 'TOO_LARGE' (the body, declared or
 * received, is over the limit) or whatever the `lookup` refused with.
 */
export class HttpBytesError extends Error {
  constructor(readonly code: string) {
    super(code);
    this.name = 'HttpBytesError';
  }
}

export interface BytesRequest {
  /** Exactly the headers sent (nothing is added but Host). */
  readonly headers: Readonly<Record<string, string>>;
  /** For the whole exchange, from the request to the body's last byte. */
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** Resolves the host name (the connection goes to what it answers); default the system's. */
  readonly lookup?: LookupFunction;
  /** Certificates trusted instead of the system's (https only). */
  readonly ca?: string;
  /** Whether to read the body of this answer; when not, the connection is dropped at once. */
  readonly wantBody?: (status: number, headers: IncomingHttpHeaders) => boolean;
}

function errorCode(error: unknown, fallback: string): string {
  if (error instanceof HttpBytesError) return error.code;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : fallback;
}

/**
 * One GET with node:http(s), its body as bytes, bounded in size and time. Not global fetch:
 * it loads undici (memory) and misbehaves under Wine (issue 27). No agent keeps the socket,
 * no proxy variables apply, no cookies or other headers than the caller's go out.
 */
export function httpGetBytes(url: URL, options: BytesRequest): Promise<BytesResult> {
  return new Promise((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    // Why this side ended the exchange: it wins over the socket errors that follow.
    let reason: string | undefined;
    const abort = (code: string): void => {
      reason ??= code;
      request.destroy();
    };
    const fail = (error: unknown, fallback: string): void => reject(new HttpBytesError(reason ?? errorCode(error, fallback)));
    const extra = { ...(options.lookup === undefined ? {} : { lookup: options.lookup }), ...(options.ca === undefined ? {} : { ca: options.ca }) };
    const request = transport.request(url, { method: 'GET', headers: { ...options.headers }, agent: false, ...extra }, (response) => {
      const status = response.statusCode ?? 0;
      if (options.wantBody !== undefined && !options.wantBody(status, response.headers)) {
        resolve({ status, headers: response.headers, body: Buffer.alloc(0) });
        return abort('DECLINED');
      }
      const declared = Number(response.headers['content-length'] ?? '0');
      if (declared > options.maxBytes) return abort('TOO_LARGE');
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > options.maxBytes) return abort('TOO_LARGE');
        chunks.push(chunk);
      });
      // An answer already read to its end still ends after an abort: the abort's reason wins.
      response.on('end', () => (reason === undefined ? resolve({ status, headers: response.headers, body: Buffer.concat(chunks) }) : fail(undefined, reason)));
      response.on('error', (error) => fail(error, 'ERESPONSE'));
    });
    const timer = setTimeout(() => abort('TIMEOUT'), options.timeoutMs);
    timer.unref();
    request.on('error', (error) => fail(error, 'EREQUEST'));
    request.on('close', () => {
      clearTimeout(timer);
      // Settled already when the body ended; otherwise the exchange ended without one.
      fail(undefined, 'ECLOSED');
    });
    request.end();
  });
}
