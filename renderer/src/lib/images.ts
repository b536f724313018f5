import { safeImageUrl } from './url';

/**
 * Where the UI finds a picture. Every picture comes through the host, under the UI's own origin
 * at `cdn/...` (main/src/host/ui-bridge/ui-images.ts), a path relative to the page: platform
 * pictures (app icons, uploaded art assets, avatars) from the platform's CDN, and games' own
 * pictures (an http(s) URL or `mp:external/…` in an activity) from the game's server, so that
 * server never sees the player's browser (the Content-Security-Policy allows no other origin).
 * Inline rasters (lib/url.ts) are the one exception. Values come from games and the platform:
 * only ids, hashes and asset keys of a strict shape make a `cdn/` path.
 */

const ID = /^\d{1,20}$/;
const HASH = /^(?:a_)?[A-Za-z0-9]{1,64}$/;
const ASSET_KEY = /^[A-Za-z0-9_.-]{1,64}$/;
/** `mp:external/{hash}/{scheme}/{rest}`: the media proxy's form of an external image. */
const EXTERNAL = /^mp:external\/[^/]+\/https?\/./;
const MAX_EXTERNAL_LENGTH = 2048;

/** The activity's value, unchanged, as base64url (UTF-8): the host decodes it and resolves it. */
function base64url(value: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A game's own picture, through the host's image proxy (main/src/host/ui-bridge/external-images.ts). */
function externalImagePath(value: string): string | null {
  if (value.length > MAX_EXTERNAL_LENGTH) return null;
  if (!EXTERNAL.test(value) && safeImageUrl(value) === null) return null;
  return `cdn/external/${base64url(value)}`;
}

/** An app's icon: an icon hash becomes its CDN path; an inline raster passes; else null. */
export function appIconUrl(applicationId: string, icon: string | null | undefined): string | null {
  if (icon === null || icon === undefined || icon === '') return null;
  if (ID.test(applicationId) && HASH.test(icon)) return `cdn/app-icons/${applicationId}/${icon}.png`;
  const url = safeImageUrl(icon);
  return url !== null && url.startsWith('data:') ? url : null;
}

/** A user's avatar, or null for none (the UI draws the default: their initial). */
export function avatarUrl(userId: string, avatar: string | null | undefined): string | null {
  if (avatar === null || avatar === undefined || !ID.test(userId) || !HASH.test(avatar)) return null;
  return `cdn/avatars/${userId}/${avatar}.png`;
}

/**
 * An activity's `large_image` / `small_image` as the client shows it: an uploaded asset's key
 * (or id) of the activity's application, or a game's own picture (an http(s) URL, or the media
 * proxy's `mp:external/…` form) fetched by the host as the client's media proxy does.
 */
export function activityImageUrl(applicationId: string | undefined, value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (EXTERNAL.test(value) || /^https?:\/\//i.test(value)) return externalImagePath(value);
  if (applicationId !== undefined && ID.test(applicationId) && ASSET_KEY.test(value)) return `cdn/app-assets/${applicationId}/${encodeURIComponent(value)}`;
  return null;
}
