/**
 * What `companion serve` loads to start (issue 27 §4: an always-on app's start RSS follows the
 * code it loads). Code needed only on request stays unloaded: beside a platform of its own
 * process the host loads none of the emulator (only the wire types it shares), and neither
 * start loads the certificate maker (pkijs), which only `--tls` / `--platform-tls` need.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CliProcess, cliCleanup, REPO_ROOT } from '../support/cli-process.js';

const cleanup = cliCleanup('companion-start-modules-');
const MODULE_LOG = pathToFileURL(path.join(REPO_ROOT, 'main/test/packaging/support/module-log.mjs')).href;

/** The modules a `companion serve` loaded until it said it was listening, as paths from the repository root. */
async function modulesOfServe(extra: readonly string[]): Promise<string[]> {
  const dir = await cleanup.dir();
  const log = path.join(dir, 'modules.txt');
  const serve = cleanup.track(
    CliProcess.run(['serve', '--runtime-dir', path.join(dir, 'run'), '--data-dir', path.join(dir, 'data'), ...extra], {
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      NODE_OPTIONS: `--import=${MODULE_LOG}`,
      MODULE_LOG: log,
    }),
  );
  await serve.waitForStdout(/listening on /, 30_000);
  const root = pathToFileURL(REPO_ROOT).href;
  return (await readFile(log, 'utf8')).split('\n').filter((url) => url.startsWith(root)).map((url) => url.slice(root.length + 1));
}

describe('issue 27 §4: what serve loads to start', () => {
  it('beside a platform of its own process: none of the emulator but the wire types, no jose, no certificate maker', async () => {
    const dir = await cleanup.dir();
    const platform = cleanup.track(CliProcess.run(['platform', 'serve', '--port', '0', '--data', path.join(dir, 'platform')], { XDG_CONFIG_HOME: path.join(dir, 'config') }));
    const [, url] = await platform.waitForStdout(/listening on (http:\/\/\S+)/, 30_000);
    const loaded = await modulesOfServe(['--platform', url as string, '--user', 'alice']);
    expect(loaded.some((file) => file.startsWith('out/main/src/host/'))).toBe(true);
    const emulator = loaded.filter((file) => file.startsWith('out/platform/src/') && !file.startsWith('out/platform/src/wire/') && file !== 'out/platform/src/tls/trust-instructions.js');
    expect(emulator).toEqual([]);
    expect(loaded.filter((file) => /node_modules\/(jose|pkijs|asn1js|node-sqlite3-wasm)\//.test(file))).toEqual([]);
  }, 60_000);

  it('with the embedded emulator: the emulator, but no certificate maker', async () => {
    const loaded = await modulesOfServe([]);
    expect(loaded).toContain('out/platform/src/state/store.js');
    expect(loaded.filter((file) => /node_modules\/(pkijs|asn1js)\/|out\/platform\/src\/tls\/certificate-maker/.test(file))).toEqual([]);
  }, 60_000);
});
