/**
 * Issue 27 §2: `companion doctor` finds Windows games under Wine or Proton whose Wine session has
 * no companion-bridge.exe, and says the one line that fixes it. The processes are given as
 * /proc shows them (a Windows program's argv[0] is its Windows path, its executable Wine's
 * loader); bridge.test.ts checks the same on real Wine processes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDoctorReport } from '../../../src/diagnostics/doctor/doctor-report.js';
import { formatDoctorReport } from '../../../src/diagnostics/doctor/format-report.js';
import { wineSessions, type ProcessInfo } from '../../../src/diagnostics/doctor/wine-games.js';

const PROTON_PREFIX = '/home/ann/.local/share/Steam/steamapps/compatdata/570/pfx';
const BRIDGE = '/opt/Companion/resources/bridge/companion-bridge.exe';

function wine(argv0: string, winePrefix: string | null, exe = '/usr/lib/wine/wine64'): ProcessInfo {
  return { exe, argv0, winePrefix };
}

const SYSTEM = (prefix: string): ProcessInfo[] => [
  wine('C:\\windows\\system32\\services.exe', prefix),
  wine('C:\\windows\\system32\\winedevice.exe', prefix),
  wine('C:\\windows\\system32\\explorer.exe', prefix),
  wine('C:\\windows\\system32\\steam.exe', prefix),
];

describe('issue 27 §2: companion doctor names a Wine game that cannot reach Companion', () => {
  it('a game in a Proton prefix with no bridge is one session without a bridge; Wine\'s own programs are no game', () => {
    const processes = [
      ...SYSTEM(PROTON_PREFIX),
      wine('Z:\\home\\ann\\.local\\share\\Steam\\steamapps\\common\\Game\\Game.exe', PROTON_PREFIX, '/home/ann/proton/files/bin/wine64-preloader'),
      { exe: '/usr/bin/node', argv0: 'node', winePrefix: null },
    ];
    expect(wineSessions(processes, '/home/ann')).toEqual([{ prefix: PROTON_PREFIX, games: ['game.exe'], bridge: false }]);
    expect(wineSessions(SYSTEM('/home/ann/.wine'), '/home/ann')).toEqual([]);
  });

  it('the bridge in the same session counts; in another session it does not; no WINEPREFIX is ~/.wine', () => {
    const processes = [wine('game.exe', null), wine('C:\\tools\\companion-bridge.exe', '/home/ann/.wine'), wine('other.exe', PROTON_PREFIX), wine('companion-bridge.exe', '/elsewhere')];
    expect(wineSessions(processes, '/home/ann')).toEqual([
      { prefix: '/home/ann/.wine', games: ['game.exe'], bridge: true },
      { prefix: PROTON_PREFIX, games: ['other.exe'], bridge: false },
    ]);
  });

  it('Companion for Windows running in the session (node.exe companion.js serve, Companion.exe) serves the pipe itself: no bridge needed', () => {
    const node = { ...wine('Z:\\opt\\node\\node.exe', '/p/a'), args: ['Z:\\src\\companion\\bin\\companion.js', 'serve', '--runtime-dir', 'Z:\\tmp'] };
    const desktop = wine('C:\\Program Files\\Companion\\Companion.exe', '/p/b');
    const otherNode = { ...wine('node.exe', '/p/c'), args: ['server.js'] };
    const processes = [node, wine('game.exe', '/p/a'), desktop, wine('game.exe', '/p/b'), otherNode];
    expect(wineSessions(processes, '/home/ann')).toEqual([
      { prefix: '/p/a', games: ['game.exe'], bridge: true },
      { prefix: '/p/b', games: ['game.exe'], bridge: true },
      { prefix: '/p/c', games: ['node.exe'], bridge: false },
    ]);
  });

  it('the report: a finding with the Steam launch options line and the bridge\'s path; the text names the session; no finding once the bridge runs', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'companion-doctor-wine-'));
    try {
      const options = { env: { XDG_RUNTIME_DIR: root, HOME: root }, platform: 'linux' as const, bridgeExe: BRIDGE, visible: (p: string) => p.startsWith(root), listFlatpakApps: async () => [], flatpakSystemDir: path.join(root, 'flatpak') };
      const game = wine('Z:\\games\\Game.exe', PROTON_PREFIX);
      const report = await buildDoctorReport({ ...options, wineProcesses: async () => [...SYSTEM(PROTON_PREFIX), game] });
      const finding = report.findings.find((line) => line.startsWith('a Windows game under Wine cannot reach Companion'));
      expect(finding).toContain(`game.exe (WINEPREFIX ${PROTON_PREFIX}) has no companion-bridge.exe`);
      expect(finding).toContain(`PROTON_REMOTE_DEBUG_CMD="${BRIDGE}" PRESSURE_VESSEL_FILESYSTEMS_RW="${root}:/opt/Companion/resources/bridge" %command%`);
      expect(formatDoctorReport(report)).toContain(`  game.exe in ${PROTON_PREFIX}: no bridge`);

      const bridged = await buildDoctorReport({ ...options, wineProcesses: async () => [game, wine('Z:\\opt\\companion-bridge.exe', PROTON_PREFIX)] });
      expect(bridged.findings.filter((line) => line.includes('Wine'))).toEqual([]);
      expect(bridged.wine?.sessions).toEqual([{ prefix: PROTON_PREFIX, games: ['game.exe'], bridge: true }]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
