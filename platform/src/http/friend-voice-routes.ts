import * as v from 'valibot';
import { FRIEND_SPEAK_MAX_MS, type FriendVoice } from '../simulation/friend-voice.js';
import { parseBody } from './api-kit.js';
import { plainObject } from './body-schemas.js';
import type { Route } from './router.js';

const FriendVoiceBody = plainObject({
  as: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  action: v.picklist(['join', 'speak', 'quiet', 'mute', 'unmute', 'deaf', 'undeaf', 'leave']),
  channel: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
  duration_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(FRIEND_SPEAK_MAX_MS))),
});

/**
 * `POST /_emulator/simulated-friend/voice` `{as, action, channel?, duration_ms?}` **(ours)**: the
 * simulated friend joins a server voice channel, speaks for a while, goes quiet, mutes, unmutes,
 * deafens, undeafens or leaves; answers their voice state and whether they speak.
 */
export function friendVoiceRoutes(friendVoice: FriendVoice): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/_emulator/simulated-friend/voice',
      auth: 'admin',
      handle: (ctx) => {
        const body = parseBody(FriendVoiceBody, ctx.body);
        const outcome = friendVoice.act({
          as: body.as,
          action: body.action,
          ...(body.channel === undefined ? {} : { channel: body.channel }),
          ...(body.duration_ms === undefined ? {} : { durationMs: body.duration_ms }),
        });
        return { status: 200, body: outcome };
      },
    },
  ];
}
