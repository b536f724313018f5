import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { FrameTrace, RpcLogger, RpcServer } from '../../../../rpc/src/index.js';
import type { ConsentBroker } from '../auth/consent-broker.js';
import type { PlatformSession } from '../session/platform-session.js';
import { headerRecord, type BodyRecord } from '../../../../common/src/recording/recording-format.js';
import type { LintView } from '../../../../preload/src/contract.js';
import { HostEvents, type DetectionEventSource, type HostEvent, type RelayOutcomeSource } from './host-events.js';
import type { RecordWriter } from './record-writer.js';

/** What the recorder listens to: the RPC server, and optionally consent and the gateway. */
export interface RecorderSources {
  readonly server: RpcServer;
  /** The consent broker: its `settled` and `decided` events. */
  readonly consent?: Pick<ConsentBroker, 'on' | 'off'>;
  /** The platform session: its `dispatch` events (gateway dispatches). */
  readonly gateway?: Pick<PlatformSession, 'on' | 'off'>;
  /** The presence relay: its outcomes are recorded as the live inspector lists them (`relay` records). */
  readonly relay?: RelayOutcomeSource;
  /** Written into the header. */
  readonly version: string;
  readonly logger?: RpcLogger;
  /** Test tuning: the writer's buffer limit. */
  readonly maxBufferedBytes?: number;
}

export interface RecordingOptions {
  /** Keep secrets (tokens, codes, activity secrets) instead of redacting them. Default false. */
  readonly secrets?: boolean;
}

/** What a UI shows about the recorder. */
export interface RecorderStatus {
  readonly recording: boolean;
  /** The file being written, or the last one written (null before any). */
  readonly file: string | null;
  /** True when this (or the last) recording keeps secrets. */
  readonly secrets: boolean;
  /** ISO time the recording started, or null. */
  readonly startedAt: string | null;
  /** Records and bytes written so far (header included). */
  readonly records: number;
  readonly bytes: number;
  /** Records lost because the disk did not keep up or writing failed. */
  readonly dropped: number;
  /** Why the last recording stopped by itself (a write error), else null. */
  readonly error: string | null;
}

export interface HostRecorderEvents {
  /** The recorder started or stopped (by request or a write error). */
  status: [RecorderStatus];
}

/** Lints an incoming SET_ACTIVITY as the inspector does (ui-bridge/frame-lints.ts), so a recording carries them. */
export interface RecorderLinter {
  /** The connection's application id ('' when unknown). */
  applicationOf(connectionId: string): string;
  lint(applicationId: string, args: unknown, at: number): readonly LintView[];
}

export class RecorderBusyError extends Error {
  constructor(readonly file: string) {
    super(`already recording to ${file}; stop that recording first`);
    this.name = 'RecorderBusyError';
  }
}

interface Session {
  readonly writer: RecordWriter;
  readonly secrets: boolean;
  readonly startedAt: string;
  readonly origin: number;
  /** Transport of each open connection (frame traces carry only the id). */
  readonly transports: Map<string, string>;
}

/**
 * Records a host's RPC traffic and host-side events to a recording file (common/src/recording/recording-format.ts),
 * started and stopped at any time: `companion serve --record FILE` starts it with the host, a
 * UI toggle calls `start` / `stop`. While it is off it listens to nothing, so the server does
 * not even build frame traces. Secrets are redacted (by the writer, as it encodes) unless
 * `secrets: true`.
 */
export class HostRecorder extends EventEmitter<HostRecorderEvents> {
  private session: Session | undefined;
  /** The file a start() is opening, so a second start() meanwhile is refused. */
  private starting: string | undefined;
  private last: { file: string; secrets: boolean; startedAt: string; writer: RecordWriter; error: string | null } | undefined;

  private readonly events: HostEvents;
  private unsubscribeEvents: (() => void) | undefined;
  private linter: RecorderLinter | undefined;

  constructor(private readonly sources: RecorderSources) {
    super();
    this.events = new HostEvents(sources);
  }

  /** Game detection's start and end are recorded from now on (`detection` records). */
  followDetection(detection: DetectionEventSource): void {
    this.events.followDetection(detection);
  }

  /** From now on, an incoming SET_ACTIVITY's lints follow its frame (a `lint` record), as the live inspector shows them. */
  lintWith(linter: RecorderLinter): void {
    this.linter = linter;
  }

  get recording(): boolean {
    return this.session !== undefined;
  }

  status(): RecorderStatus {
    const current = this.session;
    const shown = current === undefined ? this.last : { file: current.writer.file, secrets: current.secrets, startedAt: current.startedAt, writer: current.writer, error: null };
    if (shown === undefined) return { recording: false, file: null, secrets: false, startedAt: null, records: 0, bytes: 0, dropped: 0, error: null };
    const stats = shown.writer.stats;
    return {
      recording: current !== undefined,
      file: shown.file,
      secrets: shown.secrets,
      startedAt: shown.startedAt,
      records: stats.records,
      bytes: stats.bytes,
      dropped: stats.dropped,
      error: shown.error,
    };
  }

  /** Starts writing `file` (created or truncated, mode 0600). Throws RecorderBusyError while recording. */
  async start(file: string, options: RecordingOptions = {}): Promise<RecorderStatus> {
    if (this.session !== undefined) throw new RecorderBusyError(this.session.writer.file);
    if (this.starting !== undefined) throw new RecorderBusyError(this.starting);
    const secrets = options.secrets === true;
    const started = new Date();
    const origin = performance.now();
    this.starting = file;
    let writer: RecordWriter;
    try {
      // Loaded with the first recording: a host that never records does not hold the writer and its encoder.
      const { RecordWriter } = await import('./record-writer.js');
      writer = await RecordWriter.create(file, headerRecord(this.sources.version, started, !secrets), {
        redact: !secrets,
        ...(this.sources.maxBufferedBytes === undefined ? {} : { maxBufferedBytes: this.sources.maxBufferedBytes }),
        onError: (error) => this.failed(writer, error),
      });
    } finally {
      this.starting = undefined;
    }
    const session: Session = { writer, secrets, startedAt: started.toISOString(), origin, transports: new Map() };
    this.session = session;
    for (const connection of this.sources.server.connections()) {
      if (connection.state === 'closed') continue;
      session.transports.set(connection.id, connection.transport);
      this.write({ kind: 'open', t: this.now(), connection: connection.id, transport: connection.transport, existing: true, client_id: connection.clientId });
    }
    this.attach();
    this.sources.logger?.info({ secrets }, 'recording started');
    const status = this.status();
    this.emit('status', status);
    return status;
  }

  /** Stops recording and writes out everything buffered; a no-op when not recording. */
  async stop(): Promise<RecorderStatus> {
    const session = this.session;
    if (session === undefined) return this.status();
    this.detach();
    this.session = undefined;
    this.last = { file: session.writer.file, secrets: session.secrets, startedAt: session.startedAt, writer: session.writer, error: null };
    await session.writer.close();
    const status = this.status();
    this.sources.logger?.info({ records: status.records, bytes: status.bytes, dropped: status.dropped }, 'recording stopped');
    this.emit('status', status);
    return status;
  }

  private now(): number {
    return performance.now() - (this.session?.origin ?? 0);
  }

  private write(record: BodyRecord): void {
    this.session?.writer.append(record);
  }

  private failed(writer: RecordWriter, error: Error): void {
    const session = this.session;
    if (session === undefined || session.writer !== writer) return;
    this.detach();
    this.session = undefined;
    const reason = (error as NodeJS.ErrnoException).code ?? error.message;
    this.last = { file: session.writer.file, secrets: session.secrets, startedAt: session.startedAt, writer, error: `cannot write the recording (${reason})` };
    this.sources.logger?.warn({ error: reason }, 'recording stopped: cannot write the file');
    void writer.close();
    this.emit('status', this.status());
  }

  // Listeners: arrow properties, so detach removes exactly these.

  private readonly onFrame = (trace: FrameTrace): void => {
    const session = this.session;
    if (session === undefined) return;
    // Written field by field, redacted (unless secrets are kept) while encoding: one walk of the payload.
    session.writer.appendFrame(
      performance.now() - session.origin,
      trace.connectionId,
      session.transports.get(trace.connectionId) ?? 'ipc',
      trace.direction,
      trace.opcode,
      trace.payload,
      trace.json,
    );
    if (this.linter !== undefined && trace.direction === 'in' && trace.opcode === 1) this.writeLints(session, this.linter, trace);
  };

  private writeLints(session: Session, linter: RecorderLinter, trace: FrameTrace): void {
    const payload = trace.payload as { cmd?: unknown; args?: unknown; nonce?: unknown } | null;
    if (payload?.cmd !== 'SET_ACTIVITY') return;
    const lints = linter.lint(linter.applicationOf(trace.connectionId), payload.args, trace.at);
    if (lints.length === 0) return;
    const nonce = typeof payload.nonce === 'string' ? payload.nonce : null;
    session.writer.append({ kind: 'lint', t: performance.now() - session.origin, connection: trace.connectionId, nonce, lints });
  }

  private readonly onHostEvent = (event: HostEvent): void => {
    const session = this.session;
    if (session === undefined) return;
    if (event.kind === 'open') session.transports.set(event.connection, event.transport);
    if (event.kind === 'close') {
      session.transports.delete(event.connection);
      const { probe, ...close } = event;
      if (!probe) session.writer.append({ ...close, t: this.now() });
      return;
    }
    session.writer.append({ ...event, t: this.now() } as BodyRecord);
  };

  private attach(): void {
    this.sources.server.on('frame', this.onFrame);
    this.unsubscribeEvents = this.events.subscribe(this.onHostEvent);
  }

  private detach(): void {
    this.sources.server.off('frame', this.onFrame);
    this.unsubscribeEvents?.();
    this.unsubscribeEvents = undefined;
  }
}
