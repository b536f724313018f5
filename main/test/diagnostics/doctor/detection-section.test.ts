import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { formatDetectionSection, type DetectionDiagnosis } from '../../../src/diagnostics/doctor/detection-section.js';

const GOLDEN_DIR = new URL('./golden/', import.meta.url);

/** Compares with (or writes, UPDATE_GOLDEN=1) golden/<name>.txt. */
async function expectGolden(name: string, text: string): Promise<void> {
  const file = new URL(`${name}.txt`, GOLDEN_DIR);
  if (process.env['UPDATE_GOLDEN'] === '1') await writeFile(file, text);
  expect(text).toBe(await readFile(file, 'utf8'));
}

const explained: DetectionDiagnosis = {
  state: 'explained',
  enabled: true,
  list: { source: 'platform', applications: 4, last_error: null },
  programs: [
    { pid: 101, path: '/games/native/nativegame_x64', verdict: { kind: 'detected', application_id: '100', application_name: 'Native Game', entry: 'nativegame_x64' } },
    { pid: 102, path: '/home/p/.steam/steamapps/common/team fortress 2/hl2_linux', verdict: { kind: 'argument-missing', application_id: '300', application_name: 'Team Fortress 2', entry: 'hl2_linux', arguments: '-game tf' } },
    { pid: 103, path: '/opt/somelauncher/somelauncher', verdict: { kind: 'launcher', application_id: '500', application_name: 'Some Launcher', entry: 'somelauncher' } },
    { pid: 104, path: '/opt/macgame/macgame', verdict: { kind: 'other-os', application_id: '600', application_name: 'Mac Game', entry: 'macgame', os: ['darwin'], this_os: 'linux' } },
    { pid: 105, path: '/usr/bin/bash', verdict: { kind: 'no-entry' } },
    { pid: 106, path: '/usr/bin/sleep', verdict: { kind: 'no-entry' } },
  ],
};

describe('issue 30 §4: companion doctor explains why a running program was not detected', () => {
  it('the detected games and the near misses (an argument missing, a launcher, no entry for this OS), and a count of the rest', async () => {
    await expectGolden('detection-explained', formatDetectionSection(explained));
  });

  it('--program NAME: every program whose path contains it, one with no entry too', async () => {
    await expectGolden('detection-program', formatDetectionSection(explained, 'BASH') + formatDetectionSection(explained, 'nothing-like-it'));
  });

  it('the cached list, detection switched off, no host, no scanner', async () => {
    const offline: DetectionDiagnosis = { ...explained, enabled: false, list: { source: 'cache', applications: 4, last_error: 'GET /applications/detectable: connect ECONNREFUSED 127.0.0.1:9' }, programs: [] };
    const text = [formatDetectionSection(offline), formatDetectionSection({ state: 'not-running' }), formatDetectionSection({ state: 'no-scanner', reason: 'this host runs no process scanner (game detection scans processes on Linux)' })].join('');
    await expectGolden('detection-states', text);
  });
});
