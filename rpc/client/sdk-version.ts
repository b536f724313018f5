import { readFileSync } from 'node:fs';

/**
 * The SDK's own version (Client::GetVersionMajor/Minor/Patch/Hash), read once from the
 * package's manifest: the packed package's `package.json` (next to `dist/`), else, in this
 * repository, `sdk/package.json`. `hash` is the manifest's `gitHead` (the commit the package
 * was packed from: `npm run sdk:pack` writes it), else `source-<version>` (a stable string for
 * a build run from the repository, or a package packed outside git).
 */
export interface SdkVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly hash: string;
}

const PACKAGE_NAME = 'companion-client';

/** Where the manifest may be, relative to this module (source, `tsc -b` output, the bundle). */
const CANDIDATES = ['../package.json', '../../sdk/package.json', '../../../sdk/package.json'];

let cached: SdkVersion | undefined;

export function sdkVersion(): SdkVersion {
  cached ??= readVersion();
  return cached;
}

function readVersion(): SdkVersion {
  for (const candidate of CANDIDATES) {
    const manifest = readManifest(new URL(candidate, import.meta.url));
    if (manifest !== null) return fromManifest(manifest.version, manifest.gitHead);
  }
  return fromManifest('0.0.0', undefined);
}

function readManifest(url: URL): { version: string; gitHead: string | undefined } | null {
  try {
    const parsed = JSON.parse(readFileSync(url, 'utf8')) as { name?: unknown; version?: unknown; gitHead?: unknown };
    if (parsed.name !== PACKAGE_NAME || typeof parsed.version !== 'string') return null;
    return { version: parsed.version, gitHead: typeof parsed.gitHead === 'string' && /^[0-9a-f]{7,40}$/.test(parsed.gitHead) ? parsed.gitHead : undefined };
  } catch {
    return null;
  }
}

function fromManifest(version: string, gitHead: string | undefined): SdkVersion {
  const [major, minor, patch] = /^(\d+)\.(\d+)\.(\d+)/.exec(version)?.slice(1).map(Number) ?? [0, 0, 0];
  return { major: major ?? 0, minor: minor ?? 0, patch: patch ?? 0, hash: gitHead ?? `source-${version}` };
}
