import type { DetectableOs } from '../../../../platform/src/wire/index.js';
import type { DetectionDiagnosis, ProgramDiagnosis, ProgramVerdict } from '../../diagnostics/doctor/detection-section.js';
import type { DetectionExplanation } from './detectable-index.js';
import type { ScannedProcess } from './process-source.js';

/** The index's explanation as the doctor shows it (no command line: only the entry's own `arguments`). */
export function programVerdict(explanation: DetectionExplanation, thisOs: DetectableOs): ProgramVerdict {
  if (explanation.kind === 'no-entry') return { kind: 'no-entry' };
  const { application, executable } = explanation.match;
  const base = { application_id: application.id, application_name: application.name, entry: executable.name };
  switch (explanation.kind) {
    case 'detected':
      return { kind: 'detected', ...base };
    case 'launcher':
      return { kind: 'launcher', ...base };
    case 'argument-missing':
      return { kind: 'argument-missing', ...base, arguments: explanation.arguments };
    case 'other-os':
      return { kind: 'other-os', ...base, os: explanation.os, this_os: thisOs };
  }
}

/** One running program, explained: the path it was matched by (the first, most telling candidate). */
export function programDiagnosis(process: ScannedProcess, explanation: DetectionExplanation, thisOs: DetectableOs): ProgramDiagnosis | null {
  const matched = explanation.kind === 'no-entry' ? process.candidates[0]?.path : explanation.match.path;
  if (matched === undefined) return null;
  return { pid: process.pid, path: matched, verdict: programVerdict(explanation, thisOs) };
}

export type { DetectionDiagnosis };
