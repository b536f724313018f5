/** Activity flags: the bit field on a gateway activity (`flags`), as the RPC server sets them and the platform reads them. */
export const ActivityFlags = {
  Instance: 1 << 0,
  Join: 1 << 1,
  Spectate: 1 << 2,
  JoinRequest: 1 << 3,
  Sync: 1 << 4,
  Play: 1 << 5,
  PartyPrivacyFriends: 1 << 6,
  PartyPrivacyVoiceChannel: 1 << 7,
  Embedded: 1 << 8,
} as const;
