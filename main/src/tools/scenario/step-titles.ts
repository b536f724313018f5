import type { Step } from './scenario-schema.js';

/** The short text after the step kind in a step line: `ok 3 expect_event ACTIVITY_JOIN (12 ms)`. */
export function stepTitle(step: Step): string {
  switch (step.kind) {
    case 'game':
      return `${step.body.name} (${step.body.client_id})`;
    case 'command':
      return `${step.body.cmd}${step.body.async === undefined ? '' : ` as ${step.body.async}`}`;
    case 'expect_reply':
      return step.body.ref;
    case 'set_activity':
      return `${step.body.game}${step.body.activity === null ? ' (clear)' : ''}`;
    case 'expect_event':
    case 'expect_no_event':
      return `${step.body.evt} on ${step.body.game}`;
    case 'expect_status': {
      const parts = [
        step.body.close_code === undefined ? undefined : `close ${step.body.close_code}`,
        step.body.status,
        step.body.closed === false ? 'never closed' : undefined,
      ].filter((part) => part !== undefined);
      return `${step.body.game} ${parts.join(', ')}`;
    }
    case 'disconnect':
      return typeof step.body === 'string' ? step.body : step.body.game;
    case 'consent':
      return step.body.policy !== undefined ? `policy ${step.body.policy}` : `${step.body.answer} the next prompt`;
    case 'authorize':
      return `${step.body.game}${step.body.answer === undefined ? '' : ` (${step.body.answer})`}`;
    case 'inject':
      return injectTitle(step.body);
    case 'friend':
      return `${step.body.as} ${step.body.action}`;
    case 'friend_voice':
      return `${step.body.as} ${step.body.action}${step.body.channel === undefined ? '' : ` ${step.body.channel}`}${step.body.lobby === undefined ? '' : ' in the lobby call'}`;
    case 'expect_speaking':
      return `${step.body.user} ${step.body.speaking === false ? 'not speaking' : 'speaking'}${step.body.sdk === undefined ? '' : ` on ${step.body.sdk}`}`;
    case 'call':
      return `${step.body.sdk} ${step.body.end === true ? 'leaves' : 'joins'} the lobby call`;
    case 'expect_audio':
      return `${step.body.none === true ? 'none from ' : ''}${step.body.from}${step.body.tone_hz === undefined ? '' : ` at ${step.body.tone_hz} Hz`} on ${step.body.sdk}`;
    case 'expect_presence':
      return step.body.seen_by === undefined ? `host sees ${step.body.user ?? '?'}` : `${step.body.seen_by} sees ${step.body.user ?? "the host's user"}`;
    case 'control':
      return `${step.body.method ?? 'GET'} ${step.body.route}`;
    case 'wait':
      return `${typeof step.body === 'number' ? step.body : step.body.ms} ms`;
    case 'sdk':
      return `${step.body.name} as ${step.body.user}`;
    case 'sdk_call':
      return `${step.body.call} on ${step.body.sdk}`;
    case 'expect_sdk_event':
      return `${step.body.event} on ${step.body.sdk}`;
    case 'expect_timing': {
      const limits = [step.body.min_ms === undefined ? undefined : `>= ${step.body.min_ms} ms`, step.body.max_ms === undefined ? undefined : `<= ${step.body.max_ms} ms`];
      return `${step.body.from === undefined ? 'previous step' : `from ${step.body.from}`} ${limits.filter((limit) => limit !== undefined).join(' and ')}`;
    }
  }
}

function injectTitle(body: Extract<Step, { kind: 'inject' }>['body']): string {
  switch (body.kind) {
    case 'event':
      return `${body.evt ?? '?'} to ${body.game ?? '?'}`;
    case 'gateway':
      return `gateway ${body.action ?? '?'}`;
    case 'revoke':
      return `revoke ${body.app ?? '?'}`;
    case 'token_error':
      return `token_error ${body.error ?? '?'}`;
    case 'token_error_clear':
      return 'token_error clear';
    default:
      return body.game === undefined ? body.kind : `${body.kind} to ${body.game}`;
  }
}
