import type { GameView, PresenceView, RelayOutcomeView } from '../../../preload/src/contract';

/**
 * Which game friends see, and why, in the words of one game's card. The host shows one game's
 * activity at a time (main/src/host/presence/arbitration.ts): none with "hide everything";
 * else, among the games not hidden by their rule, the pinned app's, else the policy's choice
 * (the one updated last, or the one connected first).
 */

type PresenceGame = PresenceView['games'][number];

/** A game's name, with its connection when another connected game has the same name. */
export function gameLabel(game: { readonly connection_id: string; readonly application_name: string }, games: readonly GameView[]): string {
  const twin = games.some((g) => g.connection_id !== game.connection_id && g.application_name === game.application_name);
  return twin ? `${game.application_name} (${game.connection_id})` : game.application_name;
}

function hiddenByRule(presence: PresenceView, applicationId: string): boolean {
  return presence.rules[applicationId]?.mode === 'hide';
}

/** The other games the arbitration weighed against `game`: connected, with an activity, not hidden. */
function rivals(game: GameView, presence: PresenceView, games: readonly GameView[]): GameView[] {
  return games.filter((g) => g.connection_id !== game.connection_id && g.activity !== null && !hiddenByRule(presence, g.client_id));
}

/** Why the arbitration picked `winner` over the others, as the end of a sentence. */
function policyReason(presence: PresenceView, winnerId: string, subject: string): string {
  if (presence.pinned_application_id === winnerId) return `you pinned ${subject} to show whenever it runs`;
  return presence.policy === 'first-connected' ? `${subject} connected first (Settings: show the one started first)` : `${subject} updated its activity last (Settings: show the one updated last)`;
}

/** The sentence for the game that is shown. */
function shownSentence(game: GameView, presence: PresenceView, games: readonly GameView[]): string {
  const others = rivals(game, presence, games);
  if (others.length === 0) return 'Friends see this game: it is the only game with an activity they may see.';
  const names = others.map((g) => gameLabel(g, games)).join(', ');
  return `Friends see this game rather than ${names}: ${policyReason(presence, game.client_id, 'it')}.`;
}

/** The sentence for a game that is not shown: what friends see instead, and why. */
function notShownSentence(game: GameView, presence: PresenceView, games: readonly GameView[], shown: GameView | undefined): string {
  if (presence.hide_all) return 'Friends see no game: "Hide everything" is on in Settings.';
  const instead = shown === undefined ? 'Friends see no game right now' : `Friends see ${gameLabel(shown, games)} instead`;
  if (hiddenByRule(presence, game.client_id)) return `${instead}: your privacy rule for this game hides it.`;
  if (game.activity === null) return `${instead}: this game has no activity set.`;
  if (shown === undefined) return `${instead}.`;
  return `${instead}: ${policyReason(presence, shown.client_id, 'that game')}.`;
}

/** The card's sentence on who friends see and why. */
export function friendsSeeSentence(game: GameView, presence: PresenceView, games: readonly GameView[]): string {
  const shownEntry = presence.games.find((g) => g.shown);
  if (shownEntry?.connection_id === game.connection_id) return shownSentence(game, presence, games);
  const shown = shownEntry === undefined ? undefined : games.find((g) => g.connection_id === shownEntry.connection_id);
  return notShownSentence(game, presence, games, shown);
}

/**
 * A game's last update that reached the platform but is no longer what friends see: another
 * game's took its place since. Returns the game now shown, or undefined when the update's own
 * outcome still holds.
 */
export function replacedBy(entry: PresenceGame | undefined, presence: PresenceView, games: readonly GameView[]): GameView | undefined {
  if (entry === undefined || entry.shown || !wasSent(entry.outcome)) return undefined;
  const shownEntry = presence.games.find((g) => g.shown);
  return shownEntry === undefined ? undefined : games.find((g) => g.connection_id === shownEntry.connection_id);
}

function wasSent(outcome: RelayOutcomeView | null): boolean {
  return outcome !== null && !outcome.cleared && outcome.cause !== 'disconnect' && (outcome.kind === 'sent' || outcome.kind === 'coalesced');
}
