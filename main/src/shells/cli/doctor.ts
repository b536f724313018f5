import { parseCommandArgs, UsageError, type CommandIo } from './cli-args.js';
import { darwinUserTempDir } from '../../base/darwin-temp-dir.js';
import { ActivityFileError, checkActivityFile, formatActivityCheck } from '../../diagnostics/doctor/activity-check.js';
import { buildDoctorReport } from '../../diagnostics/doctor/doctor-report.js';
import { readProcesses } from '../../diagnostics/doctor/wine-games.js';
import { formatDoctorReport } from '../../diagnostics/doctor/format-report.js';
import { readHostRuntimeFile } from '../../base/host-locator.js';
import { formatNativeTls, nativeTlsStatus } from './doctor-native-tls.js';
import { detectionDiagnosis } from './doctor-detection.js';
import { formatDetectionSection } from '../../diagnostics/doctor/detection-section.js';

export const DOCTOR_HELP = `Usage: companion doctor [options]
       companion doctor --activity FILE [--client-id ID] [options]

Explains why a game does not reach Companion: where Companion listens (or
would), what is on each discord-ipc-N there (Companion, another server such as
the desktop client, a stale socket), the socket each client library would pick
in this environment (npm discord-rpc, @xhayper/discord-rpc, pypresence, the C
library, the Rust crate, the C# client, the Social SDK, companion/client), and
on Linux the Flatpak apps that cannot see Companion's sockets, with the
'flatpak override' command that fixes each; last, whether the emulator serves
a native game (the Social SDK) over TLS, and where its local CA is; and what
the running host's game detection makes of the running programs: the games it
detects, and why a program is not (no entry for this OS, an argument missing,
a launcher). Run it in the environment the game runs in. It prints no secrets
(and no command line).

With --activity, checks a SET_ACTIVITY payload instead: the answer the real
client gives (accepted, or its error), and what it accepts but shows badly
(the lint: seconds for milliseconds, emoji button labels, text over 128 bytes,
a Join button that cannot appear, buttons hidden from their author, asset keys
never uploaded, ...). Exit code 1 when the payload is refused.

Options:
  --json              Print the report as JSON
  --runtime-dir DIR   Look at the host serving DIR (as 'serve --runtime-dir')
  --activity FILE     The payload: an activity, {pid, activity}, or a whole
                      {"cmd": "SET_ACTIVITY", "args": ...} frame
  --client-id ID      With --activity: the application; its asset keys are
                      checked against the ones it uploaded
  --platform URL      With --client-id: the platform to ask (default: the
                      running Companion's)
  --program NAME      Game detection: explain every running program whose
                      path contains NAME, those matching no entry too
  -h, --help          Show this help
`;

export async function doctorCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArgs('doctor', argv, {
    json: { type: 'boolean' },
    'runtime-dir': { type: 'string' },
    activity: { type: 'string' },
    'client-id': { type: 'string' },
    platform: { type: 'string' },
    program: { type: 'string' },
  });
  if (parsed.help) {
    io.stdout(DOCTOR_HELP);
    return 0;
  }
  const values = parsed.values;
  const json = values.json === true;
  const runtimeDir = values['runtime-dir'] as string | undefined;
  if (runtimeDir === '') throw new UsageError('--runtime-dir must not be empty');
  const activityFile = values.activity as string | undefined;
  const clientId = values['client-id'] as string | undefined;
  const platformFlag = values.platform as string | undefined;
  if (activityFile === undefined && (clientId !== undefined || platformFlag !== undefined)) throw new UsageError('--client-id and --platform go with --activity FILE');
  if (clientId !== undefined && !/^\d{1,20}$/.test(clientId)) throw new UsageError(`--client-id must be an application id (digits), got '${clientId}'`);
  if (platformFlag !== undefined && !/^https?:\/\//.test(platformFlag)) throw new UsageError(`--platform must be an http(s) URL, got '${platformFlag}'`);

  if (activityFile !== undefined) {
    const platformUrl = platformFlag ?? (clientId === undefined ? undefined : await runningPlatformUrl(io.env, runtimeDir));
    try {
      const check = await checkActivityFile(activityFile, { clientId, platformUrl });
      io.stdout(json ? `${JSON.stringify(check, null, 2)}\n` : formatActivityCheck(check));
      return check.wire.evt === null ? 0 : 1;
    } catch (error) {
      if (!(error instanceof ActivityFileError)) throw error;
      io.stderr(`companion doctor: ${error.message}\n`);
      return 2;
    }
  }

  const wine = process.platform === 'linux' ? { wineProcesses: () => readProcesses() } : {};
  const report = await buildDoctorReport({ env: io.env, runtimeDir, guiTempDir: await darwinUserTempDir(), ...wine });
  const nativeGames = await nativeTlsStatus(io.env);
  const detection = await detectionDiagnosis(io.env, runtimeDir);
  const program = values.program as string | undefined;
  if (program === '') throw new UsageError('--program must not be empty');
  io.stdout(
    json ? `${JSON.stringify({ ...report, nativeGames, detection }, null, 2)}\n` : formatDoctorReport(report) + formatNativeTls(nativeGames) + formatDetectionSection(detection, program),
  );
  return 0;
}

/** The platform URL of the host serving this directory, from its runtime file (only that field is read). */
async function runningPlatformUrl(env: CommandIo['env'], runtimeDir: string | undefined): Promise<string | undefined> {
  try {
    const { info } = await readHostRuntimeFile({ runtimeDir, env });
    return typeof info.platform?.url === 'string' ? info.platform.url : undefined;
  } catch {
    return undefined;
  }
}
