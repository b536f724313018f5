import { ClientResult } from './client-result.js';
import { dmChannel } from './dm-api.js';
import { attempt, bearerCall, type BearerCallOptions } from './platform-request.js';
import { StatusType } from './user-handle.js';

/** The platform's name of each status a game may set (Client::SetOnlineStatus). */
const STATUS_NAMES: ReadonlyMap<StatusType, string> = new Map<StatusType, string>([
  [StatusType.Online, 'online'],
  [StatusType.Idle, 'idle'],
  [StatusType.Dnd, 'dnd'],
  [StatusType.Invisible, 'invisible'],
]);

/** A join request's message activity type (MessageActivityType JOIN_REQUEST). */
const JOIN_REQUEST = 5;

export interface ClientPresenceOptions {
  /** The game's own platform calls (its token from updateToken; '' before). */
  readonly call: () => BearerCallOptions;
  /** Sets the game session's presence (op 3), kept for later connections; whether it went now. */
  readonly updatePresence: (presence: Readonly<Record<string, unknown>>) => boolean;
}

/**
 * The player's presence and join requests through the game's own platform session: the status
 * friends see (op 3 on the game's gateway session) and asking a friend to join (a join-request
 * message in their DM, the way Companion's own request goes).
 */
export class ClientPresence {
  /** The status last set (the player's own UserHandle shows it). */
  chosen: StatusType | undefined;

  constructor(private readonly options: ClientPresenceOptions) {}

  /**
   * Client::SetOnlineStatus: Online, Idle, Dnd or Invisible (invisible: offline to friends).
   * Sent on the game's gateway session now, or as soon as it connects; the platform takes it as
   * the player's status. ClientNotReady without a token (updateToken first).
   */
  setOnlineStatus(status: StatusType, callback?: (result: ClientResult) => void): Promise<ClientResult> {
    const result = this.statusResult(status);
    callback?.(result);
    return Promise.resolve(result);
  }

  private statusResult(status: StatusType): ClientResult {
    const name = STATUS_NAMES.get(status);
    if (name === undefined) return ClientResult.validation('setOnlineStatus: status must be StatusType.Online, Idle, Dnd or Invisible');
    if (this.options.call().token === '') return ClientResult.failure('ClientNotReady', 'setOnlineStatus: no access token: call updateToken first', { retryable: true });
    this.options.updatePresence({ since: null, activities: [], status: name, afk: false });
    this.chosen = status;
    return ClientResult.ok();
  }

  /**
   * Client::SendActivityJoinRequest: asks `userId` to let the player join their activity of
   * this game. The platform refuses it unless they are friends (or game friends here) and their
   * activity for this application is joinable (a party with room and a join secret). Their game
   * gets the request (Companion: ACTIVITY_JOIN_REQUEST); a yes comes back as an activity invite.
   */
  async sendActivityJoinRequest(userId: string, callback?: (result: ClientResult) => void): Promise<ClientResult> {
    const outcome = await attempt(async () => {
      const options = this.options.call();
      const channelId = await dmChannel(options, userId);
      await bearerCall(options, 'POST', `/channels/${encodeURIComponent(channelId)}/messages`, { activity: { type: JOIN_REQUEST } });
      return null;
    });
    callback?.(outcome.result);
    return outcome.result;
  }
}

/**
 * The command that starts a Steam game by its Steam app id, as the C library's
 * Discord_RegisterSteamGame registers it: the desktop's URL opener with
 * `steam://rungameid/<id>` (xdg-open, open, or rundll32's URL handler on Windows).
 */
export function steamLaunchCommand(steamAppId: number, platform: NodeJS.Platform = process.platform): string[] {
  if (!Number.isInteger(steamAppId) || steamAppId <= 0 || steamAppId > 0xffffffff) throw new RangeError('steamAppId must be a Steam app id (a positive 32-bit integer)');
  const url = `steam://rungameid/${steamAppId}`;
  if (platform === 'darwin') return ['open', url];
  if (platform === 'win32') return ['rundll32', 'url.dll,FileProtocolHandler', url];
  return ['xdg-open', url];
}
