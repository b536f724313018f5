import type { PresenceService } from '../presence/presence-service.js';
import { PresenceSettingsError } from '../presence/presence-service.js';
import { ControlError, type ControlEvent } from './control-backend.js';
import type { ControlRouteEntry } from './control-server.js';
import { parsePresencePatch } from './presence-schemas.js';

/** What the routes need of the host's PresenceService. */
export type PresenceControl = Pick<PresenceService, 'view' | 'updateSettings'>;

/**
 * `GET /v1/presence` (PresenceView) and `PATCH /v1/presence/settings` (a PresenceSettingsPatch;
 * answers the new PresenceSettings). Shapes: main/src/host/presence/presence-service.ts,
 * presence-privacy.ts and relay-outcomes.ts.
 */
export function presenceRoutes(presence: PresenceControl): ControlRouteEntry[] {
  return [
    ['GET', '/v1/presence', async () => presence.view()],
    ['PATCH', '/v1/presence/settings', async ({ body }) => {
      const patch = parsePresencePatch(body);
      try {
        return await presence.updateSettings(patch);
      } catch (error) {
        if (error instanceof PresenceSettingsError) throw new ControlError(400, error.message, 'invalid_request');
        const code = (error as NodeJS.ErrnoException).code;
        // Applied in memory already: say so, and why the file could not keep it.
        if (typeof code === 'string') throw new ControlError(500, `the settings apply until the host stops, but could not be saved (${code})`, 'not_saved');
        throw error;
      }
    }],
  ];
}

/** The control API's names of the PresenceService events. */
export const PRESENCE_EVENTS = {
  outcome: 'presence-outcome',
  announcement: 'presence-announcement',
  settings: 'presence-settings',
} as const;

/**
 * Forwards PresenceService's events as control events: `presence-outcome` (RelayOutcome),
 * `presence-announcement` (AnnouncedApplication: an app's first activity ever) and
 * `presence-settings` (PresenceSettings). Returns the unsubscribe function.
 */
export function presenceControlEvents(presence: PresenceService, listener: (event: ControlEvent) => void): () => void {
  const onOutcome = (data: unknown): void => listener({ type: PRESENCE_EVENTS.outcome, data });
  const onAnnouncement = (data: unknown): void => listener({ type: PRESENCE_EVENTS.announcement, data });
  const onSettings = (data: unknown): void => listener({ type: PRESENCE_EVENTS.settings, data });
  presence.on('outcome', onOutcome);
  presence.on('announcement', onAnnouncement);
  presence.on('settings', onSettings);
  return () => {
    presence.off('outcome', onOutcome);
    presence.off('announcement', onAnnouncement);
    presence.off('settings', onSettings);
  };
}
