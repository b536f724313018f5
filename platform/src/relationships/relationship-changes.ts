import { relationshipsOf } from '../state/relationships-of.js';
import { toPlatformUser, type Store } from '../state/store.js';
import { GameRelationshipEvent, GatewayEvent, RelationshipType, type GameRelationshipAddEvent, type GameRelationshipRemoveEvent } from '../wire/index.js';

/** Reaches a user's sessions (every one, or only one application's game tokens): the SessionRegistry. */
export interface ChangeDispatcher {
  dispatchToUser(userId: string, t: string, d: unknown): void;
  dispatchToApp(userId: string, applicationId: string, t: string, d: unknown): void;
}

/** What each person sees: platform-wide (other → type) and per application (`app \u0000 other` → type). */
interface View {
  readonly platform: Map<string, number>;
  readonly game: Map<string, number>;
}

type Snapshot = ReadonlyMap<string, View>;

const SEP = '\u0000';

/**
 * Turns a change of who is who (a merge, an unmerge, a ban) into the events the platform sends
 * for relationships: the relationships of the people it touches are read before and after,
 * and every difference reaches the side that sees it, once. RELATIONSHIP_ADD with the new type
 * for a relationship made or changed (a request that became a friendship is an ADD of type 1,
 * as an accepted request is), RELATIONSHIP_REMOVE with the old type for one that ended (the
 * merged provisional id included); GAME_RELATIONSHIP_ADD / _REMOVE the same, per application,
 * only to that application's game sessions.
 */
export class RelationshipChanges {
  constructor(
    private readonly store: Store,
    private readonly dispatcher: ChangeDispatcher,
    /** A new platform-wide friend's presence goes to the user (PresenceService.sendTo), as after an accepted request. */
    private readonly befriended: (friendId: string, userId: string) => void = () => undefined,
  ) {}

  /** The people whose relationships a change of `subjects` can touch: the subjects and everyone related to one of them. */
  peopleAround(subjects: readonly string[]): Set<string> {
    const people = new Set(subjects);
    for (const subject of subjects) {
      for (const entry of relationshipsOf(this.store, subject)) people.add(entry.id);
    }
    // Those who blocked a subject (a block shows on the blocker's side only).
    for (const [by, target] of this.store.blocks()) if (subjects.includes(target)) people.add(by);
    const records = this.store.gameRelationships;
    for (const [, a, b] of [...records.friendships(), ...records.requests()]) {
      if (subjects.includes(a)) people.add(b);
      if (subjects.includes(b)) people.add(a);
    }
    return people;
  }

  /** What the people see now. */
  capture(people: ReadonlySet<string>): Snapshot {
    const views = new Map<string, View>();
    for (const person of people) {
      const platform = new Map(relationshipsOf(this.store, person).map((entry) => [entry.id, entry.type] as const));
      views.set(person, { platform, game: new Map() });
    }
    const records = this.store.gameRelationships;
    const see = (who: string, app: string, other: string, type: number): void => {
      views.get(who)?.game.set(`${app}${SEP}${other}`, type);
    };
    for (const [app, a, b] of records.friendships()) {
      see(a, app, b, RelationshipType.Friend);
      see(b, app, a, RelationshipType.Friend);
    }
    for (const [app, from, to] of records.requests()) {
      // A friendship wins over a stray request in the same application (what `typeOf` answers).
      if (records.areFriends(app, from, to)) continue;
      see(from, app, to, RelationshipType.OutgoingRequest);
      see(to, app, from, RelationshipType.IncomingRequest);
    }
    return views;
  }

  /** Sends every difference between two captures of the same people. */
  tell(before: Snapshot, after: Snapshot): void {
    for (const [person, was] of before) {
      const now = after.get(person) ?? { platform: new Map<string, number>(), game: new Map<string, number>() };
      // A deleted account has no sessions left to tell.
      if (this.store.user(person) === undefined) continue;
      this.tellPlatform(person, was.platform, now.platform);
      this.tellGame(person, was.game, now.game);
    }
  }

  private tellPlatform(person: string, was: ReadonlyMap<string, number>, now: ReadonlyMap<string, number>): void {
    for (const [other, type] of was) {
      if (!now.has(other)) this.dispatcher.dispatchToUser(person, GatewayEvent.RelationshipRemove, { id: other, type });
    }
    for (const [other, type] of now) {
      if (was.get(other) === type) continue;
      const user = this.store.user(other);
      if (user === undefined) continue;
      this.dispatcher.dispatchToUser(person, GatewayEvent.RelationshipAdd, { id: other, type, user: toPlatformUser(user) });
      if (type === RelationshipType.Friend) this.befriended(other, person);
    }
  }

  private tellGame(person: string, was: ReadonlyMap<string, number>, now: ReadonlyMap<string, number>): void {
    for (const [key, type] of was) {
      if (now.has(key)) continue;
      const [app, other] = key.split(SEP) as [string, string];
      const data: GameRelationshipRemoveEvent = { id: other, type, application_id: app };
      this.dispatcher.dispatchToApp(person, app, GameRelationshipEvent.Remove, data);
    }
    for (const [key, type] of now) {
      if (was.get(key) === type) continue;
      const [app, other] = key.split(SEP) as [string, string];
      const user = this.store.user(other);
      if (user === undefined) continue;
      const data: GameRelationshipAddEvent = { id: other, type, user: toPlatformUser(user), application_id: app };
      this.dispatcher.dispatchToApp(person, app, GameRelationshipEvent.Add, data);
    }
  }

  /**
   * Runs `change` and tells everyone it touched what changed for them. `subjects`: the accounts
   * the change is about (read before it runs; ones it makes are added with `alsoAfter`).
   */
  around<T>(subjects: readonly string[], change: () => T, alsoAfter: (result: T) => readonly string[] = () => []): T {
    const people = this.peopleAround(subjects);
    const before = this.capture(people);
    const result = change();
    const involved = [...subjects, ...alsoAfter(result)];
    const newcomers = [...this.peopleAround(involved.filter((id) => this.store.user(id) !== undefined))].filter((person) => !people.has(person));
    for (const person of newcomers) people.add(person);
    const after = this.capture(people);
    // Someone first related after the change saw, before it, all they see now but the involved accounts.
    const widened = new Map(before);
    for (const person of newcomers) widened.set(person, without(after.get(person), involved));
    this.tell(widened, after);
    return result;
  }
}

/** A view less what it says about some accounts. */
function without(view: View | undefined, ids: readonly string[]): View {
  const platform = new Map([...(view?.platform ?? [])].filter(([other]) => !ids.includes(other)));
  const game = new Map([...(view?.game ?? [])].filter(([key]) => !ids.includes(key.split(SEP)[1] ?? '')));
  return { platform, game };
}
