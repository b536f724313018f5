import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { main } from './cli.js';

/**
 * `npm start`: the Electron app where an Electron binary exists, otherwise the headless host.
 * The `electron` package is an optional dependency whose binary download fails on machines
 * without access to its release host; then it is simply absent.
 */
export function findElectronBinary(): string | undefined {
  try {
    const resolved: unknown = createRequire(import.meta.url)('electron');
    return typeof resolved === 'string' && existsSync(resolved) ? resolved : undefined;
  } catch {
    return undefined;
  }
}

export async function start(argv: readonly string[]): Promise<void> {
  const electron = findElectronBinary();
  const reason =
    electron === undefined
      ? 'No Electron binary found (the optional electron package is not installed)'
      : `Electron found at ${electron}, but this version has no desktop shell yet`;
  process.stdout.write(`${reason}; starting the headless host.\n`);
  process.argv = [process.argv[0] as string, process.argv[1] as string, 'serve', ...argv];
  await main();
}
