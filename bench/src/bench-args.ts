/**
 * The bench's command line: phase names (`npm run bench -- soak`, also comma-separated) that
 * take the place of BENCH_PHASES; `--duration N`, the soak phase's length in seconds (in
 * place of BENCH_SOAK_S); `--frames N` and `--seed S`, the fuzz phase's frame count and seed
 * (in place of BENCH_FUZZ_FRAMES and BENCH_FUZZ_SEED). Without arguments the environment
 * decides, as before.
 */
import { parseArgs } from 'node:util';

export interface BenchArgs {
  readonly phases: readonly string[] | undefined;
  readonly soakSeconds: number | undefined;
  readonly fuzzFrames: number | undefined;
  readonly fuzzSeed: number | undefined;
}

export class BenchUsageError extends Error {}

function parseCommandLine(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: { duration: { type: 'string' }, frames: { type: 'string' }, seed: { type: 'string' } }, allowPositionals: true, strict: true });
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
  return {
    phases: phases.length > 0 ? phases : undefined,
    soakSeconds: wholeNumber(parsed.values.duration, '--duration takes a whole number of seconds', 1),
    fuzzFrames: wholeNumber(parsed.values.frames, '--frames takes a whole number of frames', 1),
    fuzzSeed: wholeNumber(parsed.values.seed, '--seed takes a whole number from 0 to 4294967295', 0, 0xffffffff),
  };
}

function wholeNumber(text: string | undefined, what: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < min || value > max) throw new BenchUsageError(`${what}, got '${text}'`);
  return value;
}
