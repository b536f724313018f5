import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliCleanup, CliProcess } from '../../support/cli-process.js';

const { track, dir } = cliCleanup('companion-ui-open-');
const WEB_UI = /Web UI: (\S+) \(token in (\S+)\)\n/;
const NO_BROWSER = /^companion ui: no browser opened \((.+)\); open this link by hand: (\S+)\n$/;

/** `companion ui --open` against a running host, in `env`: its exit code, stdout and stderr. */
async function uiOpen(runtime: string, env: Record<string, string | undefined>): Promise<CliProcess & { code: number | null }> {
  const proc = track(CliProcess.run(['ui', '--open', '--runtime-dir', runtime], env));
  const { code } = await proc.exited;
  return Object.assign(proc, { code });
}

describe('issue 26 §10: companion ui --open with no usable browser says so, with the link to open by hand', () => {
  it('no opener on PATH, an opener that fails, and xdg-open with BROWSER set to a missing program: one line each, with the link', async () => {
    const runtime = await dir();
    const host = track(CliProcess.run(['serve', '--runtime-dir', runtime], { XDG_CONFIG_HOME: await dir() }));
    await host.waitForStdout(WEB_UI, 15_000);

    // No xdg-open anywhere on PATH.
    const missing = await uiOpen(runtime, { PATH: await dir() });
    expect(missing.code).toBe(0);
    const [, why, link] = NO_BROWSER.exec(missing.stderr) ?? [];
    expect(why).toBe('there is no xdg-open');
    expect(link).toBe(missing.stdout.trim());

    // An opener that finds nothing to open with (xdg-open exits 3 then).
    const bin = await dir();
    await writeFile(path.join(bin, 'xdg-open'), '#!/bin/sh\necho "xdg-open: no method available" >&2\nexit 3\n', { mode: 0o755 });
    const failing = await uiOpen(runtime, { PATH: `${bin}:/usr/bin:/bin` });
    expect(failing.code).toBe(0);
    expect(NO_BROWSER.exec(failing.stderr)?.slice(1)).toEqual(['xdg-open found no browser to open it (exit 3)', failing.stdout.trim()]);

    // The real xdg-open, where there is one, with no desktop and a BROWSER that does not exist.
    if (existsSync('/usr/bin/xdg-open')) {
      const real = await uiOpen(runtime, { PATH: '/usr/bin:/bin', BROWSER: '/nonexistent/browser', DISPLAY: undefined, WAYLAND_DISPLAY: undefined });
      expect(real.code).toBe(0);
      expect(NO_BROWSER.exec(real.stderr)?.[2]).toBe(real.stdout.trim());
    }
    host.kill('SIGTERM');
    expect((await host.exited).code).toBe(0);
  });
});
