import { readdirSync } from 'node:fs';
import path from 'node:path';
import { runScenarioFiles, type RunScenarioFilesOutcome } from '../../../src/tools/scenario/run-scenarios.js';
import type { ExistingHostOptions } from '../../../src/tools/scenario/scenario-host.js';
import { REPO_ROOT } from '../../support/cli-process.js';

export const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples', 'scenarios');

/** Every example scenario file, as a path relative to the repository (as a CI run names them). */
export function exampleFiles(): string[] {
  return readdirSync(EXAMPLES_DIR)
    .filter((name) => /\.(ya?ml|json)$/.test(name))
    .sort()
    .map((name) => path.join('examples', 'scenarios', name));
}

export interface InProcessRun extends RunScenarioFilesOutcome {
  readonly out: string[];
  readonly err: string[];
}

/** Runs scenario files through the runner in this process, collecting the output lines. */
export async function runInProcess(files: readonly string[], options: { junit?: string; json?: boolean; existing?: ExistingHostOptions } = {}): Promise<InProcessRun> {
  const out: string[] = [];
  const err: string[] = [];
  const outcome = await runScenarioFiles({
    files: files.map((file) => (path.isAbsolute(file) ? file : path.join(REPO_ROOT, file))),
    version: '0.0.0-test',
    existing: options.existing ?? { env: {} },
    junit: options.junit,
    json: options.json === true,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { ...outcome, out, err };
}
