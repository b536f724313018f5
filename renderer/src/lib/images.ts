import { safeImageUrl } from './url';

/**
 * Where the UI finds a picture. Platform pictures (app icons, uploaded art assets, avatars) are
 * fetched by the host from the platform's CDN and served under the UI's own origin at `cdn/...`
 * (main/src/host/ui-bridge/ui-images.ts), a path relative to the page; anything else must be an
 * absolute http(s) URL or an inline raster (lib/url.ts). Values come from games and the platform:
 * only ids, hashes and asset keys of a strict shape make a `cdn/` path.
 */

const ID = /^\d{1,20}$/;
const HASH = /^(?:a_)?[A-Za-z0-9]{1,64}$/;
const ASSET_KEY = /^[A-Za-z0-9_.-]{1,64}$/;
/** `mp:external/{hash}/{scheme}/{rest}`: the media proxy's form of an external image. */
const EXTERNAL = /^mp:external\/[^/]+\/(https?)\/(.+)$/;

/** An app's icon: an icon hash becomes its CDN path; a URL passes if it is safe; else null. */
export function appIconUrl(applicationId: string, icon: string | null | undefined): string | null {
  if (icon === null || icon === undefined || icon === '') return null;
  if (ID.test(applicationId) && HASH.test(icon)) return `cdn/app-icons/${applicationId}/${icon}.png`;
  return safeImageUrl(icon);
}

/** A user's avatar, or null for none (the UI draws the default: their initial). */
export function avatarUrl(userId: string, avatar: string | null | undefined): string | null {
  if (avatar === null || avatar === undefined || !ID.test(userId) || !HASH.test(avatar)) return null;
  return `cdn/avatars/${userId}/${avatar}.png`;
}

/**
 * An activity's `large_image` / `small_image` as the client shows it: an uploaded asset's key
 * (or id) of the activity's application, an external image through the media proxy
 * (`mp:external/…`: the original https address is shown), or an http(s) URL.
 */
export function activityImageUrl(applicationId: string | undefined, value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  const external = EXTERNAL.exec(value);
  if (external !== null) return safeImageUrl(`${external[1]}://${external[2]}`);
  if (/^https?:\/\//i.test(value)) return safeImageUrl(value);
  if (applicationId !== undefined && ID.test(applicationId) && ASSET_KEY.test(value)) return `cdn/app-assets/${applicationId}/${encodeURIComponent(value)}`;
  return null;
}
