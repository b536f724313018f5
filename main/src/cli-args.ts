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

export interface ParsedCommand {
  readonly help: boolean;
  readonly values: Record<string, string | boolean | (string | boolean)[] | undefined>;
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
    const { help, ...rest } = values as Record<string, string | boolean | (string | boolean)[] | undefined>;
    return { help: help === true, values: rest, positionals };
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/\. To specify.*$/s, '') : String(error);
    throw new UsageError(`${message} (see 'companion ${command} --help')`);
  }
}
