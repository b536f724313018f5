import type { RpcServer } from '../../../../rpc/src/index.js';
import { PresenceRelay, relayChangeFromRpc } from '../presence/presence-relay.js';
import { PresenceService } from '../presence/presence-service.js';
import { PresenceSettingsStore } from '../presence/presence-settings-store.js';
import type { PlatformSession } from '../session/platform-session.js';
import type { HostOptions, HostTuning } from './host-options.js';
import type { Teardown } from './teardown.js';

/** The relay of the games' activities to the platform, with the player's settings (`presence.json`). */
export interface PresenceRelaySide {
  readonly relay: PresenceRelay;
  readonly settings: Awaited<ReturnType<typeof PresenceSettingsStore.load>>;
}

export async function startPresenceRelay(options: HostOptions, tuning: HostTuning, session: PlatformSession, teardown: Teardown): Promise<PresenceRelaySide> {
  const settings = await PresenceSettingsStore.load(options.dataDir, { logger: options.logger });
  teardown.add(() => settings.store.flush());
  const relay = new PresenceRelay({
    send: (presence): boolean => session.updatePresence(presence),
    settings: () => settings.store.settings,
    ...(tuning.relayLimit === undefined ? {} : { limit: tuning.relayLimit }),
  });
  teardown.add(() => relay.dispose());
  return { relay, settings };
}

/** Games → platform: every activity change of a game goes through the relay. */
export function relayGameActivities(server: RpcServer, relay: PresenceRelay): void {
  server.on('activity', (change) => {
    const relayed = relayChangeFromRpc(change);
    if (relayed !== undefined) relay.activityChanged(relayed);
  });
}

/** Arbitration and privacy settings over the relay, each update's outcome, app announcements. */
export function createPresenceService(options: HostOptions, parts: { server: RpcServer; relay: PresenceRelaySide }, teardown: Teardown): PresenceService {
  const presence = new PresenceService({
    relay: parts.relay.relay,
    store: parts.relay.settings.store,
    server: parts.server,
    logger: options.logger,
    warning: parts.relay.settings.warning,
  });
  teardown.add(() => presence.dispose());
  return presence;
}
