import { writeFile } from 'node:fs/promises';
import { junitXml } from './junit.js';
import { loadScenarioFile, ScenarioFileError } from './scenario-loader.js';
import { closingLine, printingListener } from './scenario-report.js';
import { runScenario, type ScenarioResult } from './scenario-runner.js';
import type { ExistingHostOptions } from './scenario-host.js';
import type { ScenarioFile } from './scenario-schema.js';

export interface RunScenarioFilesOptions {
  readonly files: readonly string[];
  readonly version: string;
  readonly existing: ExistingHostOptions;
  /** Write JUnit XML here at the end. */
  readonly junit?: string | undefined;
  /** One JSON object per line instead of text. */
  readonly json?: boolean;
  /** A line of output (stdout). */
  readonly out: (line: string) => void;
  /** A problem that is not a scenario's result: invalid files, an unwritable JUnit file (stderr). */
  readonly err: (line: string) => void;
  readonly signal?: AbortSignal;
}

export interface RunScenarioFilesOutcome {
  /** 0 all passed; 1 a scenario failed (or the JUnit file could not be written); 2 invalid files. */
  readonly code: 0 | 1 | 2;
  readonly results: readonly ScenarioResult[];
}

/**
 * Validates every file first (any invalid file: exit code 2 and nothing runs), then runs the
 * scenarios one after another in the order given, printing a line per step, and ends with the
 * closing line `N passed, N failed` (scenarios).
 */
export async function runScenarioFiles(options: RunScenarioFilesOptions): Promise<RunScenarioFilesOutcome> {
  const loaded: ScenarioFile[] = [];
  const problems: string[] = [];
  const files = [...new Set(options.files)];
  for (const file of files) {
    try {
      loaded.push(await loadScenarioFile(file));
    } catch (error) {
      if (!(error instanceof ScenarioFileError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length > 0) {
    for (const problem of problems) options.err(problem);
    return { code: 2, results: [] };
  }

  const json = options.json === true;
  const listener = printingListener(options.out, json);
  const results: ScenarioResult[] = [];
  for (const file of loaded) {
    for (const scenario of file.scenarios) {
      if (options.signal?.aborted === true) break;
      results.push(await runScenario(file.file, scenario, { version: options.version, existing: options.existing, ...(options.signal === undefined ? {} : { signal: options.signal }) }, listener));
    }
  }
  const closing = closingLine(results);
  options.out(json ? JSON.stringify({ type: 'summary', passed: results.filter((result) => result.ok).length, failed: results.filter((result) => !result.ok).length }) : closing);

  let code: 0 | 1 = results.every((result) => result.ok) ? 0 : 1;
  if (options.junit !== undefined) {
    try {
      await writeFile(options.junit, junitXml(files, results));
    } catch (error) {
      options.err(`cannot write the JUnit file ${options.junit} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      code = 1;
    }
  }
  return { code, results };
}
