/**
 * Which client library a connection probably uses, from what it sends (as
 * each library's source shows): its nonces, and the activity fields only one of them adds.
 * A guess for the QA engineer's eyes (the Games screen), never used to change an answer.
 *
 * - pypresence: nonce `"%.20f" % time.time()`, a decimal with a 20-digit fraction;
 * - the official C library: a decimal counter as a string ("1", "2", ...);
 * - @xhayper/discord-rpc: UUID nonces, and SET_ACTIVITY's activity carries `type` and
 *   `created_at`;
 * - npm discord-rpc: UUID nonces, an activity with neither (Companion's own SDK sends the
 *   activity it is given, so it can look like either UUID library).
 */

export type ClientLibrary = 'pypresence' | 'discord-rpc-c' | '@xhayper/discord-rpc' | 'discord-rpc' | 'uuid-client' | 'unknown';

export interface ClientGuess {
  readonly library: ClientLibrary;
  /** What the guess rests on, in plain words. */
  readonly reason: string;
}

const PYPRESENCE_NONCE = /^\d{9,11}\.\d{20}$/;
const COUNTER_NONCE = /^[1-9]\d{0,9}$/;
const UUID_NONCE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Commands looked at per connection at most; a decisive guess stops looking earlier. */
const MAX_OBSERVED = 32;
const DECISIVE: ReadonlySet<ClientLibrary> = new Set(['pypresence', 'discord-rpc-c', '@xhayper/discord-rpc', 'discord-rpc']);

const UNKNOWN: ClientGuess = { library: 'unknown', reason: 'no command seen yet' };

interface Observation {
  seen: number;
  guess: ClientGuess;
}

/** The guess from one command (and the guess so far). */
export function refineGuess(previous: ClientGuess, command: { readonly cmd?: unknown; readonly nonce?: unknown; readonly args?: unknown }): ClientGuess {
  const { nonce } = command;
  if (typeof nonce !== 'string') return previous;
  if (PYPRESENCE_NONCE.test(nonce)) return { library: 'pypresence', reason: 'nonces are time.time() with 20 decimals' };
  if (COUNTER_NONCE.test(nonce)) return { library: 'discord-rpc-c', reason: 'nonces count up from 1' };
  if (!UUID_NONCE.test(nonce)) return previous;
  if (command.cmd === 'SET_ACTIVITY' && typeof command.args === 'object' && command.args !== null) {
    const activity = (command.args as { activity?: unknown }).activity;
    if (typeof activity === 'object' && activity !== null) {
      const fields = activity as { type?: unknown; created_at?: unknown };
      if (fields.type !== undefined && fields.created_at !== undefined) {
        return { library: '@xhayper/discord-rpc', reason: 'UUID nonces; the activity carries type and created_at' };
      }
      return { library: 'discord-rpc', reason: 'UUID nonces; the activity has no type or created_at' };
    }
  }
  if (previous.library === 'unknown') return { library: 'uuid-client', reason: 'UUID nonces (discord-rpc, @xhayper/discord-rpc or Companion\'s SDK)' };
  return previous;
}

/** Guesses per connection; the object itself is the key, so nothing outlives its connection. */
export class ClientGuesser {
  private readonly observations = new WeakMap<object, Observation>();

  observe(connection: object, command: { readonly cmd?: unknown; readonly nonce?: unknown; readonly args?: unknown }): void {
    let observation = this.observations.get(connection);
    if (observation === undefined) {
      observation = { seen: 0, guess: UNKNOWN };
      this.observations.set(connection, observation);
    }
    if (observation.seen >= MAX_OBSERVED) return;
    observation.seen += 1;
    observation.guess = refineGuess(observation.guess, command);
    if (DECISIVE.has(observation.guess.library)) observation.seen = MAX_OBSERVED;
  }

  guess(connection: object): ClientGuess {
    return this.observations.get(connection)?.guess ?? UNKNOWN;
  }
}
