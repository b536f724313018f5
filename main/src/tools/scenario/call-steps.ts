import { goertzelPower, zeroCrossingHz } from '../audio/tone-analysis.js';
import { StepFailure } from './reply-check.js';
import type { ScenarioContext } from './scenario-context.js';
import type { StepBodies } from './scenario-schema.js';
import { sleep } from './waiting.js';

const DEFAULT_TOLERANCE_HZ = 20;
const DEFAULT_WINDOW_MS = 400;
const FRAME_MS = 20;
/** A tone's Goertzel power must beat a half octave up's by this much (a tone, not noise or speech). */
const TONE_OVER_NEIGHBOUR = 10;

/** An SDK game starts or joins the lobby's call (its received audio recorded) and waits until connected; or ends it. */
export async function callStep(ctx: ScenarioContext, body: StepBodies['call']): Promise<string> {
  const entry = ctx.sdk(body.sdk);
  const lobbyId = await ctx.resolve(body.lobby);
  if (body.end === true) {
    const result = await entry.client.endCall(lobbyId);
    if (!result.successful) throw new StepFailure(`${body.sdk} could not end the call of lobby ${lobbyId}: ${result.error}`);
    return 'left';
  }
  const timeoutMs = body.timeout_ms ?? Math.max(ctx.timeoutMs, 10_000);
  try {
    const call = await entry.startCall(lobbyId, timeoutMs);
    return `connected, ${call.getParticipants().length} in the call`;
  } catch (error) {
    throw new StepFailure(error instanceof Error ? error.message : String(error));
  }
}

/** Waits until the SDK game's call says `user` speaks (or not), from its speaking callbacks. */
export async function expectCallSpeaking(ctx: ScenarioContext, body: StepBodies['expect_speaking'] & { readonly sdk: string }): Promise<void> {
  const entry = ctx.sdk(body.sdk);
  const userId = await ctx.userId(await ctx.resolve(body.user));
  const lobbyId = body.lobby === undefined ? undefined : await ctx.resolve(body.lobby);
  const want = body.speaking ?? true;
  const timeoutMs = body.timeout_ms ?? ctx.timeoutMs;
  const found = await entry.waitFor(() => ((entry.speaking(lobbyId, userId) ?? false) === want ? true : undefined), timeoutMs);
  if (found === undefined) throw new StepFailure(`expected ${body.user} ${want ? '' : 'not '}speaking in ${body.sdk}'s call: its speaking callbacks say ${entry.speaking(lobbyId, userId) === true ? 'speaking' : 'not speaking'} (after ${timeoutMs} ms)`);
}

/** The tone heard in `samples`, when it is within the tolerance of `toneHz` and dominates. */
function toneHeard(samples: Int16Array, sampleRate: number, toneHz: number, toleranceHz: number): { readonly ok: boolean; readonly hz: number } {
  const hz = zeroCrossingHz(samples, sampleRate);
  const dominant = goertzelPower(samples, toneHz, sampleRate) > TONE_OVER_NEIGHBOUR * goertzelPower(samples, toneHz * 1.5, sampleRate);
  return { ok: Math.abs(hz - toneHz) <= toleranceHz && dominant, hz };
}

/**
 * Waits until the SDK game's received-audio callback got `ms` of sound from `from` at `tone_hz`
 * (zero crossings within the tolerance, the Goertzel power there dominating); with `none`, until
 * nothing loud came from `from` for `ms`. Looks at what came after the previous expect_audio.
 */
export async function expectAudioStep(ctx: ScenarioContext, body: StepBodies['expect_audio']): Promise<string> {
  const entry = ctx.sdk(body.sdk);
  const userId = await ctx.userId(await ctx.resolve(body.from));
  const windowMs = body.ms ?? DEFAULT_WINDOW_MS;
  const timeoutMs = body.timeout_ms ?? Math.max(ctx.timeoutMs, windowMs + 3000);
  if (body.none !== true && body.tone_hz === undefined) throw new StepFailure('expect_audio needs tone_hz (the frequency to hear) or none: true');
  const started = Date.now();
  const deadline = started + timeoutMs;
  let last = 'nothing';
  for (;;) {
    if (body.none === true) {
      const quietFor = Date.now() - Math.max(started, entry.audio.lastLoudAt(userId));
      if (quietFor >= windowMs) {
        entry.audio.consume(userId);
        return `silence from ${body.from} for ${windowMs} ms`;
      }
      last = `sound from ${body.from} ${Date.now() - entry.audio.lastLoudAt(userId)} ms ago`;
    } else {
      const samples = entry.audio.recentLoud(userId, Math.ceil(windowMs / FRAME_MS));
      if (samples !== undefined) {
        const heard = toneHeard(samples, entry.audio.sampleRate, body.tone_hz as number, body.tolerance_hz ?? DEFAULT_TOLERANCE_HZ);
        if (heard.ok) {
          entry.audio.consume(userId);
          return `heard ${Math.round(heard.hz)} Hz`;
        }
        last = `a sound at about ${Math.round(heard.hz)} Hz`;
      } else {
        last = entry.audio.unreadCount(userId) === 0 ? 'nothing' : `less than ${windowMs} ms of sound`;
      }
    }
    if (Date.now() > deadline) throw new StepFailure(`expected ${body.none === true ? `no sound from ${body.from}` : `${body.from} at ${body.tone_hz ?? '?'} Hz`} in ${body.sdk}'s received audio: it got ${last} (after ${timeoutMs} ms)`);
    await sleep(FRAME_MS, ctx.signal);
  }
}
