import { readFile } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** What a command needs from the process; tests pass their own. */
export interface CommandIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly version: string;
}

/** A mistake in how the command was called: printed with a hint, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface ParsedCommand {
  readonly help: boolean;
  readonly values: OptionValues;
  readonly positionals: string[];
}

/** util.parseArgs with --help/-h and errors that name the command and the problem. */
export function parseCommandArgs(command: string, argv: readonly string[], options: Options, allowPositionals = false): ParsedCommand {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals,
      strict: true,
    });
    const { help, ...rest } = values as OptionValues;
    return { help: help === true, values: rest, positionals };
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/\. To specify.*$/s, '') : String(error);
    throw new UsageError(`${message} (see 'companion ${command} --help')`);
  }
}

/** A string option's value; undefined when it was not given. */
export function stringOption(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/** The text of the file an option names (`option`: `--activity`, ...); a UsageError when it cannot be read. */
export async function readOptionFile(option: string, file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${option}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** The JSON in the file an option names; a UsageError when it cannot be read or is not JSON. */
export async function readOptionJson(option: string, file: string): Promise<unknown> {
  const text = await readOptionFile(option, file);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${option}: ${file} is not valid JSON (${error instanceof Error ? error.message : 'parse error'})`);
  }
}

/** A secret (a token, a client secret) from the file an option names, trimmed; a UsageError when it is empty. */
export async function readSecretFile(option: string, file: string): Promise<string> {
  const secret = (await readOptionFile(option, file)).trim();
  if (secret === '') throw new UsageError(`${option}: ${file} is empty`);
  return secret;
}

/** Rejects an option given that is neither one of `common` nor one of `allowed`: `--x is not an option of '<command>'`. */
export function rejectOtherOptions(values: OptionValues, common: ReadonlySet<string>, allowed: readonly string[], command: string): void {
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && !common.has(name) && !allowed.includes(name)) throw new UsageError(`--${name} is not an option of '${command}'`);
  }
}

/** Which host a client command means: `--host FILE|URL` and `--runtime-dir DIR`, as the host locators take them. */
export function hostOptions(values: OptionValues, io: CommandIo): { host: string | undefined; runtimeDir: string | undefined; env: CommandIo['env'] } {
  return { host: stringOption(values, 'host'), runtimeDir: stringOption(values, 'runtime-dir'), env: io.env };
}

/** An error class, for `reportExpected`. */
export type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * Runs `work`. An error of one of the `expected` classes (no host found, an unreadable
 * recording, a request the host refused, ...) is printed as `companion <command>: <message>`
 * and the answer is undefined: the command then ends with exit code 1. Other errors propagate.
 */
export async function reportExpected<T>(command: string, io: CommandIo, expected: readonly ErrorClass[], work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    if (expected.some((kind) => error instanceof kind)) {
      io.stderr(`companion ${command}: ${(error as Error).message}\n`);
      return undefined;
    }
    throw error;
  }
}
