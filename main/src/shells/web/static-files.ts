import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTENT_TYPES } from '../../base/content-types.js';


export function contentType(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * `<repo>/out/renderer`, where the renderer's Vite build goes, found from this module's own
 * place: `<repo>/main/src/shells/web/` when run from source (tests), `<repo>/out/main/src/shells/web/`
 * when built.
 */
export function defaultRendererDir(moduleUrl: string = import.meta.url): string {
  const here = path.dirname(fileURLToPath(moduleUrl));
  const parts = here.split(path.sep);
  const outIndex = parts.lastIndexOf('out');
  const mainIndex = parts.lastIndexOf('main');
  const repo = outIndex !== -1 && outIndex === mainIndex - 1 ? parts.slice(0, outIndex).join(path.sep) : parts.slice(0, mainIndex).join(path.sep);
  return path.join(repo || path.sep, 'out', 'renderer');
}

export type Resolved =
  | { readonly kind: 'file'; readonly file: string; readonly size: number }
  /** Not a file under the root; `spa`: a path without an extension (a client-side route). */
  | { readonly kind: 'missing'; readonly spa: boolean }
  /** A path that tries to leave the root, or cannot be decoded. */
  | { readonly kind: 'bad' };

/**
 * Maps a request path (raw, still percent-encoded, without the query) to a file under
 * `root` (a real path). Every segment is decoded on its own, and `.`/`..`, empty names,
 * back slashes, NULs and encoded slashes are refused before the file system is asked;
 * the file's real path (symbolic links followed) must still be under the root.
 */
export async function resolveStatic(root: string, rawPath: string): Promise<Resolved> {
  if (!rawPath.startsWith('/')) return { kind: 'bad' };
  const segments: string[] = [];
  const rawSegments = rawPath.slice(1).split('/');
  for (const [index, raw] of rawSegments.entries()) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return { kind: 'bad' };
    }
    if (segment === '' && index === rawSegments.length - 1) continue; // a trailing slash
    if (segment === '' || segment === '.' || segment === '..' || /[/\\\0]/.test(segment)) return { kind: 'bad' };
    segments.push(segment);
  }
  const last = segments.at(-1);
  const spa = last === undefined || path.extname(last) === '';
  if (segments.length === 0) return { kind: 'missing', spa: true };
  const candidate = path.join(root, ...segments);
  if (!isInside(root, candidate)) return { kind: 'bad' };
  try {
    const real = await realpath(candidate);
    if (!isInside(root, real)) return { kind: 'bad' };
    const info = await stat(real);
    if (!info.isFile()) return { kind: 'missing', spa };
    return { kind: 'file', file: real, size: info.size };
  } catch {
    return { kind: 'missing', spa };
  }
}

function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/** The real path of the renderer's index.html, or null when the UI is not built. */
export async function findIndex(root: string): Promise<{ readonly root: string; readonly index: string } | null> {
  try {
    const realRoot = await realpath(root);
    const index = path.join(realRoot, 'index.html');
    return (await stat(index)).isFile() ? { root: realRoot, index } : null;
  } catch {
    return null;
  }
}
