import type {
  MessageActivity,
  PlatformChannel,
  PlatformGuild,
  PlatformMessage,
  PlatformUser,
  Relationship,
  RpcApplication,
  AuthorizePreview,
  OAuthGrant,
  OAuthMe,
  TokenIntrospection,
  DeviceVerifyPreview as DeviceCodePreview,
} from '../../../../platform/src/wire/index.js';
import { httpRequest, HttpRequestError, type HttpResult } from '../../base/http-request.js';

/** `GET /applications/detectable` with a validator: the list (still unchecked JSON) and its tag, or unchanged (304). */
export type DetectableFetch = { readonly kind: 'unchanged' } | { readonly kind: 'list'; readonly body: unknown; readonly etag: string | null };

export interface PlatformApiOptions {
  /** e.g. `http://127.0.0.1:PORT` (routes go under `/api/v10`). */
  readonly baseUrl: string;
  /** User token, sent as `Authorization: <token>` (no prefix, as the desktop client does). */
  readonly token?: string;
  /** Per-request timeout (ms), default 10 s. */
  readonly timeoutMs?: number;
}

export interface LoginResult {
  readonly user_id: string;
  readonly token: string;
}

export interface SendMessageBody {
  readonly content?: string;
  readonly activity?: Pick<MessageActivity, 'type' | 'party_id'>;
  readonly application_id?: string;
}

/**
 * A failed API call. `status` 0 means no HTTP answer (network error or timeout). `code` and
 * the message come from the `{code, message}` body; the token never appears in either.
 */
export class PlatformApiError extends Error {
  override readonly name = 'PlatformApiError';
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    /** Seconds to wait before retrying, on 429. */
    readonly retryAfter?: number,
    /** The RFC 6749 `error` of OAuth2 routes (`invalid_scope`, ...); the message is then its description. */
    readonly oauthError?: string,
    /** The platform's own words for an HTTP error, without the method and path (for messages a player reads). */
    readonly reason?: string,
  ) {
    super(message);
  }
}

/**
 * An HTTP error body's message in words: its `message`, and for Invalid Form Body the first
 * problem the body names (`errors.<path>._errors[0].message`).
 */
export function errorReason(message: string, errors: unknown): string {
  const first = firstFormError(errors, 0);
  return first === undefined ? message : `${message}: ${first}`;
}

function firstFormError(node: unknown, depth: number): string | undefined {
  if (typeof node !== 'object' || node === null || depth > 8) return undefined;
  const list = (node as { _errors?: unknown })._errors;
  if (Array.isArray(list)) {
    const message = (list[0] as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string') return message;
  }
  for (const [key, child] of Object.entries(node)) {
    if (key === '_errors') continue;
    const found = firstFormError(child, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The query of the platform's authorize route (names as the route takes them). */
export interface AuthorizeQuery {
  readonly client_id: string;
  /** Space-separated. */
  readonly scope: string;
  readonly state?: string;
  readonly nonce?: string;
  readonly code_challenge?: string;
  readonly code_challenge_method?: string;
  readonly integration_type?: number;
  readonly prompt?: string;
}

const API_PREFIX = '/api/v10';
const REDACTED = '[redacted]';

/** A small client of the platform's HTTP API (the emulator's routes; see platform/README.md). */
export class PlatformApi {
  private token: string | undefined;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(options: PlatformApiOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** Uses this token from now on (e.g. after login()). */
  setToken(token: string | undefined): void {
    this.token = token;
  }

  async gatewayUrl(): Promise<string> {
    const body = await this.request<{ url: string }>('GET', '/gateway', { auth: false });
    return body.url;
  }

  /**
   * The detectable applications (no auth, as the real route). `etag`: the tag of the copy the
   * host has; the platform answers 304 (`unchanged`) when it is still current.
   */
  async detectableApplications(etag: string | null): Promise<DetectableFetch> {
    const path = '/applications/detectable';
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (etag !== null) headers['If-None-Match'] = etag;
    let response: HttpResult;
    try {
      response = await httpRequest(`${this.baseUrl}${API_PREFIX}${path}`, { method: 'GET', headers, timeoutMs: this.timeoutMs });
    } catch (error) {
      throw new PlatformApiError(0, 0, `GET ${path}: ${this.describeFailure(error)}`);
    }
    if (response.status === 304) return { kind: 'unchanged' };
    const parsed = parseJson(response.text);
    if (response.status < 200 || response.status >= 300) throw this.httpError('GET', path, response, parsed);
    if (parsed === undefined) throw new PlatformApiError(response.status, 0, `GET ${path}: invalid JSON in the response`);
    const tag = response.headers.etag;
    return { kind: 'list', body: parsed, etag: typeof tag === 'string' ? tag : null };
  }

  /** Dev login (emulator only): a seeded or admin-created username → its token. */
  login(username: string): Promise<LoginResult> {
    return this.request<LoginResult>('POST', '/auth/login', { auth: false, body: { login: username } });
  }

  me(): Promise<PlatformUser> {
    return this.request('GET', '/users/@me');
  }

  relationships(): Promise<Relationship[]> {
    return this.request('GET', '/users/@me/relationships');
  }

  /** `{}`: a friend request to the user, or accepting theirs; `{type: 2}`: blocks them. */
  async putRelationship(userId: string, body: { readonly type?: 2 } = {}): Promise<void> {
    await this.request('PUT', `/users/@me/relationships/${seg(userId)}`, { body });
  }

  /** Unfriends, cancels or ignores a friend request, or unblocks: whatever stands between the two. */
  async deleteRelationship(userId: string): Promise<void> {
    await this.request('DELETE', `/users/@me/relationships/${seg(userId)}`);
  }

  /** A friend request by username (or accepting theirs); a username nobody has is a 400 with code 80004. */
  async sendFriendRequest(username: string): Promise<void> {
    await this.request('POST', '/users/@me/relationships', { body: { username } });
  }

  /** The app as the host shows it, or null when the platform does not know it. */
  async application(applicationId: string): Promise<RpcApplication | null> {
    try {
      return await this.request<RpcApplication>('GET', `/oauth2/applications/${seg(applicationId)}/rpc`, { auth: false });
    } catch (error) {
      if (error instanceof PlatformApiError && error.status === 404) return null;
      throw error;
    }
  }

  /**
   * The app as the host shows it, registered on first use when the platform does that (the
   * emulator's `POST /oauth2/applications/{id}/rpc`, with the user's token); null when the
   * platform does not know it and will not register it. A refusal for now (429) rejects with
   * its PlatformApiError, as does a platform without the route (405).
   */
  async registerApplication(applicationId: string): Promise<RpcApplication | null> {
    try {
      return await this.request<RpcApplication>('POST', `/oauth2/applications/${seg(applicationId)}/rpc`, { body: {} });
    } catch (error) {
      if (error instanceof PlatformApiError && error.status === 404) return null;
      throw error;
    }
  }

  /** The application's uploaded art assets: their ids (the CDN's file names) and names (what `large_image` keys may name). */
  async assets(applicationId: string): Promise<{ id: string; name: string }[]> {
    const assets = await this.request<unknown>('GET', `/oauth2/applications/${seg(applicationId)}/assets`, { auth: false });
    if (!Array.isArray(assets)) throw new PlatformApiError(0, 0, 'the assets answer is not a list');
    return assets.flatMap((asset) => {
      const { id, name } = (typeof asset === 'object' && asset !== null ? asset : {}) as { id?: unknown; name?: unknown };
      return typeof name === 'string' ? [{ id: typeof id === 'string' ? id : '', name }] : [];
    });
  }

  /** The names of the application's uploaded art assets (what `large_image` keys may name). */
  async assetNames(applicationId: string): Promise<string[]> {
    return (await this.assets(applicationId)).map((asset) => asset.name);
  }

  /** The DM channel with a user (created on first use). */
  openDm(recipientId: string): Promise<PlatformChannel> {
    return this.request('POST', '/users/@me/channels', { body: { recipient_id: recipientId } });
  }

  /** A DM channel's newest messages, newest first (`limit` 1 to 100). */
  channelMessages(channelId: string, limit: number): Promise<PlatformMessage[]> {
    return this.request('GET', `/channels/${seg(channelId)}/messages?limit=${limit}`);
  }

  sendMessage(channelId: string, body: SendMessageBody): Promise<PlatformMessage> {
    return this.request('POST', `/channels/${seg(channelId)}/messages`, { body });
  }

  async declineActivityRequest(channelId: string, messageId: string): Promise<void> {
    await this.request('POST', `/channels/${seg(channelId)}/messages/${seg(messageId)}/decline-activity-request`);
  }

  /**
   * The host's join secret, if the platform lets this user join (invite or public party).
   * `sessionId`: this client's gateway session, so the platform tells only the user's other
   * sessions that the invite was accepted.
   */
  joinActivity(userId: string, applicationId: string, messageId?: string, sessionId?: string): Promise<{ secret: string }> {
    const body: Record<string, string> = {};
    if (messageId !== undefined) body['message_id'] = messageId;
    if (sessionId !== undefined) body['session_id'] = sessionId;
    return this.request('POST', `/users/${seg(userId)}/activities/${seg(applicationId)}/join`, { body });
  }

  /** What the consent prompt shows, or the OAuth2 error the request would get. */
  authorizePreview(query: AuthorizeQuery): Promise<AuthorizePreview> {
    return this.request('GET', `/oauth2/authorize?${authorizeSearch(query)}`);
  }

  /** The player approved: the platform records the grant and issues a code without a redirect. */
  authorize(query: AuthorizeQuery): Promise<{ code: string; state?: string }> {
    return this.request('POST', `/oauth2/authorize?${authorizeSearch(query)}`, { body: { authorize: true, rpc: true } });
  }

  /** What an access token stands for (a game's, in AUTHENTICATE). */
  oauthMe(accessToken: string): Promise<OAuthMe> {
    return this.request('GET', '/oauth2/@me', { bearer: accessToken });
  }

  /** The signed-in user's guilds. */
  guilds(): Promise<{ id: string; name: string; icon: string | null }[]> {
    return this.request('GET', '/users/@me/guilds');
  }

  /** A guild of the user's, or null when there is none such (or the user is not in it). */
  guild(guildId: string): Promise<PlatformGuild | null> {
    return this.orNull(this.request('GET', `/guilds/${seg(guildId)}`));
  }

  guildChannels(guildId: string): Promise<PlatformChannel[] | null> {
    return this.orNull(this.request('GET', `/guilds/${seg(guildId)}/channels`));
  }

  channel(channelId: string): Promise<PlatformChannel | null> {
    return this.orNull(this.request('GET', `/channels/${seg(channelId)}`));
  }

  /** A 404 (or a 403: not the user's) means "no such thing" to the caller. */
  private async orNull<T>(request: Promise<T>): Promise<T | null> {
    try {
      return await request;
    } catch (error) {
      if (error instanceof PlatformApiError && (error.status === 404 || error.status === 403)) return null;
      throw error;
    }
  }

  /** What a game's access token stands for, asked as the signed-in user (whatever its scopes). */
  introspect(accessToken: string): Promise<TokenIntrospection> {
    return this.request('POST', '/oauth2/token/introspect', { body: { token: accessToken } });
  }

  /** What a device flow's user code asks of the signed-in player (the emulator's verify route, ours). */
  deviceCodePreview(userCode: string): Promise<DeviceCodePreview> {
    return this.request('GET', `/oauth2/device/verify?${new URLSearchParams({ user_code: userCode }).toString()}`);
  }

  /** The signed-in player approves or denies a device flow's user code. */
  decideDeviceCode(userCode: string, authorize: boolean): Promise<{ approved: boolean }> {
    return this.request('POST', '/oauth2/device/verify', { body: { user_code: userCode, authorize } });
  }

  /** The signed-in user's grants. */
  grants(): Promise<OAuthGrant[]> {
    return this.request('GET', '/oauth2/tokens');
  }

  async revokeGrant(grantId: string): Promise<void> {
    await this.request('DELETE', `/oauth2/tokens/${seg(grantId)}`);
  }

  private async request<T>(method: string, path: string, options: { auth?: boolean; body?: unknown; bearer?: string } = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (options.bearer !== undefined) headers['Authorization'] = `Bearer ${options.bearer}`;
    else if (options.auth !== false) {
      if (this.token === undefined) throw new PlatformApiError(401, 0, `${method} ${path}: not signed in`);
      headers['Authorization'] = this.token;
    }
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    let response: HttpResult;
    try {
      response = await httpRequest(`${this.baseUrl}${API_PREFIX}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        timeoutMs: this.timeoutMs,
      });
    } catch (error) {
      throw new PlatformApiError(0, 0, `${method} ${path}: ${this.describeFailure(error)}`);
    }
    const parsed = parseJson(response.text);
    if (response.status < 200 || response.status >= 300) throw this.httpError(method, path, response, parsed);
    if (response.status === 204 || response.text === '') return undefined as T;
    if (parsed === undefined) throw new PlatformApiError(response.status, 0, `${method} ${path}: invalid JSON in the response`);
    return parsed as T;
  }

  private httpError(method: string, path: string, response: HttpResult, body: unknown): PlatformApiError {
    const fields = (typeof body === 'object' && body !== null ? body : {}) as {
      code?: unknown;
      message?: unknown;
      errors?: unknown;
      retry_after?: unknown;
      error?: unknown;
      error_description?: unknown;
    };
    if (typeof fields.error === 'string') {
      // OAuth2 routes answer in the RFC form.
      const description = typeof fields.error_description === 'string' ? fields.error_description : fields.error;
      return new PlatformApiError(response.status, 0, this.scrub(description), undefined, fields.error);
    }
    const code = typeof fields.code === 'number' ? fields.code : 0;
    const message = typeof fields.message === 'string' ? fields.message : response.statusText;
    let retryAfter: number | undefined;
    if (response.status === 429) {
      const header = Number(response.headers['retry-after']);
      retryAfter = typeof fields.retry_after === 'number' ? fields.retry_after : Number.isFinite(header) ? header : undefined;
    }
    return new PlatformApiError(
      response.status,
      code,
      this.scrub(`${method} ${path} failed (${response.status}): ${message}`),
      retryAfter,
      undefined,
      this.scrub(errorReason(message, fields.errors)),
    );
  }

  private describeFailure(error: unknown): string {
    const code = error instanceof HttpRequestError ? error.code : 'unknown';
    if (code === 'TIMEOUT') return `no answer within ${this.timeoutMs} ms`;
    return `network error (${code})`;
  }

  /** A server may echo what it was sent; the token must not reach an error message. */
  private scrub(text: string): string {
    return this.token !== undefined && this.token !== '' ? text.split(this.token).join(REDACTED) : text;
  }
}

/** One path segment: ids come from games and users, so they must not add path parts. */
function seg(value: string): string {
  return encodeURIComponent(value);
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function authorizeSearch(query: AuthorizeQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  params.set('response_type', 'code');
  return params.toString();
}
