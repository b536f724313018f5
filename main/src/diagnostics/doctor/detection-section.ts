/**
 * The doctor's "Game detection" section: what the running host's scanner makes of each running
 * program, in words. The data comes from the host (`GET /v1/detection`, its detectable index's
 * explanation of each process); only paths, ids, names and the list's entries appear, never a
 * command line (it may carry a token).
 */

/** Why a running program is, or is not, detected (the index's explanation, as the host serves it). */
export type ProgramVerdict =
  | { readonly kind: 'detected'; readonly application_id: string; readonly application_name: string; readonly entry: string }
  /** Its path matches only launcher entries. */
  | { readonly kind: 'launcher'; readonly application_id: string; readonly application_name: string; readonly entry: string }
  /** Its path matches an entry whose `arguments` are not in its command line. */
  | { readonly kind: 'argument-missing'; readonly application_id: string; readonly application_name: string; readonly entry: string; readonly arguments: string }
  /** Its path matches entries for other OSes only. */
  | { readonly kind: 'other-os'; readonly application_id: string; readonly application_name: string; readonly entry: string; readonly os: readonly string[]; readonly this_os: string }
  | { readonly kind: 'no-entry' };

export interface ProgramDiagnosis {
  readonly pid: number;
  /** The path the scanner matched with (the `.exe` of a Wine game, else the binary). */
  readonly path: string;
  readonly verdict: ProgramVerdict;
}

/** What the doctor learned of game detection. */
export type DetectionDiagnosis =
  | { readonly state: 'not-running' }
  /** The host has no scanner for this OS, or no list yet. */
  | { readonly state: 'no-scanner'; readonly reason: string }
  | {
      readonly state: 'explained';
      readonly enabled: boolean;
      readonly list: { readonly source: 'none' | 'cache' | 'platform'; readonly applications: number; readonly last_error: string | null };
      readonly programs: readonly ProgramDiagnosis[];
    };

function listLine(list: Extract<DetectionDiagnosis, { state: 'explained' }>['list']): string {
  if (list.source === 'platform') return `  list: ${list.applications} detectable applications from the platform`;
  if (list.source === 'cache') return `  list: ${list.applications} detectable applications from the cached copy (the platform could not be reached${list.last_error === null ? '' : `: ${list.last_error}`})`;
  return `  list: none yet (fetched at sign-in${list.last_error === null ? '' : `; the last try failed: ${list.last_error}`})`;
}

/** Why a program is not shown, in a sentence. */
export function verdictWords(verdict: ProgramVerdict): string {
  switch (verdict.kind) {
    case 'detected':
      return `detected: ${verdict.application_name} (${verdict.application_id}), entry '${verdict.entry}'`;
    case 'launcher':
      return `not shown: '${verdict.entry}' is ${verdict.application_name}'s launcher, and a launcher is never shown as a game played`;
    case 'argument-missing':
      return `not detected: ${verdict.application_name}'s entry '${verdict.entry}' needs '${verdict.arguments}' in the command line, and this one lacks it`;
    case 'other-os':
      return `not detected: ${verdict.application_name} lists '${verdict.entry}' for ${verdict.os.join(', ')} only, no entry for ${verdict.this_os}`;
    case 'no-entry':
      return 'not detected: no application of the list has an entry for this program';
  }
}

/**
 * The section for a terminal. `program`: only the programs whose path contains it (any case),
 * each explained, those without any entry too; without it, the detected programs and the near
 * misses (launcher, argument, other OS), and a count of the rest.
 */
export function formatDetectionSection(diagnosis: DetectionDiagnosis, program?: string): string {
  const lines = ['', 'Game detection'];
  if (diagnosis.state === 'not-running') lines.push('  Companion is not running: detection runs in the host (start it, then ask again)');
  else if (diagnosis.state === 'no-scanner') lines.push(`  ${diagnosis.reason}`);
  else {
    lines.push(listLine(diagnosis.list));
    if (!diagnosis.enabled) lines.push('  off: the player switched game detection off (Settings, Detected games)');
    const needle = program?.toLowerCase();
    const chosen = needle === undefined ? diagnosis.programs.filter((p) => p.verdict.kind !== 'no-entry') : diagnosis.programs.filter((p) => p.path.toLowerCase().includes(needle));
    for (const found of chosen) lines.push(`  ${found.path} (pid ${found.pid}): ${verdictWords(found.verdict)}`);
    if (needle !== undefined && chosen.length === 0) lines.push(`  no running program's path contains '${program ?? ''}'`);
    const rest = diagnosis.programs.length - chosen.length;
    if (needle === undefined && rest > 0) lines.push(`  ${rest} other running programs match no entry ('--program NAME' explains one)`);
  }
  lines.push('');
  return lines.join('\n');
}
