/**
 * The bench's command line: phase names (`npm run bench -- soak`, also comma-separated) that
 * take the place of BENCH_PHASES, and `--duration N`, the soak phase's length in seconds (in
 * place of BENCH_SOAK_S). Without arguments the environment decides, as before.
 */
import { parseArgs } from 'node:util';

export interface BenchArgs {
  readonly phases: readonly string[] | undefined;
  readonly soakSeconds: number | undefined;
}

export class BenchUsageError extends Error {}

function parseCommandLine(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: { duration: { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new BenchUsageError(error instanceof Error ? error.message : String(error));
  }
}

export function parseBenchArgs(argv: readonly string[], knownPhases: readonly string[]): BenchArgs {
  // `node scripts/bench.mjs -- soak` passes the `--` that npm would have taken.
  const parsed = parseCommandLine(argv[0] === '--' ? argv.slice(1) : argv);
  const phases = parsed.positionals.flatMap((arg) => arg.split(',')).filter((name) => name !== '');
  const unknown = phases.filter((name) => !knownPhases.includes(name));
  if (unknown.length > 0) throw new BenchUsageError(`unknown phase ${unknown.join(', ')}; phases: ${knownPhases.join(', ')}`);
  const duration = parsed.values.duration;
  let soakSeconds: number | undefined;
  if (duration !== undefined) {
    soakSeconds = Number(duration);
    if (!Number.isInteger(soakSeconds) || soakSeconds <= 0) throw new BenchUsageError(`--duration takes a whole number of seconds, got '${duration}'`);
  }
  return { phases: phases.length > 0 ? phases : undefined, soakSeconds };
}
