import { identityColour } from '../../../common/src/identity-colour.js';
import type { AppRecord } from '../state/model.js';
import type { Route, RouteResult } from './router.js';

/**
 * The CDN's image routes **(ours: generated images)**: `GET /app-icons/{app id}/{icon}.png` and
 * `GET /app-assets/{app id}/{asset id}.png`, the paths of the real CDN. The emulator keeps no
 * image data (an asset is a name and a type), so it answers a picture drawn from what it knows:
 * an SVG (`image/svg+xml`, whatever the extension asked for) with the asset's name, or the app's
 * initial, on a colour of the id's own. Unknown apps, icons and assets answer 404, as the CDN does.
 */

/** The extensions the CDN serves; the id is the file name without it. */
const IMAGE_FILE = /^(\d{1,20})\.(png|jpg|jpeg|webp|gif)$/;

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A square picture: `label` centred on the id's colour. */
export function placeholderSvg(id: string, label: string): string {
  const text = escapeXml(Array.from(label).slice(0, 12).join(''));
  const size = label.length <= 2 ? 128 : Math.max(28, Math.floor(200 / Math.max(4, Array.from(label).length)));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">` +
    `<rect width="256" height="256" fill="${identityColour(id)}"/>` +
    `<text x="128" y="128" dominant-baseline="central" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="${size}" fill="#ffffff">${text}</text>` +
    `</svg>`
  );
}

function image(id: string, label: string): RouteResult {
  return { status: 200, text: placeholderSvg(id, label), contentType: 'image/svg+xml', headers: { 'Cache-Control': 'public, max-age=86400' } };
}

/** No such picture: a 404 of the CDN's own (the router's 404 says there is no route at all). */
class NoSuchImage extends Error {}

const NOT_FOUND: RouteResult = { status: 404, body: { code: 0, message: '404: No such image' } };

function fileId(file: string | undefined): string {
  const match = IMAGE_FILE.exec(file ?? '');
  if (match === null) throw new NoSuchImage();
  return match[1] as string;
}

/** The route's answer, or the CDN's 404 for an unknown app, icon, asset or file name. */
function answer(work: () => RouteResult): RouteResult {
  try {
    return work();
  } catch (error) {
    if (error instanceof NoSuchImage) return NOT_FOUND;
    throw error;
  }
}

export function cdnRoutes(resolveApp: (id: string) => AppRecord | undefined): Route[] {
  const app = (id: string | undefined): AppRecord => {
    const found = id === undefined ? undefined : resolveApp(id);
    if (found === undefined) throw new NoSuchImage();
    return found;
  };
  return [
    {
      method: 'GET',
      pattern: '/app-icons/:app/:file',
      access: { app: 'application', file: 'asset' },
      auth: 'none',
      handle: (ctx) =>
        answer(() => {
          const record = app(ctx.params.app);
          const id = fileId(ctx.params.file);
          if (record.icon !== id) throw new NoSuchImage();
          return image(id, Array.from(record.name.trim())[0]?.toUpperCase() ?? '?');
        }),
    },
    {
      method: 'GET',
      pattern: '/app-assets/:app/:file',
      access: { app: 'application', file: 'asset' },
      auth: 'none',
      handle: (ctx) =>
        answer(() => {
          const record = app(ctx.params.app);
          const id = fileId(ctx.params.file);
          const asset = record.assets.find((candidate) => candidate.id === id);
          if (asset === undefined) throw new NoSuchImage();
          return image(id, asset.name);
        }),
    },
  ];
}
