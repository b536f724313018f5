import type { PresenceUpdateCommand } from '../../../../platform/src/wire/index.js';
import { AccountCache } from '../session/account-cache.js';
import { PlatformSession } from '../session/platform-session.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from './embedded-platform.js';
import type { HostOptions, HostTuning } from './host-options.js';
import type { Teardown } from './teardown.js';

/** The platform the host uses and the account's session on it. */
export interface PlatformSide {
  readonly url: string;
  /** The embedded emulator, or null with another platform (`--platform`). */
  readonly embedded: EmbeddedPlatform | null;
  readonly session: PlatformSession;
}

/**
 * The platform: ours (loaded only when used) or the one named by `--platform`; then the
 * session with the cached account. `presence` is asked only once the gateway connects.
 */
export async function startPlatformSide(
  options: HostOptions,
  tuning: HostTuning,
  teardown: Teardown,
  presence: () => PresenceUpdateCommand,
): Promise<PlatformSide> {
  const other = options.platform?.url;
  const embedded =
    other === undefined
      ? await startEmbeddedPlatform({
          dataDir: options.dataDir,
          strictApps: options.platform?.strictApps === true,
          ...(options.platform?.tls === undefined ? {} : { tls: options.platform.tls }),
          logger: options.logger,
          ...(tuning.platformLimits === undefined ? {} : { limits: tuning.platformLimits }),
        })
      : null;
  if (embedded !== null) teardown.add(() => embedded.close());
  const url = other ?? (embedded as EmbeddedPlatform).url;
  const faults = options.qa?.gatewayFaults;
  const gatewayOptions = { ...tuning.gateway, ...(faults === undefined ? {} : { faults }) };
  const session = new PlatformSession({
    baseUrl: url,
    cache: new AccountCache(options.dataDir),
    logger: options.logger,
    presence,
    gatewayOptions,
    ...(tuning.signInAgainMs === undefined ? {} : { recoveryRetryMs: tuning.signInAgainMs }),
    ...(options.platform?.tokenStore === undefined ? {} : { tokenStore: options.platform.tokenStore }),
  });
  teardown.add(() => session.close());
  await session.loadCache();
  return { url, embedded, session };
}
