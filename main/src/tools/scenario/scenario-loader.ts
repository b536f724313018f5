import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import yaml from 'js-yaml';
import {
  DEFAULT_TIMEOUT_MS,
  STEP_KINDS,
  STEP_SCHEMAS,
  ScenarioHeadSchema,
  type Scenario,
  type ScenarioFile,
  type Step,
  type StepKind,
} from './scenario-schema.js';
import { checkScenarioReferences } from './scenario-references.js';

/** Why a scenario file cannot be run: every problem, each naming the file, the step and the field. */
export class ScenarioFileError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ScenarioFileError';
  }
}

/** `'field' problem` from a valibot issue; a field that is not there is "required". */
export function describeIssue(issue: v.BaseIssue<unknown>, prefix = ''): string {
  const dotPath = v.getDotPath(issue);
  const field = [prefix, dotPath ?? ''].filter((part) => part !== '').join('.');
  const missing = dotPath !== null && issue.input === undefined;
  // Strict objects report a wrong type and an unknown key with one message: tell them apart.
  const notAMapping = (issue.type === 'strict_object' || issue.type === 'object') && issue.expected !== 'never';
  const problem = missing ? 'is required' : notAMapping ? 'must be a mapping' : issue.message;
  return field === '' ? problem : `'${field}' ${problem}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One step: exactly one step kind key (and an optional label), then that kind's body schema. */
function parseStep(raw: unknown, where: string): { step?: Step; problem?: string } {
  if (!isObject(raw)) return { problem: `${where}: must be a mapping with one step kind as its key (${STEP_KINDS.join(', ')})` };
  const keys = Object.keys(raw).filter((key) => key !== 'label');
  const kinds = keys.filter((key): key is StepKind => (STEP_KINDS as readonly string[]).includes(key));
  const unknown = keys.filter((key) => !(STEP_KINDS as readonly string[]).includes(key));
  if (kinds.length === 0) {
    const named = unknown.length === 0 ? 'has no step kind' : `unknown step kind '${unknown[0]}'`;
    return { problem: `${where}: ${named} (known: ${STEP_KINDS.join(', ')})` };
  }
  if (kinds.length > 1) return { problem: `${where}: has two step kinds, '${kinds[0]}' and '${kinds[1]}' (one per step)` };
  const kind = kinds[0] as StepKind;
  if (unknown.length > 0) return { problem: `${where} (${kind}): '${unknown[0]}' is not a known field beside '${kind}' (only label)` };
  const label = raw['label'];
  if (label !== undefined && (typeof label !== 'string' || label === '')) return { problem: `${where} (${kind}): 'label' must be a non-empty string` };
  const result = v.safeParse(STEP_SCHEMAS[kind] as v.GenericSchema, raw[kind], { abortEarly: true });
  if (!result.success) {
    const issue = result.issues[0] as v.BaseIssue<unknown>;
    const body = raw[kind];
    // A whole body missing (`- wait:` with nothing) reads better as that.
    if (body === null || body === undefined) return { problem: `${where} (${kind}): needs a value (${issue.message})` };
    return { problem: `${where} (${kind}): ${describeIssue(issue)}` };
  }
  return { step: { kind, body: result.output, ...(label === undefined ? {} : { label }) } as Step };
}

/** One scenario document; problems are prefixed with `prefix` (the file, and which scenario). */
export function parseScenario(raw: unknown, prefix: string): { scenario?: Scenario; problems: string[] } {
  if (!isObject(raw)) return { problems: [`${prefix}: must be a mapping with name and steps`] };
  const head = v.safeParse(ScenarioHeadSchema, raw, { abortEarly: true });
  if (!head.success) return { problems: [`${prefix}: ${describeIssue(head.issues[0] as v.BaseIssue<unknown>)}`] };
  const problems: string[] = [];
  const host = head.output.host;
  if (host?.use === 'existing') {
    const freshOnly = (['user', 'consent_always_ask', 'strict_apps'] as const).find((key) => host[key] !== undefined);
    if (freshOnly !== undefined) problems.push(`${prefix}: 'host.${freshOnly}' is only for a fresh host (use: existing runs as the host is)`);
  }
  const steps: Step[] = [];
  head.output.steps.forEach((rawStep, index) => {
    const parsed = parseStep(rawStep, `${prefix}: step ${index + 1}`);
    if (parsed.problem !== undefined) problems.push(parsed.problem);
    else if (parsed.step !== undefined) steps.push(parsed.step);
  });
  if (problems.length > 0) return { problems };
  const scenario: Scenario = {
    name: head.output.name,
    ...(head.output.description === undefined ? {} : { description: head.output.description }),
    host: head.output.host ?? {},
    timeoutMs: head.output.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    steps,
  };
  const references = checkScenarioReferences(scenario).map((problem) => `${prefix}: ${problem}`);
  return references.length > 0 ? { problems: references } : { scenario, problems: [] };
}

/** The documents of a file: JSON (`.json`: one object or an array of them) or YAML (`---` separated). */
export function parseDocuments(text: string, file: string): unknown[] {
  if (path.extname(file).toLowerCase() === '.json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new ScenarioFileError([`${file}: not valid JSON (${error instanceof Error ? error.message : 'parse error'})`]);
    }
    return Array.isArray(parsed) ? parsed : [parsed];
  }
  try {
    return yaml.loadAll(text).filter((document) => document !== null && document !== undefined);
  } catch (error) {
    const reason = error instanceof yaml.YAMLException ? error.message.split('\n')[0] : error instanceof Error ? error.message : 'parse error';
    throw new ScenarioFileError([`${file}: not valid YAML (${reason})`]);
  }
}

/** Parses a file's text; throws ScenarioFileError with every problem found. */
export function parseScenarioText(text: string, file: string): ScenarioFile {
  const documents = parseDocuments(text, file);
  if (documents.length === 0) throw new ScenarioFileError([`${file}: holds no scenario`]);
  const problems: string[] = [];
  const scenarios: Scenario[] = [];
  const names = new Set<string>();
  documents.forEach((document, index) => {
    const name = isObject(document) && typeof document['name'] === 'string' ? document['name'] : undefined;
    const prefix = documents.length === 1 ? file : `${file}: scenario ${index + 1}${name === undefined ? '' : ` '${name}'`}`;
    const parsed = parseScenario(document, prefix);
    problems.push(...parsed.problems);
    if (parsed.scenario === undefined) return;
    if (names.has(parsed.scenario.name)) problems.push(`${prefix}: 'name' is used by another scenario of this file`);
    names.add(parsed.scenario.name);
    scenarios.push(parsed.scenario);
  });
  if (problems.length > 0) throw new ScenarioFileError(problems);
  return { file, scenarios };
}

/** Reads and validates one file; throws ScenarioFileError naming the file. */
export async function loadScenarioFile(file: string): Promise<ScenarioFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ScenarioFileError([`${file}: cannot read it (${code === 'ENOENT' ? 'no such file' : (code ?? 'error')})`]);
  }
  return parseScenarioText(text, file);
}
