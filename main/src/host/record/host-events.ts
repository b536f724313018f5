import type { DisconnectInfo, RpcConnection, RpcServer } from '../../../../rpc/src/index.js';
import type { CloseRecord, ConsentRecord, DetectionRecord, GatewayRecord, OpenRecord, ReadyRecord, RelayRecord } from '../../../../common/src/recording/recording-format.js';
import type { ConsentBroker, ConsentOutcome, ConsentRequestView } from '../auth/consent-broker.js';
import type { PlatformSession } from '../session/platform-session.js';
import type { RelayOutcome } from '../presence/relay-outcomes.js';

/** A host-side event as the recording format names it, without its time (each listener stamps its own). */
export type HostEvent =
  | Omit<OpenRecord, 't'>
  | Omit<ReadyRecord, 't'>
  | (Omit<CloseRecord, 't'> & {
      /** A probe: connected and left without a byte (noise, as in the logs: neither recorded nor listed). */
      readonly probe: boolean;
    })
  | Omit<ConsentRecord, 't'>
  | Omit<GatewayRecord, 't'>
  | Omit<RelayRecord, 't'>
  | Omit<DetectionRecord, 't'>;

/** Where host events come from: the RPC server, and optionally consent and the gateway. */
export interface HostEventSources {
  readonly server: Pick<RpcServer, 'on' | 'off'>;
  /** The consent broker: its `settled` (the player or a timeout answered) and `decided` (the policy or a grant did) events. */
  readonly consent?: Pick<ConsentBroker, 'on' | 'off'> | undefined;
  /** The platform session: its `dispatch` events (gateway dispatches). */
  readonly gateway?: Pick<PlatformSession, 'on' | 'off'> | undefined;
  /** The presence relay: its `outcome` events (what became of each game update). */
  readonly relay?: RelayOutcomeSource | undefined;
  /** Game detection: its `start` and `end` events (a game found running, one that exited). */
  readonly detection?: DetectionEventSource | undefined;
}

/** A detected game as the detection events carry it. */
export interface DetectionEventGame {
  readonly applicationId: string;
  readonly name: string;
  readonly executable: string;
  readonly path: string;
  readonly pid: number;
}

/** Something that reports detected games starting and ending (the detection service). */
export interface DetectionEventSource {
  on(event: 'start' | 'end', listener: (game: DetectionEventGame) => void): unknown;
  off(event: 'start' | 'end', listener: (game: DetectionEventGame) => void): unknown;
}

function detectionEvent(event: 'start' | 'end', game: DetectionEventGame): Omit<DetectionRecord, 't'> {
  return { kind: 'detection', connection: `detected:${game.applicationId}`, event, application_id: game.applicationId, name: game.name, executable: game.executable, path: game.path, pid: game.pid };
}

/** Something that reports relay outcomes (the presence relay). */
export interface RelayOutcomeSource {
  on(event: 'outcome', listener: (outcome: RelayOutcome) => void): unknown;
  off(event: 'outcome', listener: (outcome: RelayOutcome) => void): unknown;
}

function consentEvent(request: ConsentRequestView, outcome: ConsentOutcome, by: 'player' | 'policy'): Omit<ConsentRecord, 't'> {
  return {
    kind: 'consent',
    connection: request.connectionId,
    application_id: request.applicationId,
    scopes: request.expandedScopes,
    outcome: outcome.kind,
    by: outcome.kind === 'approved' && outcome.remembered ? 'remembered' : by,
  };
}

/**
 * The host's side of the conversation besides frames: connections opening, their handshake,
 * their close (who ended it, code and reason), consent decisions and gateway dispatches. What
 * the recorder writes and the inspector lists, from one place. It listens to its sources only
 * while someone listens to it.
 */
export class HostEvents {
  private readonly listeners = new Set<(event: HostEvent) => void>();

  constructor(private sources: HostEventSources) {}

  /** Game detection joins the sources (it starts after the recorder): followed at once when someone listens. */
  followDetection(detection: DetectionEventSource): void {
    if (this.sources.detection !== undefined) return;
    this.sources = { ...this.sources, detection };
    if (this.listeners.size === 0) return;
    detection.on('start', this.onDetectionStart);
    detection.on('end', this.onDetectionEnd);
  }

  subscribe(listener: (event: HostEvent) => void): () => void {
    if (this.listeners.size === 0) this.attach();
    this.listeners.add(listener);
    return () => {
      if (this.listeners.delete(listener) && this.listeners.size === 0) this.detach();
    };
  }

  private emit(event: HostEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  // Listeners: arrow properties, so detach removes exactly these.

  private readonly onConnection = (connection: RpcConnection): void => {
    this.emit({ kind: 'open', connection: connection.id, transport: connection.transport });
  };

  private readonly onReady = (connection: RpcConnection): void => {
    this.emit({ kind: 'ready', connection: connection.id, client_id: connection.clientId });
  };

  private readonly onDisconnect = (connection: RpcConnection, info: DisconnectInfo): void => {
    this.emit({ kind: 'close', connection: connection.id, client_id: connection.clientId, pid: connection.pid, reason: info.reason, code: info.code ?? null, probe: connection.wasProbe });
  };

  private readonly onSettled = (request: ConsentRequestView, outcome: ConsentOutcome): void => {
    this.emit(consentEvent(request, outcome, 'player'));
  };

  private readonly onDecided = (request: ConsentRequestView, outcome: ConsentOutcome): void => {
    this.emit(consentEvent(request, outcome, 'policy'));
  };

  private readonly onDispatch = (type: string, data: unknown): void => {
    this.emit({ kind: 'gateway', type, data });
  };

  private readonly onOutcome = (outcome: RelayOutcome): void => {
    this.emit({ kind: 'relay', connection: outcome.connection_id, outcome });
  };

  private readonly onDetectionStart = (game: DetectionEventGame): void => {
    this.emit(detectionEvent('start', game));
  };

  private readonly onDetectionEnd = (game: DetectionEventGame): void => {
    this.emit(detectionEvent('end', game));
  };

  private attach(): void {
    const { server, consent, gateway, relay, detection } = this.sources;
    detection?.on('start', this.onDetectionStart);
    detection?.on('end', this.onDetectionEnd);
    relay?.on('outcome', this.onOutcome);
    server.on('connection', this.onConnection);
    server.on('ready', this.onReady);
    server.on('disconnect', this.onDisconnect);
    consent?.on('settled', this.onSettled);
    consent?.on('decided', this.onDecided);
    gateway?.on('dispatch', this.onDispatch);
  }

  private detach(): void {
    const { server, consent, gateway, relay, detection } = this.sources;
    detection?.off('start', this.onDetectionStart);
    detection?.off('end', this.onDetectionEnd);
    relay?.off('outcome', this.onOutcome);
    server.off('connection', this.onConnection);
    server.off('ready', this.onReady);
    server.off('disconnect', this.onDisconnect);
    consent?.off('settled', this.onSettled);
    consent?.off('decided', this.onDecided);
    gateway?.off('dispatch', this.onDispatch);
  }
}
