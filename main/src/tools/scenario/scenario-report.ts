import type { RunListener, ScenarioResult, StepResult } from './scenario-runner.js';
import type { Scenario } from './scenario-schema.js';

/** `ok 3 expect_event ACTIVITY_JOIN on host (12 ms)`, `FAIL 4 command SET_ACTIVITY: ...`, `skip 5 wait 100 ms`. */
export function stepLine(result: StepResult): string {
  const head = `${result.index} ${result.kind} ${result.title}`;
  switch (result.status) {
    case 'ok':
      return `ok ${head}${result.note === undefined ? '' : `: ${result.note}`} (${result.ms ?? 0} ms)`;
    case 'fail':
      return `FAIL ${head}: ${result.message ?? 'failed'}`;
    case 'skip':
      return `skip ${head}`;
  }
}

export function scenarioHeader(file: string, scenario: Scenario): string {
  return `scenario '${scenario.name}' (${file})`;
}

/** `passed 'name' in 1234 ms`, or `FAILED 'name': step 4 command SET_ACTIVITY: ...`. */
export function scenarioFooter(result: ScenarioResult): string {
  return result.ok ? `passed '${result.name}' in ${result.ms} ms` : `FAILED '${result.name}': ${result.failure ?? 'failed'}`;
}

/** The closing line: scenarios passed and failed. */
export function closingLine(results: readonly ScenarioResult[]): string {
  const passed = results.filter((result) => result.ok).length;
  return `${passed} passed, ${results.length - passed} failed`;
}

/** Prints the run as it goes: text lines, or one JSON object per line (`--json`). */
export function printingListener(write: (line: string) => void, json: boolean): RunListener {
  if (json) {
    return {
      step: (file, scenario, result) => write(JSON.stringify({ type: 'step', file, scenario: scenario.name, ...result })),
      scenarioEnded: (result) => {
        const { steps: _steps, ...rest } = result;
        write(JSON.stringify({ type: 'scenario', ...rest }));
      },
    };
  }
  return {
    scenarioStarted: (file, scenario) => write(scenarioHeader(file, scenario)),
    step: (_file, _scenario, result) => write(stepLine(result)),
    scenarioEnded: (result) => write(scenarioFooter(result)),
  };
}
