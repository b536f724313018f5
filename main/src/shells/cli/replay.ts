import { hostOptions, parseCommandArgs, readSecretFile, reportExpected, UsageError, type CommandIo } from './cli-args.js';
import { HostNotFoundError } from '../../base/host-locator.js';
import { RecordingError } from '../../../../common/src/recording/recording-error.js';
import { readRecording } from '../../host/record/record-reader.js';
import { planReplay } from '../../tools/replay/replay-plan.js';
import { formatReplayReport, replayReportJson } from '../../tools/replay/replay-report.js';
import { DEFAULT_REPLAY_TIMEOUT_MS, runReplay } from '../../tools/replay/replay-runner.js';
import { locateReplayTarget } from '../../tools/replay/replay-target.js';

export const REPLAY_HELP = `Usage: companion replay FILE [options]

Plays the game side of a recording (made with 'companion serve --record FILE')
against a running host, as the games did: one IPC connection per recorded
connection, the same frames at the same times, and compares every reply and
event the host sends with the recorded ones. Exit code 0 when nothing differs,
1 when something does (each difference is printed: where, expected, actual).

Values a fresh host issues anew are substituted: a new PKCE challenge for
AUTHORIZE, the new code redeemed at the platform's token endpoint, and that
token sent in AUTHENTICATE; their replies are compared by kind. Also compared by
kind only: ids (id, *_id but client_id and application_id), times (timestamp,
expires, *_at), codes and tokens, redacted values; loopback ports in strings are
ignored. Secrets are never printed.

Run the host with '--consent approve' (or answer its prompts) when the recording
has an AUTHORIZE.

Options:
  --host FILE|URL     The host's runtime file (host.json) or control URL (then
                      COMPANION_CONTROL_TOKEN holds the token). Default: the host
                      serving the sockets games would find
  --runtime-dir DIR   Find the host that serves DIR instead
  --fast              Send each frame as soon as the previous one's reply
                      arrived, instead of at its recorded time
  --timeout MS        How long to wait for a reply or the frames a connection
                      still expects (default ${DEFAULT_REPLAY_TIMEOUT_MS})
  --client-secret-file FILE
                      The application's client secret, for confidential apps'
                      token exchange (or set COMPANION_CLIENT_SECRET); public
                      clients need none
  --json              Print the report as JSON
  -h, --help          Show this help
`;

export async function replayCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArgs(
    'replay',
    argv,
    {
      host: { type: 'string' },
      'runtime-dir': { type: 'string' },
      fast: { type: 'boolean' },
      timeout: { type: 'string' },
      'client-secret-file': { type: 'string' },
      json: { type: 'boolean' },
    },
    true,
  );
  if (parsed.help) {
    io.stdout(REPLAY_HELP);
    return 0;
  }
  const [file, ...extra] = parsed.positionals;
  if (file === undefined) throw new UsageError("missing the recording FILE (see 'companion replay --help')");
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const values = parsed.values;
  const timeoutText = values.timeout as string | undefined;
  const timeoutMs = timeoutText === undefined ? DEFAULT_REPLAY_TIMEOUT_MS : Number(timeoutText);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new UsageError(`--timeout must be a positive number of milliseconds, got '${timeoutText}'`);
  const clientSecret = await readClientSecret(values['client-secret-file'] as string | undefined, io.env);

  const recording = await reportExpected('replay', io, [RecordingError], () => readRecording(file));
  if (recording === undefined) return 1;
  if (recording.tail !== null) io.stderr(`companion replay: note: ${recording.tail.message}\n`);

  const target = await reportExpected('replay', io, [HostNotFoundError], () => locateReplayTarget(hostOptions(values, io)));
  if (target === undefined) return 1;

  const plan = planReplay(recording);
  const json = values.json === true;
  if (!json) {
    const replayed = plan.connections.filter((c) => c.skipped === null).length;
    io.stdout(`Replaying ${file}: ${replayed} of ${plan.connections.length} connections against ${target.ipcPath}${values.fast === true ? ' (fast)' : ''}\n`);
  }
  const report = await runReplay(plan, target, { fast: values.fast === true, timeoutMs, clientSecret });
  io.stdout(json ? `${JSON.stringify(replayReportJson(report), null, 2)}\n` : formatReplayReport(report));
  return report.differenceCount === 0 ? 0 : 1;
}

/** From a file or COMPANION_CLIENT_SECRET, never from the command line. */
async function readClientSecret(file: string | undefined, env: Readonly<Record<string, string | undefined>>): Promise<string | undefined> {
  if (file !== undefined) return readSecretFile('--client-secret-file', file);
  const fromEnv = env['COMPANION_CLIENT_SECRET']?.trim();
  return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
}
