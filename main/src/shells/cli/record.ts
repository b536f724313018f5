import { parseCommandArgs, reportExpected, UsageError, type CommandIo } from './cli-args.js';
import { RecordingError } from '../../../../common/src/recording/recording-error.js';
import { readRecording } from '../../host/record/record-reader.js';
import { describeHeader, jsonReplacer, matchesFilter, timelineLine, type TimelineFilter } from '../../host/record/timeline.js';

export const RECORD_HELP = `Usage: companion record show FILE [options]

Prints a recording made with 'companion serve --record FILE' as a timeline, one
line per record: the time since the recording started, the connection, the
direction (→ game to host, ← host to game, · host event) and what happened
(opcode, command and event, nonce, a compact payload).

Options:
  --connection ID     Only this connection (e.g. c3)
  --cmd NAME          Only frames of this command (e.g. SET_ACTIVITY)
  --evt NAME          Only frames of this event (e.g. ACTIVITY_JOIN), and
                      gateway dispatches of this type
  --from MS           Only records at or after MS milliseconds
  --to MS             Only records at or before MS milliseconds
  --full              Whole payloads instead of a shortened preview
  --json              One JSON object per line instead: the header, then each
                      record as written
  -h, --help          Show this help

A recording cut off by a kill is read up to its last whole record; a note on
stderr says so, and the exit code stays 0.
`;

function parseMs(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value);
  if (value.trim() === '' || !Number.isFinite(ms)) throw new UsageError(`${option} must be a number of milliseconds, got '${value}'`);
  return ms;
}

export async function recordCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArgs(
    'record',
    argv,
    {
      connection: { type: 'string' },
      cmd: { type: 'string' },
      evt: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      full: { type: 'boolean' },
      json: { type: 'boolean' },
    },
    true,
  );
  if (parsed.help) {
    io.stdout(RECORD_HELP);
    return 0;
  }
  const [action, file, ...extra] = parsed.positionals;
  if (action === undefined) throw new UsageError("missing action: 'companion record show FILE' (see 'companion record --help')");
  if (action !== 'show') throw new UsageError(`unknown action '${action}' (see 'companion record --help')`);
  if (file === undefined) throw new UsageError('record show needs the recording FILE');
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const values = parsed.values;
  const filter: TimelineFilter = {
    ...(typeof values.connection === 'string' ? { connection: values.connection } : {}),
    ...(typeof values.cmd === 'string' ? { cmd: values.cmd } : {}),
    ...(typeof values.evt === 'string' ? { evt: values.evt } : {}),
  };
  const from = parseMs(values.from as string | undefined, '--from');
  const to = parseMs(values.to as string | undefined, '--to');
  if (from !== undefined && to !== undefined && from > to) throw new UsageError(`--from (${from}) is after --to (${to})`);
  const range = { ...filter, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };

  const recording = await reportExpected('record', io, [RecordingError], () => readRecording(file));
  if (recording === undefined) return 1;
  const json = values.json === true;
  const out: string[] = [];
  out.push(json ? JSON.stringify(recording.header) : describeHeader(recording.header));
  for (const record of recording.records) {
    if (!matchesFilter(record, range)) continue;
    out.push(json ? JSON.stringify(record, jsonReplacer) : timelineLine(record, { full: values.full === true }));
    // Bounded memory for long recordings: print in slices.
    if (out.length >= 1000) io.stdout(`${out.splice(0).join('\n')}\n`);
  }
  if (out.length > 0) io.stdout(`${out.join('\n')}\n`);
  if (recording.skipped > 0) io.stderr(`companion record: note: ${recording.skipped} records of a kind this version does not know were skipped\n`);
  if (recording.tail !== null) io.stderr(`companion record: note: ${recording.tail.message}\n`);
  return 0;
}
