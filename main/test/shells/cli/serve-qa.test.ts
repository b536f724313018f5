/**
 * `companion serve --qa` serves the control API's `/v1/inject/*`; a default `companion serve`
 * answers them with 404, and `companion inject` against it says to start it with `--qa`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { injectCommand } from '../../../src/shells/cli/inject.js';
import { cliCleanup, CliProcess } from '../../support/cli-process.js';

const { track, dir } = cliCleanup('companion-serve-qa-');

async function serve(args: string[]): Promise<{ proc: CliProcess; runtime: string; control: { url: string; token: string } }> {
  const runtime = await dir();
  const proc = track(CliProcess.run(['serve', '--runtime-dir', runtime, ...args], { XDG_CONFIG_HOME: await dir() }));
  await proc.waitForStdout(/Signed in as alice\n/);
  const info = JSON.parse(await readFile(path.join(runtime, 'companion', 'host.json'), 'utf8')) as { control: { url: string; token: string } };
  return { proc, runtime, control: info.control };
}

async function call(control: { url: string; token: string }, method: string, route: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${control.url}${route}`, {
    method,
    headers: { Authorization: `Bearer ${control.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

async function inject(runtime: string, ...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await injectCommand([...argv, '--runtime-dir', runtime], {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: {},
    version: '0.0.0-test',
  });
  return { code, stdout, stderr };
}

describe('companion serve --qa', () => {
  it('without --qa: /v1/inject is 404 and companion inject says how to start the host', async () => {
    const { proc, runtime, control } = await serve(['--user', 'alice']);
    expect(proc.stdout).not.toContain('QA mode');
    expect(await call(control, 'POST', '/v1/inject/gateway', { action: 'drop' })).toEqual({ status: 404, body: { error: 'not_found', message: 'no such route' } });
    expect(await call(control, 'DELETE', '/v1/inject/token-error')).toMatchObject({ status: 404 });
    const refused = await inject(runtime, 'gateway', 'drop');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`the host at ${control.url} does not take injections: it runs without QA mode (start it with 'companion serve --qa')`);
  });

  it('with --qa: /v1/inject answers, and companion inject works', async () => {
    const { proc, runtime, control } = await serve(['--user', 'alice', '--qa']);
    expect(proc.stdout).toContain('QA mode: event and fault injection on');
    expect(await call(control, 'DELETE', '/v1/inject/token-error')).toEqual({ status: 200, body: { cleared: 0 } });
    expect(await inject(runtime, 'token-error', '--clear')).toMatchObject({ code: 0, stderr: '' });
  });

  it('lists --qa in its help', async () => {
    const proc = track(CliProcess.run(['serve', '--help']));
    expect((await proc.exited).code).toBe(0);
    expect(proc.stdout).toMatch(/--qa {16}QA mode: the control API also serves event and fault/);
  });
});
