import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { http } from '../../../common/src/node/http-module.js';

export interface HttpResult {
  readonly status: number;
  readonly statusText: string;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** A failed request without an HTTP answer: `code` is the socket error (ECONNREFUSED, ...) or 'TIMEOUT'. */
export class HttpRequestError extends Error {
  constructor(readonly code: string) {
    super(code);
    this.name = 'HttpRequestError';
  }
}

/**
 * One HTTP request with node:http. The host uses this rather than global fetch: fetch loads
 * undici on first use, about 10 MiB of resident memory for a few small JSON calls.
 */
export function httpRequest(
  url: string,
  options: { method: string; headers: Record<string, string>; body?: string; timeoutMs: number },
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const transport = target.protocol === 'https:' ? https : http;
    const headers = { ...options.headers };
    if (options.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(options.body));
    const request = transport.request(target, { method: options.method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          statusText: response.statusMessage ?? '',
          headers: response.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', (error: NodeJS.ErrnoException) => reject(new HttpRequestError(error.code ?? 'ERESPONSE')));
    });
    request.setTimeout(options.timeoutMs, () => request.destroy(new HttpRequestError('TIMEOUT')));
    request.on('error', (error: NodeJS.ErrnoException) => reject(error instanceof HttpRequestError ? error : new HttpRequestError(error.code ?? 'EREQUEST')));
    request.end(options.body);
  });
}
