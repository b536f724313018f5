import { spawn, spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isReservedPort } from '../../../src/host/control/control-server.js';
import { cliCleanup, CliProcess, REPO_ROOT } from '../../support/cli-process.js';
import { rawRequest } from '../../host/ui-bridge/support.js';

const { track, dir } = cliCleanup('companion-webui-cli-');

const WEB_UI = /Web UI: (\S+) \(token in (\S+)\)\n/;

describe('companion serve and npm start print the web UI', () => {
  it.each([
    ['companion serve', 'bin/companion.js', ['serve']],
    ['npm start', 'bin/start.js', []],
  ])('%s: not on a terminal, the URL without its token and where the token is', async (_name, script, args) => {
    const runtime = await dir();
    // npm start runs the headless host here even where an Electron binary exists.
    const proc = CliProcess.run([...args, '--runtime-dir', runtime], { XDG_CONFIG_HOME: await dir(), COMPANION_HEADLESS: '1' }, script);
    track(proc);
    const [, url, file] = await proc.waitForStdout(WEB_UI, 15_000);
    expect(file).toBe(path.join(runtime, 'companion', 'host.json'));
    const info = JSON.parse(await readFile(file!, 'utf8')) as { webUi: { url: string; token: string } };
    expect(info.webUi.url).toBe(url);
    expect(proc.stdout).not.toContain(info.webUi.token);
    const port = Number(new URL(url!).port);
    expect(isReservedPort(port)).toBe(false);
    expect((await rawRequest(port, '/')).status).toBe(401);
    expect((await rawRequest(port, `/?token=${info.webUi.token}`)).status).toBe(302);
    proc.kill('SIGTERM');
    expect((await proc.exited).code).toBe(0);
  });

  it('companion ui prints a link that opens the UI once; --open hands it to the browser', async () => {
    const runtime = await dir();
    const host = track(CliProcess.run(['serve', '--runtime-dir', runtime], { XDG_CONFIG_HOME: await dir() }));
    await host.waitForStdout(WEB_UI, 15_000);
    const ui = track(CliProcess.run(['ui', '--runtime-dir', runtime]));
    expect((await ui.exited).code).toBe(0);
    const url = new URL(ui.stdout.trim());
    const info = JSON.parse(await readFile(path.join(runtime, 'companion', 'host.json'), 'utf8')) as { webUi: { url: string; token: string } };
    expect(url.origin + url.pathname).toBe(info.webUi.url);
    const token = url.searchParams.get('token') ?? '';
    expect(token).not.toBe(info.webUi.token);
    const port = Number(url.port);
    // Once: it opens a session, then it is used up.
    expect((await rawRequest(port, `/?token=${token}`)).status).toBe(302);
    const again = await rawRequest(port, `/?token=${token}`);
    expect(again.status).toBe(401);
    expect(again.body).toContain('companion ui');
    // Each call gives a new link.
    const second = track(CliProcess.run(['ui', '--runtime-dir', runtime]));
    expect((await second.exited).code).toBe(0);
    expect(second.stdout.trim()).not.toBe(ui.stdout.trim());

    // --open: the platform's opener (here a stand-in for xdg-open on PATH) gets the link.
    const bin = await dir();
    const opened = path.join(bin, 'opened.txt');
    await writeFile(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`, { mode: 0o755 });
    const open = track(CliProcess.run(['ui', '--open', '--runtime-dir', runtime], { PATH: `${bin}:${process.env.PATH ?? ''}` }));
    expect((await open.exited).code).toBe(0);
    await expect.poll(() => readFile(opened, 'utf8').catch(() => ''), { timeout: 5000 }).toBe(open.stdout.trim());

    // No host there: said in words, exit code 1.
    const none = track(CliProcess.run(['ui', '--runtime-dir', await dir()]));
    expect((await none.exited).code).toBe(1);
    expect(none.stderr).toMatch(/^companion ui: /);
    host.kill('SIGTERM');
    expect((await host.exited).code).toBe(0);
  });

  // util-linux `script` gives the host a pseudo-terminal, as when a user runs it.
  const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
  it.skipIf(!hasScript)('on a terminal, the URL with its token', async () => {
    const runtime = await dir();
    const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
    const command = [process.execPath, path.join(REPO_ROOT, 'bin/companion.js'), 'serve', '--runtime-dir', runtime].map(quote).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CONFIG_HOME: await dir() },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    let hostPid: number | undefined;
    try {
      const deadline = Date.now() + 15_000;
      while (!/Web UI: \S+\r?\n/.test(output)) {
        if (Date.now() > deadline) throw new Error(`no Web UI line: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const info = JSON.parse(await readFile(path.join(runtime, 'companion', 'host.json'), 'utf8')) as { pid: number; webUi: { url: string; token: string } };
      hostPid = info.pid;
      expect(output).toContain(`Web UI: ${info.webUi.url}?token=${info.webUi.token}`);
    } finally {
      if (hostPid !== undefined) process.kill(hostPid, 'SIGTERM');
      else child.kill('SIGKILL');
      await exited;
    }
  });
});
