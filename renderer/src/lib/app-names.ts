import type { HostData } from '../../../preload/src/contract';

/**
 * The name of an application wherever the host's data knows it: a connected game, the presence
 * relay's games and announced apps, an authorized app, a web page's app, a game DM, an invite's
 * or a friend's activity. Players read names; the id stays a developer fact (Details). Null
 * when no part of the data names it.
 */
export function knownAppName(data: HostData | null, applicationId: string): string | null {
  if (data === null) return null;
  const named = (name: string | null | undefined): name is string => typeof name === 'string' && name.trim() !== '';
  const candidates: (string | null | undefined)[] = [
    data.games.find((g) => g.client_id === applicationId)?.application_name,
    data.presence?.games.find((g) => g.application_id === applicationId)?.application_name,
    data.presence?.announced.find((a) => a.application_id === applicationId)?.application_name,
    data.grants.find((g) => g.application.id === applicationId)?.application.name,
    data.origin_requests.find((r) => r.client_id === applicationId)?.application_name,
    data.origins.find((o) => o.client_id === applicationId)?.application_name,
    data.conversations.flatMap((c) => c.messages).find((m) => m.application_id === applicationId && named(m.application_name))?.application_name,
    data.invites.find((i) => i.application_id === applicationId && named(i.activity?.name))?.activity?.name,
    data.friends.flatMap((f) => f.presence.activities).find((a) => a.application_id === applicationId && named(a.name))?.name,
  ];
  return candidates.find(named) ?? null;
}

/** The name, or the words for an app the host cannot name. */
export function appNameOr(data: HostData | null, applicationId: string, unknown = 'a game'): string {
  return knownAppName(data, applicationId) ?? unknown;
}
