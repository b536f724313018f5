import WebSocket from 'ws';
import { httpRequest } from '../../base/http-request.js';

/**
 * A minimal client of a running host's web UI bridge, for the two things a scenario needs that
 * the control API does not offer: changing the consent policy (the UI's settings) and
 * dismissing a consent prompt. It does what a browser does: trades the runtime file's UI token
 * for the session cookie, then calls over the `/bridge` WebSocket.
 */
export class UiBridgeClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => this.onMessage(data.toString()));
    socket.on('close', () => {
      for (const waiter of this.pending.values()) waiter.reject(new Error('the web UI bridge closed'));
      this.pending.clear();
    });
  }

  /** `ui`: the runtime file's `webUi` entry (`url` is the UI's base URL). */
  static async connect(ui: { readonly url: string; readonly token: string }): Promise<UiBridgeClient> {
    const base = new URL(ui.url);
    const login = await httpRequest(`${base.origin}/?token=${encodeURIComponent(ui.token)}`, { method: 'GET', headers: {}, timeoutMs: 5000 });
    const setCookie = login.headers['set-cookie']?.[0];
    if (login.status !== 302 || setCookie === undefined) throw new Error(`the web UI at ${base.origin} refused its runtime file's token (HTTP ${login.status})`);
    const cookie = setCookie.split(';')[0] as string;
    const socket = new WebSocket(`ws://${base.host}/bridge`, { headers: { Cookie: cookie } });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', (error) => reject(new Error(`cannot open the web UI bridge at ${base.origin}: ${error.message}`)));
    });
    return new UiBridgeClient(socket);
  }

  call(channel: string, args: readonly unknown[]): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the web UI bridge did not answer ${channel}`));
      }, 5000);
      this.pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.socket.send(JSON.stringify({ id, channel, args }));
    });
  }

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
      setTimeout(() => {
        this.socket.terminate();
        resolve();
      }, 1000).unref();
    });
  }

  private onMessage(text: string): void {
    let message: { id?: unknown; ok?: unknown; result?: unknown; error?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (typeof message.id !== 'number') return; // a push
    const waiter = this.pending.get(message.id);
    if (waiter === undefined) return;
    this.pending.delete(message.id);
    if (message.ok === true) waiter.resolve(message.result);
    else waiter.reject(new Error(typeof message.error === 'string' ? message.error : 'the web UI bridge refused the call'));
  }
}
