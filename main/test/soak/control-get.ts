/* eslint-disable @typescript-eslint/no-explicit-any -- control API bodies are checked by the caller */
import http from 'node:http';

export interface ControlApi {
  readonly url: string;
  readonly token: string;
}

/**
 * GET on a host's control API on a connection of its own, closed after the reply (no
 * keep-alive): a pooled connection would hold an fd in the host between requests and
 * blur the fd count the soak measures.
 */
export function controlGet(control: ControlApi, route: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${control.url}${route}`, { agent: false, headers: { Authorization: `Bearer ${control.token}` } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: response.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text) });
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
      response.on('error', reject);
    });
    request.setTimeout(10_000, () => request.destroy(new Error(`GET ${route}: no answer within 10 s`)));
    request.on('error', reject);
  });
}
