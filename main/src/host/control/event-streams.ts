import type { ServerResponse } from 'node:http';
import type { ControlBackend, ControlEvent } from './control-backend.js';
import type { ControlLogger } from './control-server.js';

/** An event stream whose client reads slower than this much backlog is dropped. */
const MAX_SSE_BACKLOG_BYTES = 1024 * 1024;

/** One client's `GET /v1/events`: the backend's events as Server-Sent Events, with heartbeats. */
class EventStream {
  private next = 0;
  private closed = false;
  private readonly unsubscribe: () => void;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly res: ServerResponse,
    backend: ControlBackend,
    private readonly logger: ControlLogger,
    heartbeatMs: number,
    private readonly onStop: (stream: EventStream) => void,
  ) {
    this.unsubscribe = backend.subscribe((event) => this.onEvent(event));
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Content-Type-Options': 'nosniff',
      'X-Accel-Buffering': 'no',
    });
    // A first comment sends the headers now, so the client knows the stream is open.
    res.write(': connected\n\n');
    this.heartbeat = setInterval(() => this.write(': heartbeat\n\n'), heartbeatMs);
    this.heartbeat.unref();
    // The response closes when the client goes away (or the server ends the stream).
    res.on('close', () => this.stop());
  }

  stop(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.unsubscribe();
    this.onStop(this);
    this.res.end();
  }

  private write(text: string): void {
    if (this.closed) return;
    this.res.write(text);
    // A client that stopped reading would make us buffer every later event.
    if (this.res.writableLength > MAX_SSE_BACKLOG_BYTES) {
      this.logger.warn({ route: '/v1/events' }, 'control API: event stream dropped, client too slow');
      this.res.destroy();
    }
  }

  private onEvent(event: ControlEvent): void {
    let data: string;
    try {
      data = JSON.stringify(event.data ?? null) ?? 'null';
    } catch {
      this.logger.warn({ route: '/v1/events', type: String(event.type) }, 'control API: event data is not JSON, skipped');
      return;
    }
    // The type becomes an `event:` line: no line breaks may reach the stream.
    const type = String(event.type).replace(/[\r\n]/g, ' ');
    this.next++;
    this.write(`id: ${this.next}\nevent: ${type}\ndata: ${data}\n\n`);
  }
}

/** The open event streams of one control server (all stopped when it closes). */
export class EventStreams {
  private readonly open = new Set<EventStream>();

  constructor(
    private readonly backend: ControlBackend,
    private readonly logger: ControlLogger,
    private readonly heartbeatMs: number,
  ) {}

  start(res: ServerResponse): void {
    this.open.add(new EventStream(res, this.backend, this.logger, this.heartbeatMs, (stream) => this.open.delete(stream)));
  }

  stopAll(): void {
    for (const stream of [...this.open]) stream.stop();
  }
}
