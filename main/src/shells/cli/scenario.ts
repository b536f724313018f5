import { hostOptions, parseCommandArgs, stringOption, UsageError, type CommandIo } from './cli-args.js';

export const SCENARIO_HELP = `Usage: companion scenario run FILE... [options]

Runs scripted QA flows written in YAML or JSON (see examples/scenarios/): start
a host or use a running one, connect fake games, send commands, answer consent
prompts, inject events and faults, drive a simulated friend, and check replies,
events, the presence a friend sees, and timing.

Each scenario gets a fresh in-process host with its embedded platform emulator
in temp dirs, unless it says 'host: {use: existing}'. Scenarios run one after
another; a scenario stops at its first failing step (the rest are skipped),
and everything it started is closed and removed, also when it fails.

Output: one line per step (ok / FAIL / skip), a line per scenario, and a
closing line 'N passed, N failed' that counts scenarios (not steps).

Exit code: 0 when every scenario passed; 1 when one failed; 2 for usage errors
and invalid scenario files (every problem is named with the file, the step and
the field, and nothing runs).

Options:
  --junit FILE        Also write JUnit XML: a testsuite per file, a testcase per
                      scenario (a failure names the step)
  --host FILE|URL     The running host for 'use: existing' scenarios: its runtime
                      file (host.json), or its control URL (then
                      COMPANION_CONTROL_TOKEN holds the token). Default: the host
                      serving the sockets games would find
  --runtime-dir DIR   Find the host that serves DIR instead
  --json              One JSON object per line (steps, scenarios, a summary)
  -h, --help          Show this help
`;

export async function scenarioCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArgs(
    'scenario',
    argv,
    { junit: { type: 'string' }, host: { type: 'string' }, 'runtime-dir': { type: 'string' }, json: { type: 'boolean' } },
    true,
  );
  if (parsed.help) {
    io.stdout(SCENARIO_HELP);
    return 0;
  }
  const [action, ...files] = parsed.positionals;
  if (action === undefined) {
    io.stderr(SCENARIO_HELP);
    return 2;
  }
  if (action !== 'run') throw new UsageError(`unknown scenario action '${action}' (see 'companion scenario --help')`);
  if (files.length === 0) throw new UsageError("scenario run needs at least one FILE (see 'companion scenario --help')");
  const { values } = parsed;
  const existing = hostOptions(values, io);
  if (existing.host !== undefined && existing.runtimeDir !== undefined) throw new UsageError('give either --host or --runtime-dir, not both');
  const junit = stringOption(values, 'junit');
  if (junit === '') throw new UsageError('--junit needs a file name');

  const { runScenarioFiles } = await import('../../tools/scenario/run-scenarios.js');
  // Ctrl+C: the current step stops, everything started is closed, then the run ends.
  const abort = new AbortController();
  const onSignal = (): void => abort.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const outcome = await runScenarioFiles({
      files,
      version: io.version,
      existing,
      junit,
      json: values.json === true,
      out: (line) => io.stdout(`${line}\n`),
      err: (line) => io.stderr(`companion scenario: ${line}\n`),
      signal: abort.signal,
    });
    return abort.signal.aborted ? 130 : outcome.code;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
