import type { ConnectionRecord } from '../state/model.js';

/** A connection as `GET /users/@me/connections` answers it (the public docs' connection object, without `integrations`): the record without its owner and date. */
export type PlatformConnection = Omit<ConnectionRecord, 'user_id' | 'created_at'>;

/**
 * Game-publisher connections that moved to the Social SDK (application identities): a connection
 * of these services made on or after `newFrom` is never returned; one made before (legacy) is
 * returned until `legacyUntil`. The change log's dates: Riot Games and League of Legends
 * announced 7 July 2026, legacy ones gone from 10 July 2026; Battle.net announced 14 August
 * 2026, existing ones gone from 22 September 2026. **(ours: each date is taken as 00:00 UTC.)**
 */
export interface ConnectionCutoff {
  readonly types: readonly string[];
  /** Epoch ms: connections made from then on are new. */
  readonly newFrom: number;
  /** Epoch ms: legacy connections are no longer returned from then on. */
  readonly legacyUntil: number;
}

export const CONNECTION_CUTOFFS: readonly ConnectionCutoff[] = [
  { types: ['riotgames', 'leagueoflegends'], newFrom: Date.UTC(2026, 6, 7), legacyUntil: Date.UTC(2026, 6, 10) },
  { types: ['battlenet'], newFrom: Date.UTC(2026, 7, 14), legacyUntil: Date.UTC(2026, 8, 22) },
];

/** Whether the route returns the connection at `now` (epoch ms): made by then, and not held back by a cut-off. */
export function isReturned(connection: ConnectionRecord, now: number): boolean {
  const made = Date.parse(connection.created_at);
  if (!Number.isFinite(made) || made > now) return false;
  const cutoff = CONNECTION_CUTOFFS.find((rule) => rule.types.includes(connection.type));
  if (cutoff === undefined) return true;
  return made < cutoff.newFrom && now < cutoff.legacyUntil;
}

export function toPlatformConnection(connection: ConnectionRecord): PlatformConnection {
  const { user_id: _user, created_at: _created, ...wire } = connection;
  return wire;
}

/** The user's connections as the route answers them at `now`. */
export function visibleConnections(connections: readonly ConnectionRecord[], now: number): PlatformConnection[] {
  return connections.filter((connection) => isReturned(connection, now)).map(toPlatformConnection);
}
