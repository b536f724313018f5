import type { PresenceUpdateCommand, WireActivity } from '../../../../platform/src/wire/index.js';

/** The gateway closes a connection whose payload exceeds this (close 4002). */
export const MAX_GATEWAY_PAYLOAD_BYTES = 4096;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Trim = readonly [name: string, apply: (activity: Mutable<WireActivity>) => void];

/**
 * What gives way, in order, when a valid activity is too big for one gateway payload (every
 * field within the RPC limits can still add up to about 5.5 KB, more with multi-byte text):
 * first what friends see least, never what joins need (party, secrets) or the name.
 */
const TRIMS: readonly Trim[] = [
  ['supported_platforms', (a) => delete a.supported_platforms],
  ['buttons', (a) => {
    delete a.buttons;
    delete a.metadata;
  }],
  ['links', (a) => {
    delete a.state_url;
    delete a.details_url;
    if (a.assets !== undefined) {
      const { large_url: _large, small_url: _small, ...rest } = a.assets;
      a.assets = rest;
    }
  }],
  ['image texts', (a) => {
    if (a.assets !== undefined) {
      const { large_text: _large, small_text: _small, ...rest } = a.assets;
      a.assets = rest;
    }
  }],
  ['assets', (a) => delete a.assets],
  ['details and state', (a) => {
    delete a.details;
    delete a.state;
  }],
];

function size(payload: PresenceUpdateCommand): number {
  return Buffer.byteLength(JSON.stringify({ op: 3, d: payload }));
}

/**
 * The presence as it can be sent: unchanged when it fits (the common case costs one
 * stringify), else with the trims above applied until it does. Returns what was dropped.
 */
export function fitPresence(payload: PresenceUpdateCommand, limit = MAX_GATEWAY_PAYLOAD_BYTES): { payload: PresenceUpdateCommand; dropped: string[] } {
  if (size(payload) <= limit) return { payload, dropped: [] };
  const activities = payload.activities.map((activity) => ({ ...activity }) as Mutable<WireActivity>);
  const fitted: PresenceUpdateCommand = { ...payload, activities };
  const dropped: string[] = [];
  for (const [name, apply] of TRIMS) {
    for (const activity of activities) apply(activity);
    dropped.push(name);
    if (size(fitted) <= limit) break;
  }
  return { payload: fitted, dropped };
}
