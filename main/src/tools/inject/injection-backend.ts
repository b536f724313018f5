import type { TokenFaultInput } from '../../../../platform/src/oauth/token-faults.js';
import type { OutputShaping, RpcServer } from '../../../../rpc/src/index.js';
import { ControlError } from '../../host/control/control-backend.js';
import { httpRequest } from '../../base/http-request.js';
import { injectEvent, readyConnection, type InjectEventInput, type InjectEventResult } from './event-injection.js';

/** Output shaping as the control API takes and shows it (snake_case). */
export interface OutputShapingView {
  readonly delay_ms?: number;
  readonly split?: { readonly parts: number; readonly gap_ms: number };
  readonly coalesce?: { readonly frames: number; readonly window_ms: number };
}

export interface OutputShapingInput extends OutputShapingView {
  readonly connection_id: string;
}

export type GatewayFaultInput = { readonly action: 'drop' } | { readonly action: 'pause'; readonly duration_ms: number };

/** The body of the emulator's `POST /_emulator/oauth/token-errors`, which this is sent to. */
export type TokenErrorInput = TokenFaultInput;

/**
 * The control API's fault and event injection (`/v1/inject/...`), for QA. Errors are
 * ControlErrors with the status and a message that names the problem.
 */
export interface InjectionBackend {
  /** A DISPATCH to one connection (see injectEvent for the subscription rule). */
  sendEvent(input: InjectEventInput): InjectEventResult;
  /** Replaces the connection's output shaping; nothing set clears it. */
  shapeOutput(input: OutputShapingInput): { readonly connection_id: string; readonly shaping: OutputShapingView | null };
  /** Drops the gateway connection as a network loss would, or stalls it for a while. */
  gatewayFault(input: GatewayFaultInput): { readonly action: GatewayFaultInput['action']; readonly duration_ms?: number };
  /** Makes the platform emulator answer the next token request(s) with this error. */
  armTokenError(input: TokenErrorInput): Promise<{ readonly armed: unknown; readonly pending: number }>;
  clearTokenErrors(): Promise<{ readonly cleared: number }>;
}

/** What the injection backend does to the gateway (QA mode's GatewayFaultSwitch). */
export interface GatewayFaults {
  simulateNetworkLoss(): boolean;
  simulateStall(ms: number): boolean;
}

export interface InjectionBackendOptions {
  readonly server: RpcServer;
  /** null while signed out. */
  readonly gateway: () => GatewayFaults | null;
  /** The gateway's status, for the message when it cannot be disturbed. */
  readonly gatewayStatus: () => string;
  /** The embedded emulator's admin API; null when the host uses another platform. */
  readonly platformAdmin: { readonly url: string; readonly adminToken: string } | null;
}

function toShaping(view: OutputShapingView): OutputShaping {
  const shaping: { delayMs?: number; split?: { parts: number; gapMs: number }; coalesce?: { frames: number; windowMs: number } } = {};
  if (view.delay_ms !== undefined) shaping.delayMs = view.delay_ms;
  if (view.split !== undefined) shaping.split = { parts: view.split.parts, gapMs: view.split.gap_ms };
  if (view.coalesce !== undefined) shaping.coalesce = { frames: view.coalesce.frames, windowMs: view.coalesce.window_ms };
  return shaping;
}

function toView(shaping: OutputShaping | null): OutputShapingView | null {
  if (shaping === null) return null;
  const view: { delay_ms?: number; split?: { parts: number; gap_ms: number }; coalesce?: { frames: number; window_ms: number } } = {};
  if (shaping.delayMs !== undefined) view.delay_ms = shaping.delayMs;
  if (shaping.split !== undefined) view.split = { parts: shaping.split.parts, gap_ms: shaping.split.gapMs };
  if (shaping.coalesce !== undefined) view.coalesce = { frames: shaping.coalesce.frames, window_ms: shaping.coalesce.windowMs };
  return view;
}

export function createInjectionBackend(options: InjectionBackendOptions): InjectionBackend {
  const { server } = options;

  const gatewayFaults = (): GatewayFaults => {
    const gateway = options.gateway();
    if (gateway === null) throw new ControlError(409, 'Not signed in: there is no gateway connection to disturb', 'not_connected');
    return gateway;
  };

  const admin = async (method: string, route: string, body?: unknown): Promise<unknown> => {
    const platform = options.platformAdmin;
    if (platform === null) {
      throw new ControlError(409, "This host does not run the platform emulator (it was started with --platform): token errors are armed on the emulator itself (POST /_emulator/oauth/token-errors with its admin token)", 'not_embedded');
    }
    let response;
    try {
      response = await httpRequest(`${platform.url}${route}`, {
        method,
        headers: { Authorization: `Admin ${platform.adminToken}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        timeoutMs: 5000,
      });
    } catch {
      throw new ControlError(502, `The platform emulator at ${platform.url} did not answer`);
    }
    let parsed: unknown;
    try {
      parsed = response.text === '' ? null : JSON.parse(response.text);
    } catch {
      parsed = null;
    }
    if (response.status >= 400) {
      const message = (parsed as { message?: unknown } | null)?.message;
      throw new ControlError(response.status >= 500 ? 502 : 400, `The platform emulator refused: ${typeof message === 'string' ? message : `HTTP ${response.status}`}`);
    }
    return parsed;
  };

  return {
    sendEvent: (input) => injectEvent(server, input),
    shapeOutput: (input) => {
      const connection = readyConnection(server, input.connection_id);
      try {
        return { connection_id: connection.id, shaping: toView(connection.output.set(toShaping(input))) };
      } catch (error) {
        if (error instanceof RangeError) throw new ControlError(400, error.message, 'invalid_request');
        throw error;
      }
    },
    gatewayFault: (input) => {
      const gateway = gatewayFaults();
      const done = input.action === 'drop' ? gateway.simulateNetworkLoss() : gateway.simulateStall(input.duration_ms);
      if (!done) throw new ControlError(409, `The gateway is not connected right now (${options.gatewayStatus()})`, 'not_connected');
      return input.action === 'drop' ? { action: 'drop' } : { action: 'pause', duration_ms: input.duration_ms };
    },
    armTokenError: async (input) => {
      const answer = (await admin('POST', '/_emulator/oauth/token-errors', input)) as { armed: unknown; pending: number };
      return { armed: answer.armed, pending: answer.pending };
    },
    clearTokenErrors: async () => {
      const answer = (await admin('DELETE', '/_emulator/oauth/token-errors')) as { cleared: number };
      return { cleared: answer.cleared };
    },
  };
}
