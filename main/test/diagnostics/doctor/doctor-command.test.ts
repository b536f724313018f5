import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliCleanup, CliProcess } from '../../support/cli-process.js';

const { track, dir } = cliCleanup('companion-doctor-cli-');
const DEMO_APP = '1234567890123456789';

async function runningHost(): Promise<{ runtime: string; env: Record<string, string> }> {
  const runtime = await dir();
  const env = { XDG_RUNTIME_DIR: runtime, HOME: await dir() };
  const proc = track(CliProcess.run(['serve', '--user', 'alice'], { ...env, XDG_CONFIG_HOME: await dir() }));
  await proc.waitForStdout(/Signed in as alice/);
  return { runtime, env };
}

describe('companion doctor', () => {
  it('reports the running host, its two listeners and every library reaching it, with no secret', async () => {
    const { runtime, env } = await runningHost();
    const result = await CliProcess.complete(['doctor', '--json'], env);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.companion).toMatchObject({
      state: 'running',
      listeners: [
        { path: path.join(runtime, 'discord-ipc-0'), index: 0, kind: 'prefix' },
        { path: path.join(runtime, 'app/com.discordapp.Discord/discord-ipc-0'), index: 0, kind: 'flatpak' },
      ],
    });
    expect(report.clients.every((client: { reaches: string }) => client.reaches === 'companion')).toBe(true);
    const host = JSON.parse(await readFile(path.join(runtime, 'companion', 'host.json'), 'utf8'));
    const text = await CliProcess.complete(['doctor'], env);
    for (const secret of [host.control.token, host.webUi.token, host.platform.adminToken]) {
      expect(result.stdout).not.toContain(secret);
      expect(text.stdout).not.toContain(secret);
    }
    expect(text.stdout).toContain(`  running (pid ${host.pid}, version `);
  });

  it('--activity: the wire answer and the lint, exit 1 when refused, 2 for a file it cannot read', async () => {
    const base = await dir();
    const accepted = path.join(base, 'accepted.json');
    await writeFile(accepted, JSON.stringify({ details: 'Ranked', timestamps: { start: 1_700_000_000 }, buttons: [{ label: 'Join 🎮', url: 'https://example.com' }] }));
    const ok = await CliProcess.complete(['doctor', '--activity', accepted]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('Wire answer (what the real client replies): accepted\n');
    expect(ok.stdout).toContain('[button-label-emoji]');
    expect(ok.stdout).toContain('[timestamp-seconds]');
    expect(ok.stdout).toContain('[buttons-hidden-from-author]');

    const refused = path.join(base, 'refused.json');
    await writeFile(refused, JSON.stringify({ cmd: 'SET_ACTIVITY', args: { pid: 1, activity: { state: 'x' } }, nonce: '1' }));
    const no = await CliProcess.complete(['doctor', '--activity', refused, '--json']);
    expect(no.code).toBe(1);
    expect(JSON.parse(no.stdout).wire).toEqual({
      evt: 'ERROR',
      data: { code: 4000, message: 'child "activity" fails because [child "state" fails because ["state" length must be at least 2 characters long]]' },
    });

    const broken = path.join(base, 'broken.json');
    await writeFile(broken, '{ not json');
    const bad = await CliProcess.complete(['doctor', '--activity', broken]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^companion doctor: .*broken\.json is not JSON/);
    const usage = await CliProcess.complete(['doctor', '--client-id', DEMO_APP]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--client-id and --platform go with --activity FILE');
  });

  it('--activity --client-id checks asset keys against what the app uploaded, asking the running host’s platform', async () => {
    const { env } = await runningHost();
    const file = path.join(await dir(), 'assets.json');
    await writeFile(file, JSON.stringify({ details: 'Menu', assets: { large_image: 'never_uploaded', small_image: 'logo' } }));
    const result = await CliProcess.complete(['doctor', '--activity', file, '--client-id', DEMO_APP, '--json'], env);
    expect(result.code).toBe(0);
    const check = JSON.parse(result.stdout);
    expect(check.assets).toMatchObject({ checked: true, applicationId: DEMO_APP });
    expect(check.lints.map((l: { code: string; field: string }) => [l.code, l.field])).toEqual([['asset-not-uploaded', 'assets.large_image']]);
  });
});
