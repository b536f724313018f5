import type { RpcServer } from '../../../../rpc/src/index.js';
import type { PlatformApi } from '../gateway/platform-api.js';
import { AssetKeyCache } from '../presence/asset-keys.js';
import { createActivityLinter } from '../../diagnostics/lint/activity-lint.js';
import type { FrameLinter } from './frame-log.js';

/**
 * The inspector's lint channel: each incoming SET_ACTIVITY linted for what the real client
 * accepts but shows badly (activity-lint.ts), with the app's uploaded asset names from the
 * platform once known. Runs only while a UI records frames; never changes the wire answer.
 */
export function frameLinter(server: Pick<RpcServer, 'connection'>, platform: Pick<PlatformApi, 'assetNames'>): FrameLinter {
  const assets = new AssetKeyCache({ fetch: (applicationId) => platform.assetNames(applicationId) });
  const lint = createActivityLinter({ assetKeys: (applicationId) => (applicationId === '' ? undefined : assets.keys(applicationId)) });
  return {
    applicationOf: (connectionId) => server.connection(connectionId)?.clientId ?? '',
    lint,
  };
}
