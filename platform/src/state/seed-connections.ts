import type { ConnectionRecord } from './model.js';
import { SEED } from './seed.js';

type Seeded = Pick<ConnectionRecord, 'user_id' | 'id' | 'name' | 'type' | 'created_at'> & Partial<Pick<ConnectionRecord, 'visibility'>>;

/**
 * The demo users' connected accounts, so the route's dated rules show: alice's Battle.net and
 * Riot Games accounts are legacy ones (connected in 2024: returned until 22 September and 10
 * July 2026), bob's were connected after the change (never returned); the others always are.
 */
const SEEDED: readonly Seeded[] = [
  { user_id: SEED.users.alice, type: 'steam', id: '76561198000000001', name: 'alice_plays', created_at: '2024-01-01T00:00:00.000Z', visibility: 1 },
  { user_id: SEED.users.alice, type: 'battlenet', id: '100000001', name: 'alice#1234', created_at: '2024-01-01T00:00:00.000Z' },
  { user_id: SEED.users.alice, type: 'riotgames', id: 'a1b2c3d4-0000-4000-8000-000000000001', name: 'alice#EUW', created_at: '2024-01-01T00:00:00.000Z' },
  { user_id: SEED.users.alice, type: 'github', id: '1000001', name: 'alice-dev', created_at: '2024-03-01T00:00:00.000Z', visibility: 1 },
  { user_id: SEED.users.bob, type: 'xbox', id: '2535400000000002', name: 'bob the tank', created_at: '2024-01-01T00:00:00.000Z', visibility: 1 },
  { user_id: SEED.users.bob, type: 'battlenet', id: '100000002', name: 'bob#5678', created_at: '2026-08-20T00:00:00.000Z' },
  { user_id: SEED.users.bob, type: 'riotgames', id: 'a1b2c3d4-0000-4000-8000-000000000002', name: 'bob#NA1', created_at: '2026-07-08T00:00:00.000Z' },
  { user_id: SEED.users.carol, type: 'spotify', id: 'carolsongs', name: 'Carol', created_at: '2024-01-01T00:00:00.000Z' },
];

/** The connections of a fresh state. */
export function seedConnections(): ConnectionRecord[] {
  return SEEDED.map((seeded) => ({
    verified: true,
    friend_sync: false,
    show_activity: true,
    two_way_link: false,
    visibility: 0,
    revoked: false,
    ...seeded,
  }));
}
