import { readFileSync } from 'node:fs';

/** The package version, read once from package.json beside the build output. */
export function readVersion(): string {
  for (const candidate of ['../../../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'companion' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // try the next layout (source tree vs out/)
    }
  }
  return '0.0.0';
}
