import { toU64String } from './authorization-args.js';
import { ClientResult } from './client-result.js';
import { getTokenFromDevice, type DeviceCode } from './device-http.js';
import type { TokenResponse } from './oauth-http.js';

/** Client::GetTokenFromDevice's arguments (the Social SDK's DeviceAuthorizationArgs): the application and the scopes. */
export class DeviceAuthorizationArgs {
  #clientId: string | undefined;
  #scopes = '';

  clientId(): string | undefined {
    return this.#clientId;
  }

  setClientId(value: string | bigint | undefined): void {
    this.#clientId = value === undefined ? undefined : toU64String(value, 'clientId');
  }

  scopes(): string {
    return this.#scopes;
  }

  setScopes(value: string): void {
    if (typeof value !== 'string') throw new TypeError('scopes must be a space-separated string');
    this.#scopes = value;
  }
}

export type { DeviceCode };
export type DeviceTokenCallback = (result: ClientResult, accessToken: string | null, refreshToken: string | null, tokenType: string | null, expiresIn: number, scopes: string) => void;

/** What the device calls need of the Client. */
export interface ClientDeviceDeps {
  readonly applicationId: () => string | undefined;
  readonly addSecret: (secret: string) => void;
  /** The Client's token call: platform discovery, secrets, the callback and the outcome. */
  readonly tokenCall: (
    callback: DeviceTokenCallback | undefined,
    call: (common: { platformBase: string; timeoutMs: number }) => Promise<TokenResponse>,
  ) => Promise<{ result: ClientResult; token: TokenResponse | null }>;
  /** Sends an RPC command to Companion. */
  readonly send: (cmd: string, args: unknown) => Promise<ClientResult>;
  /** Test hook: the wait between polls. */
  readonly sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<boolean>;
}

/** The RPC commands (ours) that ask Companion to show or hide its code-entry screen. */
export const OPEN_AUTHORIZE_DEVICE_SCREEN = 'OPEN_AUTHORIZE_DEVICE_SCREEN';
export const CLOSE_AUTHORIZE_DEVICE_SCREEN = 'CLOSE_AUTHORIZE_DEVICE_SCREEN';
/** The RPC event (ours): the player closed Companion's code-entry screen. */
export const AUTHORIZE_DEVICE_SCREEN_CLOSED = 'AUTHORIZE_DEVICE_SCREEN_CLOSED';

/**
 * The Client's device authorization calls (consoles and TVs): GetTokenFromDevice and its
 * provisional merge, AbortGetTokenFromDevice, and the code-entry screen on Companion
 * (Open/CloseAuthorizeDeviceScreen, SetAuthorizeDeviceScreenClosedCallback). One flow at a time.
 */
export class ClientDevice {
  private flow: AbortController | null = null;
  private codeCallback: ((code: DeviceCode) => void) | null = null;
  private closedCallback: (() => void) | null = null;

  constructor(private readonly deps: ClientDeviceDeps) {}

  /** Told the user code and where to enter it, for a game that shows it itself (ours). */
  setDeviceCodeCallback(callback: ((code: DeviceCode) => void) | null): void {
    this.codeCallback = callback;
  }

  async getToken(args: DeviceAuthorizationArgs, callback?: DeviceTokenCallback, externalAuth?: { type: string; token: string }): Promise<{ result: ClientResult; token: TokenResponse | null }> {
    const clientId = args.clientId() ?? this.deps.applicationId();
    if (clientId === undefined || args.scopes().trim().length === 0) {
      const result = ClientResult.validation(clientId === undefined ? 'no client id: set it in the args or call setApplicationId' : 'scopes must not be empty');
      callback?.(result, null, null, null, 0, '');
      return { result, token: null };
    }
    if (externalAuth !== undefined) this.deps.addSecret(externalAuth.token);
    this.flow?.abort();
    const flow = new AbortController();
    this.flow = flow;
    try {
      return await this.deps.tokenCall(callback, (common) =>
        getTokenFromDevice({
          ...common,
          applicationId: clientId,
          scopes: args.scopes(),
          signal: flow.signal,
          ...(externalAuth === undefined ? {} : { externalAuth }),
          ...(this.deps.sleep === undefined ? {} : { sleep: this.deps.sleep }),
          onCode: (code) => this.codeCallback?.(code),
        }),
      );
    } finally {
      if (this.flow === flow) this.flow = null;
    }
  }

  /** Client::AbortGetTokenFromDevice: the running flow ends; its callback gets an Aborted result. */
  abort(): void {
    this.flow?.abort();
    this.flow = null;
  }

  openScreen(clientId: string | bigint, userCode: string): Promise<ClientResult> {
    if (typeof userCode !== 'string' || userCode.length === 0) return Promise.resolve(ClientResult.validation('userCode must be a non-empty string'));
    return this.deps.send(OPEN_AUTHORIZE_DEVICE_SCREEN, { client_id: toU64String(clientId, 'clientId'), user_code: userCode });
  }

  closeScreen(): Promise<ClientResult> {
    return this.deps.send(CLOSE_AUTHORIZE_DEVICE_SCREEN, {});
  }

  setScreenClosedCallback(callback: (() => void) | null): void {
    this.closedCallback = callback;
  }

  /** Companion said the player closed the screen. */
  screenClosed(): void {
    this.closedCallback?.();
  }
}
