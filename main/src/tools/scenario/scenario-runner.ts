import path from 'node:path';
import { callStep, expectAudioStep, expectCallSpeaking } from './call-steps.js';
import { scrubText } from './redact.js';
import { StepFailure } from './reply-check.js';
import { ScenarioContext } from './scenario-context.js';
import { startFreshHost, useExistingHost, type ExistingHostOptions, type ScenarioHost } from './scenario-host.js';
import type { Scenario, Step, StepKind } from './scenario-schema.js';
import { stepTitle } from './step-titles.js';
import { sleep } from './waiting.js';
import { authorizeStep, consentStep } from './auth-steps.js';
import { controlStep } from './control-step.js';
import {
  commandStep,
  disconnectStep,
  expectEventStep,
  expectNoEventStep,
  expectReplyStep,
  expectStatusStep,
  gameStep,
  setActivityStep,
} from './game-steps.js';
import { injectStep } from './inject-step.js';
import { expectPresenceStep, friendStep } from './social-steps.js';
import { expectSpeakingStep, friendVoiceStep } from './voice-steps.js';
import { expectSdkEventStep, sdkCallStep, sdkStep } from './sdk-steps.js';

export interface StepResult {
  /** 1-based, as in the file. */
  readonly index: number;
  readonly kind: StepKind;
  readonly title: string;
  readonly status: 'ok' | 'fail' | 'skip';
  readonly ms?: number;
  /** What happened, for ok lines (`approved, authenticated as 'alice'`). */
  readonly note?: string;
  /** Why it failed. */
  readonly message?: string;
}

export interface ScenarioResult {
  readonly file: string;
  readonly name: string;
  readonly ok: boolean;
  readonly ms: number;
  readonly steps: readonly StepResult[];
  /** `step 4 command SET_ACTIVITY: expected ...`, or `host: ...` when the host could not be had. */
  readonly failure?: string;
}

/** Told as the run goes, for output line by line. */
export interface RunListener {
  scenarioStarted?(file: string, scenario: Scenario): void;
  step?(file: string, scenario: Scenario, result: StepResult): void;
  scenarioEnded?(result: ScenarioResult): void;
}

export interface RunScenarioOptions {
  readonly version: string;
  /** Where `host: {use: existing}` scenarios find their host (`--host`, `--runtime-dir`). */
  readonly existing: ExistingHostOptions;
  /** Stops the run: the current step fails as interrupted, the rest are skipped, all is cleaned up. */
  readonly signal?: AbortSignal;
}

interface Timing {
  readonly label?: string;
  readonly startedAt: number;
  readonly endedAt: number;
}

function runStep(ctx: ScenarioContext, step: Step, timings: readonly Timing[]): Promise<string | void> {
  switch (step.kind) {
    case 'game':
      return gameStep(ctx, step.body);
    case 'command':
      return commandStep(ctx, step.body);
    case 'expect_reply':
      return expectReplyStep(ctx, step.body);
    case 'set_activity':
      return setActivityStep(ctx, step.body);
    case 'expect_event':
      return expectEventStep(ctx, step.body);
    case 'expect_no_event':
      return expectNoEventStep(ctx, step.body);
    case 'expect_status':
      return expectStatusStep(ctx, step.body);
    case 'disconnect':
      return disconnectStep(ctx, step.body);
    case 'consent':
      return consentStep(ctx, step.body);
    case 'authorize':
      return authorizeStep(ctx, step.body);
    case 'inject':
      return injectStep(ctx, step.body);
    case 'friend':
      return friendStep(ctx, step.body);
    case 'expect_presence':
      return expectPresenceStep(ctx, step.body);
    case 'friend_voice':
      return friendVoiceStep(ctx, step.body);
    case 'expect_speaking':
      return step.body.sdk === undefined ? expectSpeakingStep(ctx, step.body) : expectCallSpeaking(ctx, { ...step.body, sdk: step.body.sdk });
    case 'call':
      return callStep(ctx, step.body);
    case 'expect_audio':
      return expectAudioStep(ctx, step.body);
    case 'control':
      return controlStep(ctx, step.body);
    case 'wait':
      return sleep(typeof step.body === 'number' ? step.body : step.body.ms, ctx.signal);
    case 'expect_timing':
      return Promise.resolve(checkTiming(step.body, timings));
    case 'sdk':
      return sdkStep(ctx, step.body);
    case 'sdk_call':
      return sdkCallStep(ctx, step.body);
    case 'expect_sdk_event':
      return expectSdkEventStep(ctx, step.body);
  }
}

/** The previous step's duration, or from the start of the labelled step to the end of the previous one. */
function checkTiming(body: Extract<Step, { kind: 'expect_timing' }>['body'], timings: readonly Timing[]): string {
  const previous = timings.at(-1);
  if (previous === undefined) throw new StepFailure('there is no previous step to time');
  const from = body.from === undefined ? previous : timings.find((timing) => timing.label === body.from);
  if (from === undefined) throw new StepFailure(`no step labelled ${body.from ?? '?'} ran`);
  const took = Math.round(previous.endedAt - from.startedAt);
  const what = body.from === undefined ? 'the previous step' : `from ${body.from} to the end of the previous step`;
  if (body.max_ms !== undefined && took > body.max_ms) throw new StepFailure(`expected ${what} to take at most ${body.max_ms} ms, it took ${took} ms`);
  if (body.min_ms !== undefined && took < body.min_ms) throw new StepFailure(`expected ${what} to take at least ${body.min_ms} ms, it took ${took} ms`);
  return `took ${took} ms`;
}

function interrupted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal === undefined) return;
    const stop = (): void => reject(new StepFailure('interrupted'));
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
}

async function openHost(scenario: Scenario, options: RunScenarioOptions): Promise<ScenarioHost> {
  if (scenario.host.use !== 'existing') return startFreshHost(scenario.host, options.version);
  const host = await useExistingHost(options.existing);
  if (scenario.host.consent !== undefined) {
    try {
      await host.setConsentPolicy(scenario.host.consent);
    } catch (error) {
      await host.close().catch(() => undefined);
      throw new Error(`could not set the consent policy: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return host;
}

/**
 * Runs one scenario: gets its host, runs the steps in order until the first failure (the rest
 * are skipped), then closes every game, friend session and host it opened and removes its temp
 * dirs, whatever happened.
 */
export async function runScenario(file: string, scenario: Scenario, options: RunScenarioOptions, listener: RunListener = {}): Promise<ScenarioResult> {
  const started = performance.now();
  listener.scenarioStarted?.(file, scenario);
  const results: StepResult[] = [];
  const report = (result: StepResult): void => {
    results.push(result);
    listener.step?.(file, scenario, result);
  };
  const skipFrom = (from: number): void => {
    for (let index = from; index < scenario.steps.length; index += 1) {
      const step = scenario.steps[index] as Step;
      report({ index: index + 1, kind: step.kind, title: stepTitle(step), status: 'skip' });
    }
  };
  const finish = (failure: string | undefined): ScenarioResult => {
    const result: ScenarioResult = { file, name: scenario.name, ok: failure === undefined, ms: Math.round(performance.now() - started), steps: results, ...(failure === undefined ? {} : { failure }) };
    listener.scenarioEnded?.(result);
    return result;
  };

  // One promise for the whole scenario, raced with each step (handled: it may never be awaited).
  const stopped = interrupted(options.signal);
  stopped.catch(() => undefined);
  let host: ScenarioHost;
  const opening = openHost(scenario, options);
  try {
    host = await Promise.race([opening, stopped]);
  } catch (error) {
    // Interrupted while starting: the host still comes up, and goes again at once.
    await opening.then((late) => late.close(), () => undefined).catch(() => undefined);
    skipFrom(0);
    return finish(`host: ${error instanceof Error ? error.message : String(error)}`);
  }
  const ctx = new ScenarioContext(host, scenario.timeoutMs, options.signal, path.dirname(path.resolve(file)));
  const timings: Timing[] = [];
  let failure: string | undefined;
  try {
    for (let index = 0; index < scenario.steps.length; index += 1) {
      const step = scenario.steps[index] as Step;
      const title = stepTitle(step);
      const startedAt = performance.now();
      try {
        const note = await Promise.race([runStep(ctx, step, timings), stopped]);
        const endedAt = performance.now();
        timings.push({ ...(step.label === undefined ? {} : { label: step.label }), startedAt, endedAt });
        report({ index: index + 1, kind: step.kind, title, status: 'ok', ms: Math.round(endedAt - startedAt), ...(typeof note === 'string' ? { note: scrubText(note, ctx.secrets) } : {}) });
      } catch (error) {
        const raw = error instanceof StepFailure ? error.message : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
        const message = scrubText(raw, ctx.secrets);
        report({ index: index + 1, kind: step.kind, title, status: 'fail', ms: Math.round(performance.now() - startedAt), message });
        failure = `step ${index + 1} ${step.kind} ${title}: ${message}`;
        skipFrom(index + 1);
        break;
      }
    }
  } finally {
    await ctx.closeAll();
    await host.close().catch(() => undefined);
  }
  return finish(failure);
}
