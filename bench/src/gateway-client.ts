/**
 * A raw gateway client for the platform phases: identify with a user token, keep the heartbeat,
 * hand every dispatch to a callback with its arrival time. Frames are handled as text: a
 * PRESENCE_UPDATE is recognised by its tail (`"t":"PRESENCE_UPDATE"}`, the emulator's key
 * order) so that 200 clients in one thread spend as little as possible per delivery; the
 * caller parses only what it needs.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { GatewayOp, type PresenceUpdateCommand } from '../../platform/src/wire/index.js';

const PRESENCE_TAIL = '"t":"PRESENCE_UPDATE"}';

export interface GatewayClientOptions {
  /** `ws://127.0.0.1:PORT/gateway` */
  readonly url: string;
  readonly token: string;
  /** Every PRESENCE_UPDATE, unparsed, with performance.now() at arrival. */
  readonly onPresence?: (text: string, at: number) => void;
  /** Every other dispatch, parsed. */
  readonly onDispatch?: (t: string, d: unknown, at: number) => void;
  readonly timeoutMs?: number;
}

export interface ReadyInfo {
  readonly userId: string;
  readonly sessionId: string;
  /** User ids in READY's presences (friends online then). */
  readonly onlineFriends: readonly string[];
}

export class GatewayClient {
  readonly ready: Promise<ReadyInfo>;
  /** Close code if the server closed the connection (null while open or after our own close). */
  closeCode: number | null = null;
  private readonly ws: WebSocket;
  private heartbeat: NodeJS.Timeout | undefined;
  private seq: number | null = null;
  private closedByUs = false;
  presenceMessages = 0;

  constructor(private readonly options: GatewayClientOptions) {
    this.ws = new WebSocket(`${options.url}?v=10&encoding=json`, { perMessageDeflate: false });
    this.ready = new Promise<ReadyInfo>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('gateway: no READY within timeout')), options.timeoutMs ?? 15_000);
      const fail = (error: Error): void => {
        clearTimeout(timer);
        reject(error);
      };
      this.ws.on('error', (error) => fail(new Error(`gateway: ${error.message}`)));
      this.ws.on('close', (code) => {
        this.stopHeartbeat();
        if (!this.closedByUs) this.closeCode = code;
        fail(new Error(`gateway: closed with ${code} before READY`));
      });
      this.ws.on('message', (data: WebSocket.RawData) => {
        const at = performance.now();
        const text = Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
        if (text.endsWith(PRESENCE_TAIL)) {
          this.presenceMessages += 1;
          this.options.onPresence?.(text, at);
          return;
        }
        const message = JSON.parse(text) as { op: number; d: unknown; s: number | null; t: string | null };
        if (message.s !== null) this.seq = message.s;
        if (message.op === GatewayOp.Hello) {
          const interval = (message.d as { heartbeat_interval: number }).heartbeat_interval;
          // Well inside interval × 1.5, and few enough to stay far below the send limit.
          this.heartbeat = setInterval(() => this.send({ op: GatewayOp.Heartbeat, d: this.seq }), Math.max(1000, interval * 0.75));
          this.heartbeat.unref();
          this.send({ op: GatewayOp.Identify, d: { token: options.token, properties: { os: 'linux', browser: 'companion-bench', device: 'companion-bench' } } });
        } else if (message.op === GatewayOp.Heartbeat) {
          this.send({ op: GatewayOp.Heartbeat, d: this.seq });
        } else if (message.op === GatewayOp.Dispatch && message.t !== null) {
          if (message.t === 'READY') {
            clearTimeout(timer);
            const d = message.d as { user: { id: string }; session_id: string; presences: { user: { id: string } }[] };
            resolve({ userId: d.user.id, sessionId: d.session_id, onlineFriends: d.presences.map((p) => p.user.id) });
          }
          this.options.onDispatch?.(message.t, message.d, at);
        }
      });
    });
    // Callers await ready; an unobserved rejection after a later close must not crash the bench.
    this.ready.catch(() => undefined);
  }

  /** Presence Update (op 3). Returns performance.now() just before the send. */
  sendPresence(presence: PresenceUpdateCommand): number {
    const text = JSON.stringify({ op: GatewayOp.PresenceUpdate, d: presence });
    const t0 = performance.now();
    this.ws.send(text);
    return t0;
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  private send(message: unknown): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  private stopHeartbeat(): void {
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  /** Normal close (1000: the session ends and the user goes offline). */
  close(): Promise<void> {
    this.closedByUs = true;
    this.stopHeartbeat();
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.ws.terminate();
        resolve();
      }, 2000);
      this.ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      if (this.ws.readyState === WebSocket.CONNECTING) this.ws.terminate();
      else this.ws.close(1000);
    });
  }
}
