import type { DetectedGameState } from '../../../preload/src/contract';

/** What became of a detected game, in a player's words (Settings and the Games screen). */
export const DETECTED_STATE_WORDS: Readonly<Record<DetectedGameState, string>> = {
  shown: 'friends see you playing it',
  excluded: 'not shown: you switched it off',
  rpc: 'the game shows its own activity',
  off: 'not shown: game detection is off',
  ended: 'closed',
};
