import type { PlatformLogger } from '../support/logger.js';
import type { AppRecord } from '../state/model.js';
import type { Store } from '../state/store.js';
import { GatewayEvent, type PresenceStatus, type PresenceUpdateEvent, type WireActivity } from '../wire/index.js';
import { primeSerialized, type Session } from './session.js';
import type { SessionRegistry } from './sessions.js';

/** How available a status is: the user's status is the highest of their sessions. **(ours)** */
const AVAILABILITY: Readonly<Record<PresenceStatus, number>> = { online: 4, idle: 3, dnd: 2, invisible: 1, offline: 0 };

const IMAGE_ASSET_KEYS = ['large_image', 'small_image', 'invite_cover_image'] as const;

/**
 * An activity as others see it: no `secrets`, the session it came from, button labels only
 * (URLs in `metadata.button_urls`) and, for strict apps, only uploaded asset keys.
 */
export function publicActivity(activity: WireActivity, sessionId: string | undefined, app: AppRecord | undefined): WireActivity {
  const { secrets: _secrets, buttons, metadata, assets, ...rest } = activity;
  const out: Record<string, unknown> = { ...rest };
  if (buttons !== undefined) {
    out.buttons = buttons.map((button) => (typeof button === 'string' ? button : button.label));
    const urls = buttons.flatMap((button) => (typeof button === 'string' ? [] : [button.url]));
    out.metadata = urls.length > 0 ? { ...metadata, button_urls: urls } : metadata;
  } else if (metadata !== undefined) {
    out.metadata = metadata;
  }
  if (assets !== undefined) out.assets = app?.strict === true ? strictAssets(assets, app) : assets;
  if (out.metadata === undefined) delete out.metadata;
  if (sessionId !== undefined) out.session_id = sessionId;
  return out as unknown as WireActivity;
}

function strictAssets(assets: Readonly<Record<string, string>>, app: AppRecord): Record<string, string> {
  const uploaded = new Set(app.assets.map((asset) => asset.name));
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(assets)) {
    const isImage = (IMAGE_ASSET_KEYS as readonly string[]).includes(key);
    if (!isImage || uploaded.has(value.toLowerCase()) || /^(https?:|mp:)/.test(value)) out[key] = value;
  }
  return out;
}

/**
 * Users' merged presences (over all their sessions) and their fan-out to friends. A change is
 * fanned out only when what friends see changes.
 */
export class PresenceHub {
  private readonly published = new Map<string, string>();

  constructor(
    private readonly store: Store,
    private readonly sessions: SessionRegistry,
    private readonly logger: PlatformLogger,
  ) {}

  /** What friends see, or undefined when the user is offline (no session, or all invisible). */
  view(userId: string): PresenceUpdateEvent | undefined {
    const sessions = this.sessions.ofUser(userId);
    const chosen = chosenStatus(sessions);
    if (chosen === 'invisible' || chosen === 'offline') return undefined;
    const visible = sessions.filter((session) => session.presence.status !== 'invisible' && session.presence.status !== 'offline');
    if (visible.length === 0) return undefined;
    let status: PresenceStatus = 'invisible';
    for (const session of visible) if (AVAILABILITY[session.presence.status] > AVAILABILITY[status]) status = session.presence.status;
    if (chosen !== undefined) status = chosen;
    const activities = visible.flatMap((session) =>
      session.presence.activities.map((activity) =>
        publicActivity(activity, session.id, activity.application_id === undefined ? undefined : this.store.app(activity.application_id)),
      ),
    );
    return { user: { id: userId }, status, activities, client_status: { desktop: status } };
  }

  /** The user's current activity for an app, with its secrets (for invites; never sent out). */
  activityFor(userId: string, applicationId: string): WireActivity | undefined {
    for (const session of this.sessions.ofUser(userId)) {
      if (session.presence.status === 'invisible') continue;
      const found = session.presence.activities.find((activity) => activity.application_id === applicationId);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** Presences of the user's friends who are online (READY's `presences`). */
  onlineFriends(userId: string): PresenceUpdateEvent[] {
    return this.store.friendsOf(userId).flatMap((friendId) => {
      const view = this.view(friendId);
      return view === undefined ? [] : [view];
    });
  }

  /** Fans the user's presence out to every session of every friend if it changed. */
  publish(userId: string): void {
    const event = this.view(userId) ?? offline(userId);
    const text = JSON.stringify(event);
    const before = this.published.get(userId);
    // Nothing to say when it did not change, or when a user who was never shown goes offline.
    if (before === text || (before === undefined && event.status === 'offline')) return;
    if (event.status === 'offline') this.published.delete(userId);
    else this.published.set(userId, text);
    // The change check's JSON is also what every receiving session sends.
    primeSerialized(event, text);
    const friends = this.store.friendsOf(userId);
    for (const friendId of friends) this.sessions.dispatchToUser(friendId, GatewayEvent.PresenceUpdate, event);
    this.logger.debug({ userId, status: event.status, activities: event.activities.length, friends: friends.length }, 'presence fanned out');
  }

  /** Sends one user's current presence to one other user (a new friend). */
  sendTo(userId: string, toUserId: string): void {
    const event = this.view(userId);
    if (event !== undefined) this.sessions.dispatchToUser(toUserId, GatewayEvent.PresenceUpdate, event);
  }

  /** Sets a session's presence (op 3), keeping `created_at` of activities that continue. */
  apply(session: Session, presence: Session['presence'], now: number): void {
    const previous = session.presence.activities;
    const activities = presence.activities.map((activity) => {
      if (activity.created_at !== undefined) return activity;
      const same = previous.find((old) => old.application_id === activity.application_id && old.name === activity.name && old.type === activity.type);
      return { ...activity, created_at: same?.created_at ?? now };
    });
    session.presence = { ...presence, activities };
    // An app registered on first use that sets an activity is in use: it is kept.
    for (const activity of activities) if (activity.application_id !== undefined) this.store.markAppUsed(activity.application_id);
    this.publish(session.userId);
  }
}

/**
 * The status a game chose for the player (Client::SetOnlineStatus: op 3 on a game's session),
 * the newest choice of their live sessions; undefined when none chose one. It stands for the
 * account as a whole (invisible: offline to friends, whatever the other sessions say) and ends
 * with the session that chose it. **(ours)**
 */
function chosenStatus(sessions: readonly Session[]): PresenceStatus | undefined {
  let newest: Session | undefined;
  for (const session of sessions) {
    if (session.statusChosenAt !== undefined && (newest?.statusChosenAt === undefined || session.statusChosenAt >= newest.statusChosenAt)) newest = session;
  }
  return newest?.presence.status;
}

function offline(userId: string): PresenceUpdateEvent {
  return { user: { id: userId }, status: 'offline', activities: [], client_status: {} };
}
