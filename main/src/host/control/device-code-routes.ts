import * as v from 'valibot';
import type { DeviceVerifyPreview } from '../../../../platform/src/wire/index.js';
import { PlatformApiError, type PlatformApi } from '../gateway/platform-api.js';
import { ControlError } from './control-backend.js';
import type { ControlRouteEntry } from './control-routes.js';

const UserCode = v.pipe(v.string('"user_code" must be a string'), v.minLength(1, '"user_code" must not be empty'), v.maxLength(32, '"user_code" must be at most 32 characters'));
const PreviewBody = v.object({ user_code: UserCode });
const DecideBody = v.object({ user_code: UserCode, authorize: v.boolean('"authorize" must be a boolean') });

function parse<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, body);
  if (!result.success) throw new ControlError(400, result.issues[0].message, 'invalid_request');
  return result.output;
}

async function relay<T>(api: () => PlatformApi | null, call: (platform: PlatformApi) => Promise<T>): Promise<T> {
  const platform = api();
  if (platform === null) throw new ControlError(409, 'Companion is not signed in to the platform', 'not_signed_in');
  try {
    return await call(platform);
  } catch (error) {
    if (error instanceof PlatformApiError && error.status === 404) throw new ControlError(404, 'Unknown or expired code: check it on the game\'s screen', 'unknown_code');
    if (error instanceof PlatformApiError && error.status === 429) throw new ControlError(429, 'Too many codes tried: wait a minute', 'rate_limited');
    throw error;
  }
}

/** Companion's side of the device flow, with the signed-in player's account; errors are ControlErrors with the player's words. */
export interface DeviceCodeCalls {
  /** What the code asks (application, scopes): 404 `unknown_code` when unknown, expired or answered. */
  preview(userCode: string): Promise<DeviceVerifyPreview>;
  /** Approves (`authorize`) or denies the code. */
  decide(userCode: string, authorize: boolean): Promise<{ approved: boolean }>;
}

export function deviceCodeCalls(api: () => PlatformApi | null): DeviceCodeCalls {
  return {
    preview: (userCode) => relay(api, (platform) => platform.deviceCodePreview(userCode)),
    decide: (userCode, authorize) => relay(api, (platform) => platform.decideDeviceCode(userCode, authorize)),
  };
}

/**
 * Companion's side of the device authorization flow (a console or TV shows a code; the player
 * enters it in Companion): `POST /v1/device-codes/preview {user_code}` answers what the code asks
 * (application, scopes), `POST /v1/device-codes {user_code, authorize}` approves or denies it with
 * the signed-in player's account, through the emulator's `/oauth2/device/verify` **(ours)**. The
 * window's "Link a device" screen does the same through the UI bridge.
 */
export function deviceCodeRoutes(api: () => PlatformApi | null): ControlRouteEntry[] {
  const calls = deviceCodeCalls(api);
  return [
    ['POST', '/v1/device-codes/preview', async ({ body }) => {
      const { user_code } = parse(PreviewBody, body);
      return calls.preview(user_code);
    }],
    ['POST', '/v1/device-codes', async ({ body }) => {
      const { user_code, authorize } = parse(DecideBody, body);
      return calls.decide(user_code, authorize);
    }],
  ];
}
