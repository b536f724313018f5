import { createHash, randomInt } from 'node:crypto';
import { randomToken } from '../state/ids.js';
import type { AppRecord } from '../state/model.js';
import type { DeviceAuthorizationResponse, DeviceVerifyPreview } from '../wire/index.js';
import { OAuthError, invalidGrant, missingParam } from './errors.js';
import type { AuthorizeRequest } from './service.js';

/** The grant type of RFC 8628's token request. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** Consonants without look-alikes (RFC 8628 section 6.1): no vowels, so no words; case and dashes are ignored when typed. */
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;

export interface DeviceFlowDeps {
  readonly now: () => number;
  /** How long a device code lives. */
  readonly ttlMs: number;
  /** The least time between two polls of one device code; slow_down adds 5 s each time it is broken. */
  readonly intervalMs: number;
  /** Where the player enters the code. */
  readonly verificationUri: () => string;
  /** Pending device codes at most (the oldest go first). */
  readonly maxPending: number;
}

type DeviceState = 'pending' | 'approved' | 'denied';

interface DeviceAuthorization {
  readonly deviceHash: string;
  readonly userCode: string;
  readonly request: AuthorizeRequest;
  readonly expiresAt: number;
  intervalMs: number;
  lastPollAt: number | null;
  state: DeviceState;
  /** Once approved: the authorization code the poll redeems. */
  code: string | null;
}

const sha256 = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** A user code as typed: upper case, letters only. */
export function normalizeUserCode(typed: string): string {
  return typed.toUpperCase().replace(/[^A-Z]/g, '');
}

function newUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

const display = (code: string): string => `${code.slice(0, 4)}-${code.slice(4)}`;
const unknownUserCode = (): OAuthError => new OAuthError(404, 'invalid_grant', 'Unknown or expired "user_code".');
const invalidDeviceCode = (): OAuthError => invalidGrant('Invalid "device_code" in request.');

/**
 * The OAuth2 device authorization grant (RFC 8628) of the emulator: device codes handed to a
 * console, user codes typed by the player, and the polls of the token endpoint. Kept in memory
 * **(ours)**: a restart forgets codes that live ten minutes. Device codes are stored hashed.
 */
export class DeviceFlow {
  private readonly byDevice = new Map<string, DeviceAuthorization>();
  private readonly byUser = new Map<string, DeviceAuthorization>();

  constructor(private readonly deps: DeviceFlowDeps) {}

  /** A validated request (app and scopes) gets a device code and a user code. */
  start(request: AuthorizeRequest): DeviceAuthorizationResponse {
    this.sweep();
    const deviceCode = randomToken();
    let userCode = newUserCode();
    while (this.byUser.has(userCode)) userCode = newUserCode();
    const entry: DeviceAuthorization = {
      deviceHash: sha256(deviceCode),
      userCode,
      request,
      expiresAt: this.deps.now() + this.deps.ttlMs,
      intervalMs: this.deps.intervalMs,
      lastPollAt: null,
      state: 'pending',
      code: null,
    };
    this.byDevice.set(entry.deviceHash, entry);
    this.byUser.set(userCode, entry);
    const uri = this.deps.verificationUri();
    return {
      device_code: deviceCode,
      user_code: display(userCode),
      verification_uri: uri,
      verification_uri_complete: `${uri}?user_code=${display(userCode)}`,
      expires_in: Math.round(this.deps.ttlMs / 1000),
      interval: Math.round(this.deps.intervalMs / 1000),
    };
  }

  /** What a pending user code asks for; throws 404 invalid_grant when unknown, expired or decided. */
  preview(typed: string): DeviceVerifyPreview {
    const entry = this.pending(typed);
    const app = entry.request.app;
    return { user_code: display(entry.userCode), application: { id: app.id, name: app.name, icon: app.icon }, scopes: entry.request.scopes };
  }

  /** The request a pending user code stands for (to approve it with the player's account). */
  requestOf(typed: string): AuthorizeRequest {
    return this.pending(typed).request;
  }

  /** The player approved (with the authorization code `issueCode` made) or denied. */
  decide(typed: string, decision: { approved: true; code: string } | { approved: false }): void {
    const entry = this.pending(typed);
    entry.state = decision.approved ? 'approved' : 'denied';
    entry.code = decision.approved ? decision.code : null;
    this.byUser.delete(entry.userCode);
  }

  /**
   * A poll of the token endpoint by `app`: the authorization code once approved, else the
   * RFC 8628 error (authorization_pending, slow_down, access_denied, expired_token). A device
   * code polled by another application is invalid_grant, as an unknown one.
   */
  poll(app: AppRecord, deviceCode: string | null): string {
    if (deviceCode === null || deviceCode.length === 0) throw missingParam('device_code');
    const entry = this.byDevice.get(sha256(deviceCode));
    if (entry === undefined || entry.request.app.id !== app.id) throw invalidDeviceCode();
    const now = this.deps.now();
    if (entry.expiresAt <= now) {
      this.forget(entry);
      throw new OAuthError(400, 'expired_token', 'The "device_code" has expired.');
    }
    const early = entry.lastPollAt !== null && now - entry.lastPollAt < entry.intervalMs;
    entry.lastPollAt = now;
    if (entry.state === 'denied') {
      this.forget(entry);
      throw new OAuthError(400, 'access_denied', 'The player denied the request.');
    }
    if (entry.state === 'approved' && entry.code !== null) {
      this.forget(entry);
      return entry.code;
    }
    if (early) {
      entry.intervalMs += 5000;
      throw new OAuthError(400, 'slow_down', `Polled too often: wait ${Math.round(entry.intervalMs / 1000)} seconds between polls.`);
    }
    throw new OAuthError(400, 'authorization_pending', 'The player has not entered the code yet.');
  }

  private pending(typed: string): DeviceAuthorization {
    if (typed.length === 0) throw missingParam('user_code');
    const entry = this.byUser.get(normalizeUserCode(typed));
    if (entry === undefined || entry.state !== 'pending') throw unknownUserCode();
    if (entry.expiresAt <= this.deps.now()) {
      // The console still learns expired_token when it polls.
      this.byUser.delete(entry.userCode);
      throw unknownUserCode();
    }
    return entry;
  }

  private forget(entry: DeviceAuthorization): void {
    this.byDevice.delete(entry.deviceHash);
    this.byUser.delete(entry.userCode);
  }

  /** Expired codes go; past the cap the oldest go too. */
  private sweep(): void {
    const now = this.deps.now();
    for (const entry of this.byDevice.values()) if (entry.expiresAt <= now - this.deps.ttlMs) this.forget(entry);
    while (this.byDevice.size >= this.deps.maxPending) {
      const oldest = this.byDevice.values().next().value;
      if (oldest === undefined) break;
      this.forget(oldest);
    }
  }
}
