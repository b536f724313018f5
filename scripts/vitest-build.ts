import { spawnSync } from 'node:child_process';

/**
 * Vitest global setup: bring out/ up to date (incremental `tsc -b`), because the CLI tests
 * run the built `companion` command as a real process. A type error is reported by the type
 * check step of `npm test`; here it only leaves the previous build in place.
 */
export default function setup(): void {
  const result = spawnSync('node_modules/.bin/tsc', ['-b'], { stdio: 'pipe', encoding: 'utf8' });
  if (result.status !== 0) {
    process.stderr.write(`vitest global setup: tsc -b failed; CLI tests use the last good build\n${result.stdout}`);
  }
}
