import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { VoiceView } from '../../../../preload/src/contract.js';
import { decodeCallWav, pcmChunks, WavError } from '../audio/call-wav.js';
import { StepFailure } from './reply-check.js';
import type { ScenarioContext } from './scenario-context.js';
import type { StepBodies } from './scenario-schema.js';
import { sleep } from './waiting.js';

interface FriendVoiceAnswer {
  readonly message?: string;
  readonly errors?: unknown;
  readonly voice_state?: { readonly channel_id?: string | null } | null;
  readonly speaking?: boolean;
}

/** The first message of a 50035 body's `errors`, or the body's message. */
function refusal(answer: FriendVoiceAnswer | null, status: number): string {
  const nested = JSON.stringify(answer?.errors ?? null).match(/"message":"((?:[^"\\]|\\.)*)"/)?.[1];
  return nested ?? answer?.message ?? `HTTP ${status}`;
}

async function postFriendVoice(admin: { readonly url: string; readonly adminToken: string }, request: Record<string, unknown>): Promise<FriendVoiceAnswer | null> {
  let response: Response;
  try {
    response = await fetch(`${admin.url}/_emulator/simulated-friend/voice`, {
      method: 'POST',
      headers: { Authorization: `Admin ${admin.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(5000),
    });
  } catch {
    throw new StepFailure(`the platform emulator at ${admin.url} does not answer`);
  }
  const answer = (await response.json().catch(() => null)) as FriendVoiceAnswer | null;
  if (!response.ok) throw new StepFailure(`the emulator refused: ${refusal(answer, response.status)}`);
  return answer;
}

/** A WAV file (relative to the scenario file) as `pcm` chunks for the lobby call. */
async function wavChunks(ctx: ScenarioContext, file: string): Promise<string[]> {
  const full = path.resolve(ctx.dir, file);
  try {
    return pcmChunks(decodeCallWav(await readFile(full)));
  } catch (error) {
    if (error instanceof WavError) throw new StepFailure(`wav: ${file} ${error.message}`);
    throw new StepFailure(`wav: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

/**
 * The simulated friend in a server voice channel, or with `lobby` in a lobby's call
 * (`/_emulator/simulated-friend/voice`, as `companion platform friend voice`): join, speak for
 * `ms` (1 s by default; a server channel carries no audio, so the tone is its length only; in a
 * call the tone plays, or a WAV file), quiet, mute, unmute, deaf, undeaf, leave.
 */
export async function friendVoiceStep(ctx: ScenarioContext, body: StepBodies['friend_voice']): Promise<string> {
  const admin = ctx.host.platformAdmin;
  if (admin === null) throw new StepFailure(`the simulated friend needs the platform emulator's admin API: ${ctx.host.label} has none`);
  const lobby = body.lobby === undefined ? undefined : await ctx.resolve(body.lobby);
  const base = { as: body.as, action: body.action, ...(lobby === undefined ? {} : { lobby_id: lobby }) };
  const requests: Record<string, unknown>[] =
    body.wav !== undefined
      ? (await wavChunks(ctx, await ctx.resolve(body.wav))).map((pcm) => ({ ...base, pcm }))
      : [
          {
            ...base,
            ...(body.channel === undefined ? {} : { channel: await ctx.resolve(body.channel) }),
            ...(body.action === 'speak' ? { duration_ms: body.ms ?? 1000 } : {}),
            ...(body.action === 'speak' && lobby !== undefined && body.tone_hz !== undefined ? { frequency_hz: body.tone_hz } : {}),
          },
        ];
  let answer: FriendVoiceAnswer | null = null;
  for (const request of requests) answer = await postFriendVoice(admin, request);
  if (lobby !== undefined) return answer?.voice_state === null || answer?.voice_state === undefined ? `not in lobby ${lobby}'s call` : `in lobby ${lobby}'s call${answer.speaking === true ? ', speaking' : ''}`;
  const channel = answer?.voice_state?.channel_id ?? null;
  return channel === null ? 'not in a voice channel' : `in ${channel}${answer?.speaking === true ? ', speaking' : ''}`;
}

/** Waits until Companion shows `user` speaking (or not, `speaking: false`) in the host's voice channel (GET /v1/voice). */
export async function expectSpeakingStep(ctx: ScenarioContext, body: StepBodies['expect_speaking']): Promise<void> {
  const timeoutMs = body.timeout_ms ?? ctx.timeoutMs;
  const want = body.speaking ?? true;
  const userId = await ctx.userId(await ctx.resolve(body.user));
  const deadline = Date.now() + timeoutMs;
  let last = 'the host is in no voice channel';
  for (;;) {
    const view = (await ctx.controlOk('GET', '/v1/voice')) as VoiceView;
    const member = view.members.find((candidate) => candidate.user.id === userId);
    if (view.channel !== null) last = member === undefined ? `${body.user} is not in the host's voice channel` : `${body.user} is ${member.speaking ? '' : 'not '}speaking`;
    if (member !== undefined && member.speaking === want) return;
    if (!want && view.channel !== null && member === undefined) return;
    if (Date.now() > deadline) throw new StepFailure(`expected ${body.user} ${want ? '' : 'not '}speaking in the host's voice channel: ${last} (after ${timeoutMs} ms)`);
    await sleep(Math.min(50, Math.max(1, deadline - Date.now())), ctx.signal);
  }
}
