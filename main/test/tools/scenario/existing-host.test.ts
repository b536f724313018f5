/**
 * `host: {use: existing}`: a scenario runs against a host that is already running (found by
 * its runtime dir, or its runtime file), sets the consent policy and dismisses a prompt
 * through the host's web UI bridge, and leaves the host as it found it: its policy restored,
 * no game of the scenario still connected.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Host } from '../../../src/host/compose/host.js';
import { makeTempDir } from '../../../../rpc/test/support/test-server.js';
import { controlCall, eventually, startTestHost } from '../../e2e/support/world.js';
import { runInProcess } from './support.js';

let host: Host;
let runtimeDir: string;
let dataDir: string;

beforeEach(async () => {
  runtimeDir = await makeTempDir('companion-rt-');
  dataDir = await makeTempDir('companion-data-');
  host = await startTestHost({ runtimeDir, dataDir, webUi: true });
  await eventually(() => host.session.status.status === 'ready', "the host's gateway READY");
});
afterEach(async () => {
  await host.close();
  await rm(runtimeDir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

const SCENARIO = `name: against a running host
host: {use: existing, consent: approve}
steps:
  - game: {name: g, client_id: "1234567890123456789"}
  - authorize: {game: g, scopes: [identify]}
  - consent: {policy: prompt}
  - authorize: {game: g, scopes: [identify, guilds], answer: dismiss, expect: denied}
  - expect_presence: {seen_by: bob, status: online}
`;

describe('scenarios against an existing host', () => {
  it('finds it by --runtime-dir, uses its UI bridge for the policy and dismissals, and restores its policy', async () => {
    const file = path.join(dataDir, 'existing.yaml');
    await writeFile(file, SCENARIO);
    expect(host.consent.policy).toBe('prompt');
    host.consent.policy = 'deny';
    const run = await runInProcess([file], { existing: { runtimeDir, env: {} } });
    expect(run.out.join('\n')).toContain('ok 2 authorize g: approved');
    expect(run.code, run.out.join('\n')).toBe(0);
    expect(host.consent.policy).toBe('deny');
    const games = await controlCall(host, 'GET', '/v1/games');
    expect(games.body.games).toEqual([]);
  });

  it('finds it by --host FILE (its runtime file)', async () => {
    const file = path.join(dataDir, 'existing-file.yaml');
    await writeFile(file, 'name: by runtime file\nhost: {use: existing}\nsteps:\n  - control: {route: /v1/status, expect: {match: {account: {user: {username: alice}}}}}\n');
    const run = await runInProcess([file], { existing: { host: host.runtimeFile ?? '', env: {} } });
    expect(run.code, run.out.join('\n')).toBe(0);
  });

  it('fails an inject step on a host without QA mode, saying to start it with serve --qa', async () => {
    const file = path.join(dataDir, 'no-qa.yaml');
    await writeFile(file, 'name: no qa\nhost: {use: existing}\nsteps:\n  - inject: {kind: gateway, action: drop}\n');
    const run = await runInProcess([file], { existing: { runtimeDir, env: {} } });
    expect(run.code).toBe(1);
    expect(run.out.join('\n')).toContain("does not take injections: it runs without QA mode (start it with 'companion serve --qa')");
  });

  it('fails the scenario, not the run, when there is no host there', async () => {
    const file = path.join(dataDir, 'nohost.yaml');
    await writeFile(file, 'name: no host\nhost: {use: existing}\nsteps:\n  - wait: 1\n');
    const empty = await makeTempDir('companion-rt-');
    try {
      const run = await runInProcess([file], { existing: { runtimeDir: empty, env: {} } });
      expect(run.code).toBe(1);
      expect(run.out).toContain('skip 1 wait 1 ms');
      expect(run.out.find((line) => line.startsWith("FAILED 'no host': host: no Companion is running here"))).toBeDefined();
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
