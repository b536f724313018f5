import { snowflakeAt } from './ids.js';

/** Seeded ids are fixed, so every fresh data dir has the same ones (tests and docs can name them). */
const SEED_TIME = Date.UTC(2024, 0, 1);
const seedId = (n: number): string => snowflakeAt(SEED_TIME, n);

export const SEED = {
  users: {
    alice: seedId(1),
    bob: seedId(2),
    carol: seedId(3),
    dave: seedId(4),
  },
  guildId: seedId(10),
  channels: { general: seedId(11), voice: seedId(12), party: seedId(13) },
  appId: '1234567890123456789',
  assets: { logo: seedId(20), cover: seedId(21) },
  guildName: 'Companion Lounge',
  /** The seeded guild's banner hash **(ours: the emulator serves no banner image)**. */
  guildBanner: '4f2b7c1d9e8a6b5c3d2e1f0a9b8c7d6e',
  appName: 'Companion Demo Game',
  /**
   * How the demo game is recognised when it runs without RPC **(ours)**: names a test can spawn
   * (a copy of a small binary under that name), a Windows build as a Proton game runs it, and
   * its launcher (never shown as played).
   */
  executables: [
    { os: 'linux', name: 'companion-demo-game', is_launcher: false },
    { os: 'win32', name: 'companion demo game/companiondemo.exe', is_launcher: false },
    { os: 'linux', name: 'companion-demo-launcher', is_launcher: true },
  ],
  /** The time the seeded memberships date from. */
  joinedAt: new Date(SEED_TIME).toISOString(),
} as const;

export type SeedUserName = keyof typeof SEED.users;
