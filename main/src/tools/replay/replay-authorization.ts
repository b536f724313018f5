import { Opcode } from '../../../../rpc/src/index.js';
import { AuthorizationSubstitutes, type SubstitutesOptions } from './authorization-substitutes.js';
import type { ReplayConnection } from './replay-connection.js';
import { field, nonceOf } from './replay-frame-keys.js';
import type { TimedFrame } from './replay-plan.js';

type Args = Record<string, unknown>;

function isArgs(value: unknown): value is Args {
  return typeof value === 'object' && value !== null;
}

/** `promise`, or `fallback` after `ms` (the timer does not outlive the race). */
async function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The frames replay sends with authorization values issued anew (AuthorizationSubstitutes): an
 * AUTHORIZE with a fresh state/PKCE pair whose code is redeemed at the platform, an AUTHENTICATE
 * with the token so obtained. Notes say what was substituted, never a value.
 */
export class ReplayAuthorization {
  readonly notes: string[] = [];
  private readonly substitutes: AuthorizationSubstitutes;
  private readonly redemptions: Promise<unknown>[] = [];

  constructor(private readonly options: SubstitutesOptions) {
    this.substitutes = new AuthorizationSubstitutes(options);
  }

  /** The payload as replay sends it. */
  async payload(connection: ReplayConnection, frame: TimedFrame): Promise<unknown> {
    if (frame.opcode !== Opcode.Frame) return frame.payload;
    const cmd = field(frame.payload, 'cmd');
    const args = field(frame.payload, 'args');
    if (!isArgs(args)) return frame.payload;
    const nonce = nonceOf(frame.payload) ?? '?';
    if (cmd === 'AUTHORIZE') return { ...(frame.payload as Args), args: this.authorize(connection, nonce, args) };
    if (cmd === 'AUTHENTICATE') return await this.authenticate(connection, nonce, frame.payload as Args, args);
    return frame.payload;
  }

  /** Answers what is still waiting for a reply and waits for the code redemptions under way. */
  async settle(): Promise<void> {
    this.substitutes.abandon();
    await Promise.all(this.redemptions);
  }

  private authorize(connection: ReplayConnection, nonce: string, args: Args): Args {
    const key = `${connection.plan.id} AUTHORIZE (nonce ${nonce})`;
    const applicationId = String(args['client_id'] ?? connection.plan.clientId ?? '');
    const sentArgs = this.substitutes.authorizeSent(key, applicationId, args);
    let gotCode = false;
    connection.socket?.onReply(nonce, (reply) => {
      const code = field(field(reply.payload, 'data'), 'code');
      gotCode = typeof code === 'string';
      this.substitutes.authorizeAnswered(key, typeof code === 'string' ? { code } : { error: 'its reply carried no code' });
    });
    const token = this.substitutes.accessToken(applicationId);
    if (token !== undefined) {
      this.redemptions.push(
        token.then((outcome) => {
          if (outcome.ok) this.notes.push(`${key}: the new code was redeemed at the platform's token endpoint`);
          else if (gotCode) connection.extra.push({ what: `token exchange for ${key}`, differences: [{ path: '$', expected: 'an access token', actual: outcome.error }] });
        }),
      );
    }
    return sentArgs;
  }

  private async authenticate(connection: ReplayConnection, nonce: string, payload: Args, args: Args): Promise<unknown> {
    const applicationId = connection.plan.clientId ?? '';
    const pending = this.substitutes.accessToken(applicationId);
    const what = `${connection.plan.id} AUTHENTICATE (nonce ${nonce})`;
    if (pending === undefined) {
      this.notes.push(`${what}: no AUTHORIZE of this replay asked for a token for ${applicationId}; sent the recorded value`);
      return payload;
    }
    const outcome = await withTimeout(pending, this.options.timeoutMs, { ok: false, error: 'no token in time' });
    if (!outcome.ok) {
      this.notes.push(`${what}: no new token (${outcome.error}); sent the recorded value`);
      return payload;
    }
    this.notes.push(`${what}: sent the access token redeemed for ${outcome.from}`);
    return { ...payload, args: { ...args, access_token: outcome.token } };
  }
}
