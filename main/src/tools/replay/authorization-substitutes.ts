import { createAuthorizationCodeVerifier } from '../../../../rpc/client/pkce.js';
import { getToken } from '../../../../rpc/client/oauth-http.js';
import { ClientResultError } from '../../../../rpc/client/client-result.js';

export interface SubstitutesOptions {
  /** The platform the host signs in to (its token endpoint redeems the codes); null when unknown. */
  readonly platformUrl: string | null;
  /** For confidential applications; public clients (the demo app) need none. */
  readonly clientSecret?: string | undefined;
  readonly timeoutMs: number;
}

/** The token redeemed for an application, or why there is none. */
export type TokenOutcome = { readonly ok: true; readonly token: string; readonly from: string } | { readonly ok: false; readonly error: string };

/**
 * The values a fresh host issues anew, and replay therefore cannot take from the recording:
 * - an AUTHORIZE with a PKCE `code_challenge` gets a fresh challenge (replay keeps the
 *   verifier, which the recording never held);
 * - the code in the new AUTHORIZE reply is redeemed at the platform's token endpoint, as the
 *   game (or its backend) did;
 * - AUTHENTICATE sends the newest access token redeemed for the connection's application,
 *   whatever the recording holds (a token of the recorded run, or `[redacted]`).
 * Nothing here is logged or reported with its value.
 */
export class AuthorizationSubstitutes {
  private readonly verifiers = new Map<string, string>();
  /** Per application: the token of its latest AUTHORIZE, pending until that reply came and was redeemed. */
  private readonly tokens = new Map<string, Promise<TokenOutcome>>();
  private readonly replies = new Map<string, (reply: { code: string } | { error: string }) => void>();

  constructor(private readonly options: SubstitutesOptions) {}

  /**
   * AUTHORIZE `key` (connection and nonce) of `applicationId` is about to be sent: its args as
   * replay sends them. From now on, AUTHENTICATE of that application waits for its token.
   */
  authorizeSent(key: string, applicationId: string, args: Record<string, unknown>): Record<string, unknown> {
    const reply = new Promise<{ code: string } | { error: string }>((resolve) => this.replies.set(key, resolve));
    this.tokens.set(
      applicationId,
      reply.then((answer) => ('code' in answer ? this.redeem(key, applicationId, answer.code) : { ok: false, error: answer.error })),
    );
    if (args['code_challenge'] === undefined) return args;
    const verifier = createAuthorizationCodeVerifier();
    this.verifiers.set(key, verifier.verifier());
    const challenge = verifier.challenge();
    return { ...args, code_challenge: challenge.challenge(), code_challenge_method: challenge.method() };
  }

  /** The reply to AUTHORIZE `key` arrived: its code (redeemed now), or why it has none. */
  authorizeAnswered(key: string, answer: { code: string } | { error: string }): void {
    this.replies.get(key)?.(answer);
    this.replies.delete(key);
  }

  /** The replay is over: AUTHORIZE requests still unanswered never will be. */
  abandon(): void {
    for (const key of [...this.replies.keys()]) this.authorizeAnswered(key, { error: 'no reply' });
  }

  /**
   * The token for AUTHENTICATE of `applicationId`: the latest AUTHORIZE's (waiting for it if it
   * is still in flight); undefined when no AUTHORIZE of the replay asked for one.
   */
  accessToken(applicationId: string): Promise<TokenOutcome> | undefined {
    return this.tokens.get(applicationId);
  }

  private redeem(key: string, applicationId: string, code: string): Promise<TokenOutcome> {
    const platformUrl = this.options.platformUrl;
    if (platformUrl === null) return Promise.resolve({ ok: false, error: "the platform's URL is unknown (the host's runtime file does not name it)" });
    const verifier = this.verifiers.get(key);
    return getToken({
      platformBase: platformUrl,
      applicationId,
      code,
      ...(verifier === undefined ? {} : { codeVerifier: verifier }),
      ...(this.options.clientSecret === undefined ? {} : { clientSecret: this.options.clientSecret }),
      timeoutMs: this.options.timeoutMs,
    }).then(
      (response): TokenOutcome => ({ ok: true, token: response.accessToken, from: key }),
      (error: unknown): TokenOutcome => ({ ok: false, error: describe(error) }),
    );
  }
}

function describe(error: unknown): string {
  if (error instanceof ClientResultError) return `the token endpoint refused the code: ${error.result.error}`;
  return error instanceof Error ? error.message : String(error);
}
