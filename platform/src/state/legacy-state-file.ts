import { readFile } from 'node:fs/promises';
import { randomToken } from './ids.js';
import type { AppRecord, StateFile } from './model.js';

/** A state.json that cannot be read: the emulator refuses to start rather than overwrite it. */
export class CorruptStateError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`cannot read ${file}: ${reason}; move it aside to start with fresh seeded data`);
    this.name = 'CorruptStateError';
  }
}

/**
 * Reads a `state.json` written by an emulator from before the database, with what later
 * versions added filled in (see `migrate`); undefined when there is none.
 */
export async function readLegacyStateFile(file: string, now: number): Promise<StateFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new CorruptStateError(file, 'not valid JSON');
  }
  if (!isStateFile(data)) throw new CorruptStateError(file, 'not an emulator state (version 1)');
  migrate(data, now);
  return data;
}

/**
 * Fills what files written before OAuth2 lack, and marks apps registered on first use that
 * show no sign of use (no asset, no grant, the placeholder name) as unused since `now`, so
 * the idle ones of files written before registration was bounded are forgotten; true when
 * something changed.
 */
function migrate(data: StateFile, now: number): boolean {
  const raw = data as unknown as Record<string, unknown>;
  let changed = false;
  for (const key of ['grants', 'codes', 'tokens'] as const) {
    if (!Array.isArray(raw[key])) {
      raw[key] = [];
      changed = true;
    }
  }
  if (raw.oidc_key === undefined) {
    raw.oidc_key = null;
    changed = true;
  }
  for (const app of data.apps) {
    if (typeof app.client_secret !== 'string') {
      app.client_secret = randomToken();
      changed = true;
    }
    // Added after version 1 shipped: apps of older files get one.
    if (typeof app.bot_token !== 'string') {
      app.bot_token = randomToken();
      changed = true;
    }
  }
  if (data.app_use_tracked !== true) {
    const granted = new Set(data.grants.map((grant) => grant.application_id));
    for (const app of data.apps) if (looksUnused(app, granted)) app.unused_since = now;
    data.app_use_tracked = true;
    changed = true;
  }
  return changed;
}

/** An app registered on first use by an emulator that did not track use, with nothing that shows use. */
function looksUnused(app: AppRecord, granted: ReadonlySet<string>): boolean {
  if (!app.auto_registered || app.verified) return false;
  return app.assets.length === 0 && !granted.has(app.id) && app.name === `Application ${app.id}` && app.webhook_events_url === null && app.redirect_uris.length === 0;
}

function isStateFile(value: unknown): value is StateFile {
  if (typeof value !== 'object' || value === null) return false;
  const data = value as Record<string, unknown>;
  return (
    data.version === 1 &&
    typeof data.last_id === 'string' &&
    ['users', 'friendships', 'guilds', 'channels', 'messages', 'apps'].every((key) => Array.isArray(data[key]))
  );
}
