import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The production dependency tree as installed: the names of every package reached from the
 * project's `dependencies` and `optionalDependencies` (what `npm list --omit dev` lists) through each installed package's `dependencies` and (installed)
 * `optionalDependencies`, resolved as Node does (nested node_modules first, then upwards).
 * The project's devDependencies are not followed.
 */
interface Manifest {
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
}

function manifest(dir: string): Manifest {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** The installed directory of `name` as seen from package directory `from`, or null. */
function resolvePackage(root: string, from: string, name: string): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === path.dirname(dir)) return null;
  }
}

export function productionPackages(root: string): { readonly names: ReadonlySet<string>; readonly missing: readonly string[] } {
  const names = new Set<string>();
  const missing: string[] = [];
  const seen = new Set<string>();
  const visit = (dir: string, required: boolean, deps: Manifest): void => {
    const wanted = [...Object.keys(deps.dependencies ?? {}).map((name) => [name, required] as const), ...Object.keys(deps.optionalDependencies ?? {}).map((name) => [name, false] as const)];
    for (const [name, needed] of wanted) {
      const found = resolvePackage(root, dir, name);
      if (found === null) {
        if (needed) missing.push(`${name} (from ${path.relative(root, dir) || '.'})`);
        continue;
      }
      names.add(name);
      if (seen.has(found)) continue;
      seen.add(found);
      visit(found, true, manifest(found));
    }
  };
  visit(root, true, manifest(root));
  return { names, missing };
}
