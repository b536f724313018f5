import type { ExternalImages } from './external-images.js';

/**
 * The pictures the UI shows (app icons, uploaded art assets, avatars), fetched from the
 * platform's CDN by the host and served to the UI under its own origin (`cdn/...` relative to
 * the page), so the UI's Content-Security-Policy needs no other origin and the page never talks
 * to the platform itself. Only these three kinds of path pass, only images come back, and each
 * is bounded in size and time.
 *
 * UI path                                   CDN path
 * cdn/app-icons/{app id}/{icon}.png         /app-icons/{app id}/{icon}.png
 * cdn/app-assets/{app id}/{asset key}       /app-assets/{app id}/{asset id}.png (a key that is
 *                                           a name is looked up in the app's assets)
 * cdn/avatars/{user id}/{hash}.png          /avatars/{user id}/{hash}.png
 *
 * and games' own pictures (http(s) URLs and `mp:external/…` in activities), from the game's
 * server through the host (external-images.ts):
 *
 * cdn/external/{base64url of the activity's value}
 */

export interface UiImage {
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
  /** How long the UI may keep it (default an hour). */
  readonly maxAgeSeconds?: number;
}

export interface AppAsset {
  readonly id: string;
  readonly name: string;
}

export interface UiImagesOptions {
  /** The platform's base URL (its CDN routes are at the root). */
  readonly cdnBase: () => string;
  /** The application's uploaded assets (ids and names). */
  readonly assets: (applicationId: string) => Promise<readonly AppAsset[]>;
  /** Games' own pictures (`cdn/external/…`); without it those paths are 404. */
  readonly external?: Pick<ExternalImages, 'image'>;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
}

/** Images larger than this are refused (the UI shows its fallback). */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 5000;
/** How long an app's asset list is kept. */
const ASSETS_TTL_MS = 5 * 60 * 1000;
const MAX_CACHED_APPS = 200;

const ID = '\\d{1,20}';
const HASH = '(?:a_)?[A-Za-z0-9]{1,64}';
const EXT = '(?:png|jpg|jpeg|webp|gif)';
const ICON = new RegExp(`^cdn/app-icons/(${ID})/(${HASH}|${ID})\\.${EXT}$`);
const AVATAR = new RegExp(`^cdn/avatars/(${ID})/(${HASH})\\.${EXT}$`);
const ASSET = new RegExp(`^cdn/app-assets/(${ID})/([A-Za-z0-9_.-]{1,64})$`);

const EXTERNAL_PREFIX = 'cdn/external/';

const NOT_FOUND: UiImage = { status: 404, contentType: 'text/plain; charset=utf-8', body: Buffer.from('No such image.\n') };
const UNAVAILABLE: UiImage = { status: 502, contentType: 'text/plain; charset=utf-8', body: Buffer.from('The image could not be fetched.\n') };

export class UiImages {
  private readonly assetLists = new Map<string, { readonly at: number; readonly assets: Promise<readonly AppAsset[]> }>();
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;

  constructor(private readonly options: UiImagesOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
  }

  /** Whether `path` (without the leading slash) is one of the UI's image paths. */
  static handles(path: string): boolean {
    return path.startsWith('cdn/');
  }

  /** The image at a UI path: from the CDN, or 404 (not an image path, unknown asset), or 502. */
  async image(path: string): Promise<UiImage> {
    if (path.startsWith(EXTERNAL_PREFIX)) return this.options.external?.image(path.slice(EXTERNAL_PREFIX.length)) ?? NOT_FOUND;
    const cdnPath = await this.cdnPath(path);
    if (cdnPath === null) return NOT_FOUND;
    return this.fetchImage(cdnPath);
  }

  private async cdnPath(path: string): Promise<string | null> {
    const icon = ICON.exec(path) ?? AVATAR.exec(path);
    if (icon !== null) return `/${path.slice('cdn/'.length)}`;
    const asset = ASSET.exec(path);
    if (asset === null) return null;
    const [, applicationId, key] = asset as unknown as [string, string, string];
    const id = /^\d{1,20}$/.test(key) ? key : (await this.assetsOf(applicationId)).find((candidate) => candidate.name === key)?.id;
    return id === undefined ? null : `/app-assets/${applicationId}/${id}.png`;
  }

  private async assetsOf(applicationId: string): Promise<readonly AppAsset[]> {
    const cached = this.assetLists.get(applicationId);
    if (cached !== undefined && this.now() - cached.at < ASSETS_TTL_MS) return cached.assets;
    const assets = this.options.assets(applicationId).catch(() => {
      // Not kept: the next picture asks again.
      this.assetLists.delete(applicationId);
      return [];
    });
    if (this.assetLists.size >= MAX_CACHED_APPS) this.assetLists.delete(this.assetLists.keys().next().value as string);
    this.assetLists.set(applicationId, { at: this.now(), assets });
    return assets;
  }

  private async fetchImage(cdnPath: string): Promise<UiImage> {
    let response: Response;
    try {
      response = await this.fetchImpl(new URL(cdnPath, this.options.cdnBase()), { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' });
    } catch {
      return UNAVAILABLE;
    }
    const type = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
    const length = Number(response.headers.get('content-length') ?? '0');
    if (!response.ok || !type.startsWith('image/') || length > MAX_IMAGE_BYTES) {
      // The connection is released, whatever the answer was.
      await response.body?.cancel().catch(() => undefined);
      return response.status === 404 ? NOT_FOUND : UNAVAILABLE;
    }
    const body = Buffer.from(await response.arrayBuffer());
    if (body.length > MAX_IMAGE_BYTES) return UNAVAILABLE;
    return { status: 200, contentType: type, body };
  }
}
