import type { RpcServer } from '../../../../rpc/src/index.js';
import { installAuthCommands } from '../auth/auth-commands.js';
import { ConsentBroker } from '../auth/consent-broker.js';
import { GrantCache } from '../auth/grant-cache.js';
import { GrantSync } from '../auth/grant-sync.js';
import { installGuildCommands, type GuildCommands } from '../guilds/guild-commands.js';
import { platformGuildSource } from '../guilds/platform-guild-source.js';
import { HostRecorder } from '../record/host-recorder.js';
import type { RelayOutcomeSource } from '../record/host-events.js';
import type { PlatformSession } from '../session/platform-session.js';
import type { HostOptions, HostTuning } from './host-options.js';
import type { Teardown } from './teardown.js';

/** Authorization (remembered grants, the consent broker, AUTHORIZE / AUTHENTICATE), guild commands and the recorder. */
export interface AuthorizationSide {
  readonly grants: GrantCache;
  /** A message for the player when the grants cache had to be set aside, else null. */
  readonly grantsWarning: string | null;
  readonly grantSync: GrantSync;
  readonly broker: ConsentBroker;
  readonly recorder: HostRecorder;
  readonly guilds: GuildCommands;
}

/**
 * The RPC commands that need the platform's account: AUTHORIZE and AUTHENTICATE with the
 * player's consent and remembered grants, the guild commands; and the recorder, started at
 * once with `record`.
 */
export async function startAuthorizationSide(
  options: HostOptions,
  tuning: HostTuning,
  parts: { session: PlatformSession; server: RpcServer; relay?: RelayOutcomeSource },
  teardown: Teardown,
): Promise<AuthorizationSide> {
  const { session, server } = parts;
  const { logger } = options;
  const grants = new GrantCache(options.dataDir, { logger });
  teardown.add(() => grants.flush());
  const grantsLoad = await grants.load();
  const grantSync = new GrantSync({ cache: grants, server, platform: () => session.authedApi(), user: () => session.user, logger });
  teardown.add(() => grantSync.dispose());
  const broker = new ConsentBroker({
    grants: grantSync.lookup,
    policy: options.consent?.policy ?? 'prompt',
    alwaysAsk: options.consent?.alwaysAsk === true,
    ...(tuning.consentTimeoutMs === undefined ? {} : { timeoutMs: tuning.consentTimeoutMs }),
    logger,
  });
  teardown.add(() => broker.dispose());
  const recorder = new HostRecorder({ server, consent: broker, gateway: session, ...(parts.relay === undefined ? {} : { relay: parts.relay }), version: options.version, logger });
  teardown.add(() => recorder.stop());
  if (options.record !== undefined) await recorder.start(options.record.file, { secrets: options.record.secrets });
  installAuthCommands({
    server,
    platform: () => session.authedApi(),
    me: () => session.user,
    consent: broker,
    logger,
    onGranted: (grant) => grantSync.granted(grant),
    revocations: () => grantSync.revocations(),
  });
  const guilds = installGuildCommands(server, platformGuildSource(() => session.authedApi()), { logger });
  teardown.add(() => guilds.dispose());
  return { grants, grantsWarning: grantsLoad.warning, grantSync, broker, recorder, guilds };
}
