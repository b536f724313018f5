import { createAuthorizationCodeVerifier } from '../../../../rpc/client/index.js';
import { formatValue } from './redact.js';
import { checkReply, describeFailure, settleReply, StepFailure, textMatches, type ReplyResult } from './reply-check.js';
import type { ScenarioContext } from './scenario-context.js';
import type { ReplyExpect, StepBodies } from './scenario-schema.js';
import { sleep, within } from './waiting.js';

type Answer = NonNullable<StepBodies['consent']['answer']>;

interface PromptView {
  readonly id: string;
  readonly connection_id: string | null;
  readonly application: { readonly id: string; readonly name: string };
  readonly scopes: readonly string[];
}

/** The error every refused consent answers AUTHORIZE with (denied, dismissed). */
const DENIED: ReplyExpect = { error: { code: 5000, message: 'access_denied' } };

/** Long enough for any prompt answer; the step's own timeout bounds the wait for the reply. */
const AUTHORIZE_REQUEST_MS = 10 * 60_000;

/** Waits for the oldest pending prompt (of that connection, when given) and answers it. */
async function answerPrompt(ctx: ScenarioContext, answer: Answer, connectionId: string | null, timeoutMs: number): Promise<PromptView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { consent_requests: prompts } = (await ctx.controlOk('GET', '/v1/consent')) as { consent_requests: PromptView[] };
    const prompt = prompts.find((candidate) => connectionId === null || candidate.connection_id === connectionId);
    if (prompt !== undefined) {
      if (answer === 'dismiss') {
        try {
          await ctx.host.dismissConsent(prompt.id);
        } catch (error) {
          throw new StepFailure(`could not dismiss the prompt: ${error instanceof Error ? error.message : String(error)}`);
        }
      } else {
        await ctx.controlOk('POST', `/v1/consent/${encodeURIComponent(prompt.id)}/${answer}`);
      }
      return prompt;
    }
    if (Date.now() > deadline) throw new StepFailure(`no consent prompt${connectionId === null ? '' : ` for this game`} within ${timeoutMs} ms (GET /v1/consent)`);
    await sleep(10);
  }
}

export async function consentStep(ctx: ScenarioContext, body: StepBodies['consent']): Promise<string | void> {
  if (body.policy !== undefined) {
    try {
      await ctx.host.setConsentPolicy(body.policy);
    } catch (error) {
      throw new StepFailure(`could not set the consent policy: ${error instanceof Error ? error.message : String(error)}`);
    }
    return;
  }
  const connectionId = body.game === undefined ? null : (await ctx.connectionOf(ctx.game(body.game))).connection_id;
  const prompt = await answerPrompt(ctx, body.answer as Answer, connectionId, body.timeout_ms ?? ctx.timeoutMs);
  return `${prompt.application.name}: ${prompt.scopes.join(' ')}`;
}

function expectationOf(expect: StepBodies['authorize']['expect']): ReplyExpect {
  if (expect === undefined || expect === 'approved') return { data: { code: '/./' } };
  if (expect === 'denied') return DENIED;
  return expect;
}

/**
 * AUTHORIZE (with a PKCE challenge) from the game, the answer to its prompt, and on approval
 * the token exchange at the platform (the SDK's getToken) and AUTHENTICATE with the token the
 * SDK then keeps for reconnects, as a game does. Codes, verifiers and tokens go to the
 * scenario's secrets, so no message can show them.
 */
export async function authorizeStep(ctx: ScenarioContext, body: StepBodies['authorize']): Promise<string> {
  const entry = ctx.game(body.game);
  const timeoutMs = body.timeout_ms ?? ctx.timeoutMs;
  const scopes = typeof body.scopes === 'string' ? body.scopes.split(/\s+/).filter((scope) => scope !== '') : (body.scopes ?? ['identify']);
  const verifier = createAuthorizationCodeVerifier();
  ctx.secrets.add(verifier.verifier());
  const connection = entry.game.client.connection;
  const request = settleReply(
    connection.request(
      'AUTHORIZE',
      { client_id: entry.clientId, scopes, code_challenge: verifier.challenge().challenge(), code_challenge_method: 'S256' },
      { timeoutMs: AUTHORIZE_REQUEST_MS },
    ),
  );
  if (body.answer !== undefined) {
    const connectionId = (await ctx.connectionOf(entry)).connection_id;
    await answerPrompt(ctx, body.answer, connectionId, timeoutMs);
  }
  const result: ReplyResult | undefined = await within(request, timeoutMs);
  if (result === undefined) throw new StepFailure(`no reply to AUTHORIZE within ${timeoutMs} ms${body.answer === undefined ? ' (nobody answered the prompt: add answer, or set the consent policy)' : ''}`);
  if (result.ok && typeof (result.data as { code?: unknown } | null)?.code === 'string') ctx.secrets.add((result.data as { code: string }).code);
  checkReply(result, expectationOf(body.expect));
  if (!result.ok) return `refused: ${describeFailure(result)}`;
  const code = (result.data as { code?: unknown } | null)?.code;
  if (body.authenticate === false || typeof code !== 'string') return 'approved';

  const exchanged = await entry.game.client.getToken(entry.clientId, code, verifier.verifier(), null);
  const wantedError = body.expect_token_error;
  if (wantedError !== undefined) {
    if (exchanged.result.successful) throw new StepFailure(`expected the token exchange to fail with ${formatValue(wantedError)}, it succeeded`);
    if (!textMatches(wantedError, exchanged.result.error)) throw new StepFailure(`expected the token exchange to fail with ${formatValue(wantedError)}, got ${formatValue(exchanged.result.error)}`);
    return `approved; the token exchange failed as expected: ${exchanged.result.error}`;
  }
  if (!exchanged.result.successful || exchanged.token === null) throw new StepFailure(`approved, but the code could not be redeemed: ${exchanged.result.error}`);
  const token = exchanged.token;
  for (const secret of [token.accessToken, token.refreshToken, token.idToken]) if (secret !== undefined) ctx.secrets.add(secret);
  // Kept by the SDK like updateToken does, so a reconnect authenticates again and a revoke drops it.
  connection.setAccessToken(token.accessToken);
  const authenticated = await settleReply(connection.request('AUTHENTICATE', { access_token: token.accessToken }, { timeoutMs }));
  if (body.expect_authenticate === undefined && !authenticated.ok) throw new StepFailure(`approved, but AUTHENTICATE failed: ${describeFailure(authenticated)}`);
  if (body.expect_authenticate !== undefined) {
    try {
      checkReply(authenticated, await ctx.resolve(body.expect_authenticate));
    } catch (error) {
      if (error instanceof StepFailure) throw new StepFailure(`AUTHENTICATE: ${error.message}`);
      throw error;
    }
  }
  if (!authenticated.ok) return `approved; AUTHENTICATE refused: ${describeFailure(authenticated)}`;
  const data = authenticated.data as { user?: { username?: string }; scopes?: string[] };
  return `approved, authenticated as ${formatValue(data.user?.username ?? '?')} with ${(data.scopes ?? []).join(' ')}`;
}
